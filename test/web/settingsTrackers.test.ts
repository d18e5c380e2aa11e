import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { freePort } from '../../src/dev.js';
import { ensureWebBuilt } from '../../src/webBuild.js';
import { buildMember, buildSessionCookie, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { fakeJira, type FakeJira } from '../integrations/fakes/fakeJira.js';
import { launch, screenshot, signedIn, text, until } from './browser.js';

describe('web app: Settings › Integrations › Issue trackers (Chromium)', function () {
  this.timeout(120_000);
  let jira: FakeJira;
  let server: TestServer;
  let browser: Browser;
  let tenant: BuiltTenant;

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt(() => {});
    jira = await fakeJira();
    const port = await freePort();
    server = await testServer({
      port,
      env: {
        TRACKER1_CLIENT_ID: jira.clientId, TRACKER1_SECRET: jira.clientSecret, TRACKER1_REDIRECT_URI: `http://127.0.0.1:${port}/api/integrations/jira/callback`,
        JIRA_AUTH_BASE_URL: jira.url, JIRA_API_BASE_URL: jira.url, JOBS_WORKER_ENABLED: 'false',
      },
    });
    browser = await launch();
    tenant = await buildTenant(server.databaseUrl, 'Trackers Org');
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await jira?.close();
  });

  const pageOf = async (userId: string) => (await signedIn(browser, server.baseUrl, await buildSessionCookie(server.databaseUrl, userId, tenant.tenantId))).newPage();

  it('the owner connects Jira through its consent page and lands back on the page, which shows the site; then maps a project', async () => {
    const page = await pageOf(tenant.owner.userId);
    await page.goto('/app/settings/integrations');
    const jiraSection = page.getByTestId('tracker-jira');
    await until(() => jiraSection.getByText('Not connected.').count(), 1);
    expect(await page.getByTestId('tracker-linear').innerText()).to.contain('Not configured on this server.');
    await page.getByRole('link', { name: 'Connect Jira Cloud' }).click();
    await until(async () => page.url(), `${server.baseUrl}/app/settings/integrations?tracker=jira&result=connected`, 30_000);
    expect(await text(page, 'tracker-result')).to.equal('Jira Cloud is connected: its issues of the last months are being synced.');
    const { rows } = await dbFor(server.databaseUrl).pool.query('select id, display_name, state from integration_connections where tenant_id = $1', [tenant.tenantId]);
    expect(rows.map((r) => [r.display_name, r.state])).to.deep.equal([['Acme Jira', 'active']]);
    const row = page.getByTestId(`tracker-${rows[0].id}`);
    await until(async () => (await row.locator('th, td').allInnerTexts()).slice(0, 3), ['Acme Jira', 'connected', 'never']);

    await page.getByLabel('Jira project key').fill('ENG');
    await page.getByLabel('Counts for project').fill('not-a-key');
    await page.getByRole('button', { name: 'Map project' }).click();
    await until(() => page.getByRole('alert').innerText().catch(() => '').then((t) => t.includes('mapping.projects.ENG: Must have the form <owner>/<repo>')), true);
    await page.getByLabel('Counts for project').fill('acme/api');
    await page.getByRole('button', { name: 'Map project' }).click();
    await until(() => page.getByTestId(`mapping-${rows[0].id}`).innerText().catch(() => ''), 'ENG → acme/api');
    await screenshot(page, 'settings-integrations-trackers');
  });

  it('a member sees the connection but no connect, mapping or disconnect control', async () => {
    const member = await buildMember(server.databaseUrl, tenant.tenantId);
    const page = await pageOf(member.userId);
    await page.goto('/app/settings/integrations');
    await until(() => page.getByTestId('tracker-jira').getByText('Acme Jira').count(), 1);
    expect(await page.getByRole('link', { name: 'Connect Jira Cloud' }).count()).to.equal(0);
    expect(await page.getByRole('button', { name: 'Disconnect' }).count()).to.equal(0);
    expect(await page.getByLabel('Jira project key').count()).to.equal(0);
  });
});
