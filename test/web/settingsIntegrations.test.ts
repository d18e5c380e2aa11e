import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { announceInstallation, codehostEnv } from '../activity/helpers.js';
import { buildMember, buildSessionCookie, buildTenant, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { personTab, screenshot, serverAndBrowser, text, until } from './browser.js';

const rows = (page: Page) =>
  page.locator('[data-testid="installations"] tbody tr').evaluateAll((trs) => trs.map((r) => [...r.querySelectorAll('th, td')].slice(0, 3).map((c) => (c.textContent ?? '').trim())));

describe('web app: Settings › Integrations (Chromium)', function () {
  this.timeout(90_000);
  const suite = serverAndBrowser({ env: codehostEnv() });
  let server: TestServer;
  let bare: TestServer;
  let browser: Browser;
  let tenant: BuiltTenant;

  before(async () => {
    ({ server, browser } = suite);
    tenant = await buildTenant(server.databaseUrl, 'Integrations Org');
    // The code host announced them: an owner links only those (docs/activity.md).
    await announceInstallation(server.databaseUrl, 4242, 5151);
  });
  after(async () => {
    await bare?.close();
  });
  /** The file's one tab (personTab), signed in as the person: a context of its own cost a page load's CPU again. */
  const tabAs = async (userId: string, tenantId: string, on = server) => personTab({ server: on, browser }, await buildSessionCookie(on.databaseUrl, userId, tenantId));

  it('shows the application’s URLs, links an installation by id (the API’s error under the field first) and unlinks it', async () => {
    const page = await tabAs(tenant.owner.userId, tenant.tenantId);
    await page.goto('/app/settings/integrations');
    expect(await text(page, 'webhook-url')).to.equal(`${server.baseUrl}/api/integrations/codehost/webhook`);
    expect(await text(page, 'setup-url')).to.equal(`${server.baseUrl}/api/integrations/codehost/setup`);
    const id = page.getByLabel('Installation id');
    await id.fill('twelve');
    await page.getByRole('button', { name: 'Link installation' }).click();
    await until(() => id.getAttribute('aria-invalid'), 'true');
    await id.fill('4242');
    await page.getByRole('button', { name: 'Link installation' }).click();
    await until(() => rows(page), [['4242', '—', 'linked']]);
    await screenshot(page, 'settings-integrations');
    const state = (await server.as(tenant.owner.apiKey).get('/api/integrations/codehost')).body.data.installations;
    expect(state.map((i: { installationId: number; linkedByUserId: string }) => [i.installationId, i.linkedByUserId])).to.deep.equal([[4242, tenant.owner.userId]]);
    await page.getByRole('button', { name: 'Unlink' }).click();
    await page.getByRole('button', { name: 'Unlink installation' }).click();
    await until(async () => (await server.as(tenant.owner.apiKey).get('/api/integrations/codehost')).body.data.installations.filter((i: { linkedAt: string | null }) => i.linkedAt).length, 0);
  });

  it('the setup callback’s return lands on this page and says what was linked; a member sees no link or unlink control', async () => {
    const page = await tabAs(tenant.owner.userId, tenant.tenantId);
    await page.goto('/app/settings/integrations?codehost=linked&installation=4242');
    expect(await text(page, 'just-linked')).to.equal('Installation 4242 is linked: its pull requests, commits and issues now arrive here.');
    await server.as(tenant.owner.apiKey).post('/api/integrations/codehost/installations', { installationId: 5151 });
    const member = await buildMember(server.databaseUrl, tenant.tenantId);
    const memberPage = await tabAs(member.userId, tenant.tenantId);
    await memberPage.goto('/app/settings/integrations');
    await until(async () => (await rows(memberPage)).some((r) => r[0] === '5151'), true);
    expect(await memberPage.getByLabel('Installation id').count()).to.equal(0);
    expect(await memberPage.getByRole('button', { name: 'Unlink' }).count()).to.equal(0);
  });

  it('without a configured application the page says so and who can fix it', async () => {
    bare = await testServer();
    const other = await buildTenant(bare.databaseUrl);
    const page = await tabAs(other.owner.userId, other.tenantId, bare);
    // The whole address: the tab's base URL is the first server's.
    await page.goto(`${bare.baseUrl}/app/settings/integrations`);
    expect(await text(page, 'empty')).to.match(/^No code-host application is configured on this server/);
  });
});
