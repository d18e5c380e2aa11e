import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { buildMember, buildTenant, type BuiltTenant } from '../helpers/factories.js';
import type { TestServer } from '../helpers/server.js';
import { answer, buildTeam, linksOf } from '../surveys/helpers.js';
import { screenshot, serverAndBrowser, tabAs, until } from './browser.js';

const rows = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((trs) => trs.map((r) => [...r.querySelectorAll('th, td')].map((c) => (c.textContent ?? '').replace(/\s+/g, ' ').trim())));

describe('web app: Settings › Surveys (Chromium)', function () {
  this.timeout(90_000);
  const suite = serverAndBrowser();
  let server: TestServer;
  let tenant: BuiltTenant;

  before(async () => {
    ({ server } = suite);
    tenant = await buildTenant(server.databaseUrl, 'Survey Org');
    await buildTeam(server.databaseUrl, tenant.tenantId, 'alpha', 3);
    await buildTeam(server.databaseUrl, tenant.tenantId, 'beta', 2);
  });

  it('an owner starts a survey (the API’s errors under their fields), sees the response rate, results per team with the fewer-than-3 rule, downloads the links and closes it', async () => {
    const page = await tabAs(suite, tenant.owner.userId, tenant.tenantId);
    await page.goto('/app/settings/surveys');
    await page.getByRole('heading', { name: 'Start a survey' }).waitFor();
    await page.getByLabel('Title').fill('Q4 pulse');
    await page.getByRole('button', { name: 'Start survey' }).click();
    await until(() => page.locator('#survey-teams-error').innerText(), 'Choose at least one team');
    await page.getByLabel('Team alpha').check();
    await page.getByLabel('Team beta').check();
    await page.getByLabel('Closes on').fill('2020-01-01');
    await page.getByRole('button', { name: 'Start survey' }).click();
    await until(() => page.locator('#survey-closesOn-error').innerText(), 'Must not be before opensOn');
    expect(await page.getByLabel('Closes on').evaluate((el) => el === document.activeElement)).to.equal(true);
    await page.getByLabel('Closes on').fill(new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10));
    await page.getByRole('button', { name: 'Start survey' }).click();
    await until(async () => (await rows(page, '[data-testid="surveys"] tbody tr')).map((r) => [r[0], r[2], r[3]]), [['Q4 pulse', 'open', '0 of 5']]);

    const survey = (await server.as(tenant.owner.apiKey).get('/api/surveys')).body.data[0];
    const links = await linksOf(server, tenant.owner.apiKey, survey.id);
    for (const link of links.slice(0, 4)) await answer(server, link, [4, 4, 4, 4, 4]);
    await page.reload();
    await until(async () => (await rows(page, '[data-testid="surveys"] tbody tr'))[0]?.[3], '4 of 5');
    await page.getByRole('button', { name: 'Results' }).click();
    // The links CSV lists alpha's three people first, then beta's two: alpha answered fully, beta once.
    await until(() => rows(page, `[data-testid="results-${survey.id}"] tbody tr`), [
      ['Team alpha', '3', '3', '100%', '75.0 n = 3'],
      ['Team beta', '2', '1', '50%', 'hidden: fewer than 3 responses (1)'],
    ]);
    await screenshot(page, 'settings-surveys');
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download links' }).click();
    const file = await (await download).path();
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(file, 'utf8')).to.equal((await server.as(tenant.owner.apiKey).get(`/api/surveys/${survey.id}/links`)).text);

    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByRole('button', { name: 'Close survey' }).click();
    await until(async () => (await rows(page, '[data-testid="surveys"] tbody tr'))[0]?.[2], `closed ${new Date().toISOString().slice(0, 10)}`);
    expect((await server.as(tenant.owner.apiKey).get(`/api/surveys/${survey.id}`)).body.data.status).to.equal('closed');
  });

  it('a member sees the surveys and results but no form, no links and no close button', async () => {
    const member = await buildMember(server.databaseUrl, tenant.tenantId);
    const page = await tabAs(suite, member.userId, tenant.tenantId);
    await page.goto('/app/settings/surveys');
    await until(async () => (await rows(page, '[data-testid="surveys"] tbody tr')).length, 1);
    expect(await page.getByRole('heading', { name: 'Start a survey' }).count()).to.equal(0);
    expect(await page.getByRole('link', { name: 'Download links' }).count()).to.equal(0);
    expect(await page.getByRole('button', { name: 'Close', exact: true }).count()).to.equal(0);
    await page.getByRole('button', { name: 'Results' }).click();
    await until(async () => (await page.locator('[data-testid^="results-"] tbody tr').count()), 2);
  });
});
