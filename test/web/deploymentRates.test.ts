import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBuilt } from '../../src/webBuild.js';
import { buildSessionCookie, buildTenant, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { launch, screenshot, signedIn, text, until } from './browser.js';
import { SCOPE, SEED_ENV, seedTenant, type Seeded } from './seed.js';
import { seedRatesAndUnowned } from './seedRates.js';

/**
 * Issue 38, points 2 and 3: deployment frequency reads as a rate with its unit, count, band and
 * "since"; the projects no team owns are a "No team" row, so the teams add up to the total.
 * Hand-worked numbers: test/web/seedRates.ts.
 */
describe('web app: deployment frequency as a rate, and the "No team" row (Chromium)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let browser: Browser;
  let tenant: BuiltTenant;
  let seeded: Seeded;
  let page: Page;

  before(async function () {
    this.timeout(120_000);
    ensureWebBuilt(() => {});
    server = await testServer({ env: SEED_ENV });
    tenant = await buildTenant(server.databaseUrl, 'Rates');
    seeded = await seedTenant(server, tenant.owner.apiKey, tenant.tenantId);
    await seedRatesAndUnowned(server, tenant.owner.apiKey);
    browser = await launch();
    const context = await signedIn(browser, server.baseUrl, await buildSessionCookie(server.databaseUrl, tenant.owner.userId, tenant.tenantId));
    page = await context.newPage();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('Overview: the organisation\'s rate per week with its count and band, and what the total includes', async () => {
    await page.goto(`/app/?${SCOPE}`);
    await until(() => text(page, 'deployment-frequency-value'), '0.86 per week · 11 deployments');
    expect(await text(page, 'deployment-frequency-tier')).to.equal('DORA 2023: medium');
    await until(() => text(page, 'deployment-frequency-unowned'), 'Includes 2 from projects no team owns');
    // The organisation's first deployment (2025-11-01) precedes the window: no "since".
    expect(await page.getByTestId('deployment-frequency-since').count()).to.equal(0);
    await until(() => text(page, 'deployment-frequency-previous'), 'Previous window: 0.11 per week · 1 deployment · since 1 Nov 2025 · up (better)');
    await screenshot(page, 'overview-rate');
  });

  it('Overview of a team whose deployments start late: the rate since its first deployment, and its band over those days', async () => {
    await page.goto(`/app/?${SCOPE}&team=${seeded.teams.beta}`);
    await until(() => text(page, 'deployment-frequency-value'), '1.2 per week · 5 deployments');
    // 5 in 30 days (1/6 a day) is "high"; over the window's 90 days it would read "medium".
    expect(await text(page, 'deployment-frequency-tier')).to.equal('DORA 2023: high');
    expect(await text(page, 'deployment-frequency-since')).to.equal('Rate over the days since 2 Mar 2026, this scope\'s first deployment');
    expect(await page.getByTestId('deployment-frequency-unowned').count()).to.equal(0);
    await until(() => text(page, 'deployment-frequency-previous'), 'Previous window: 0 deployments');
  });

  it('Teams: a "No team" row, and the rows add up to the organisation\'s total', async () => {
    await page.goto(`/app/teams?${SCOPE}`);
    const table = page.getByRole('table');
    await until(async () => (await table.locator('tbody tr').count()) === 4, true);
    const header = (await table.locator('thead th').allInnerTexts()).map((h) => h.trim());
    const deploys = header.indexOf('Production deploys');
    const frequency = header.indexOf('Deployment frequency');
    // A cell's first line is its number (the lines under it compare with the previous window and the teams' median).
    const pick = (rows: string[]) => rows.map((r) => { const c = r.split('\t').map((x) => x.split('\n')[0]); return [c[0], c[deploys], c[frequency]].join('|'); });
    expect(pick(await table.locator('tbody tr').allInnerTexts())).to.deep.equal([
      'Alpha|4|0.31 per week',
      'Beta|5|1.2 per week · since 2 Mar 2026',
      // A count without a deployment source is missing data, not 0.
      'Empty|no deployment source|no deployment source',
      'No team|2|0.28 per week · since 10 Feb 2026',
    ]);
    await until(async () => pick(await table.locator('tfoot tr').allInnerTexts()), ['Organisation|11|0.86 per week']);
    expect(await text(page, 'teams-total-note')).to.equal('The organisation row is over every project: the teams\' rows plus “No team”, the projects no team owns. A person on two teams counts in both; the organisation\'s headcount counts them once.');
    // Sorting moves the teams, never the total.
    await page.getByRole('button', { name: 'Production deploys' }).click();
    expect(pick(await table.locator('tbody tr').allInnerTexts()).map((r) => r.split('|')[0])).to.deep.equal(['Beta', 'Alpha', 'No team', 'Empty']);
    expect(pick(await table.locator('tfoot tr').allInnerTexts())).to.deep.equal(['Organisation|11|0.86 per week']);
    await screenshot(page, 'teams-no-team');
  });
});
