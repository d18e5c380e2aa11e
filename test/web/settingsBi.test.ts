import { expect } from 'chai';
import pg from 'pg';
import { buildMember, buildTenant, type BuiltTenant } from '../helpers/factories.js';
import { serverAndBrowser, tabAs, until } from './browser.js';

describe('web app: Settings › BI access (Chromium)', function () {
  this.timeout(90_000);
  const suite = serverAndBrowser();
  let tenant: BuiltTenant;

  before(async () => {
    tenant = await buildTenant(suite.server.databaseUrl, 'BI Org');
  });

  it('an owner creates a credential, sees the connection once, connects with it, and revokes it', async () => {
    const page = await tabAs(suite, tenant.owner.userId, tenant.tenantId);
    await page.goto('/app/settings/bi');
    await page.getByRole('heading', { name: 'BI access', level: 1 }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'BI access' }).getAttribute('aria-current')).to.equal('page');
    await page.getByTestId('empty').waitFor();

    await page.getByLabel('Name').fill('Metabase');
    await page.getByRole('button', { name: 'Create credential' }).click();
    const user = await page.getByTestId('bi-user').innerText();
    const password = await page.getByTestId('bi-password').innerText();
    const db = new URL(suite.server.databaseUrl);
    expect(await page.getByTestId('bi-host').innerText()).to.equal(db.hostname);
    expect(await page.getByTestId('bi-port').innerText()).to.equal(db.port);
    expect(await page.getByTestId('bi-ssl-mode').innerText()).to.equal('prefer');
    // The BI database (docs/bi-database.md "The BI database"), not the application's.
    const database = await page.getByTestId('bi-database').innerText();
    expect(database).to.equal(`${db.pathname.slice(1)}_bi`);
    const url = new URL(suite.server.databaseUrl);
    url.pathname = `/${database}`;
    url.username = user;
    url.password = password;
    const client = new pg.Client({ connectionString: url.toString() });
    client.on('error', () => {});
    await client.connect();
    expect((await client.query('select count(*)::int as n from bi.teams')).rows[0].n).to.equal(0);

    await page.getByRole('button', { name: 'Done, I have stored it' }).click();
    expect(await page.getByTestId('bi-password').count()).to.equal(0);
    const row = page.locator('[data-testid="bi-credentials"] tbody tr', { hasText: 'Metabase' });
    await row.waitFor();
    expect(await row.innerText()).to.not.contain(password);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: 'Revoke credential' }).click();
    await page.getByTestId('empty').waitFor();
    let failed = false;
    await client.query('select 1').catch(() => (failed = true));
    expect(failed).to.equal(true);
    await client.end().catch(() => {});
  });

  it('is not in a member’s menu', async () => {
    const member = await buildMember(suite.server.databaseUrl, tenant.tenantId, 'member');
    const page = await tabAs(suite, member.userId, tenant.tenantId);
    await page.goto('/app/settings/keys');
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await until(async () => page.getByRole('navigation', { name: 'Settings' }).getByRole('link').count().then((n) => n > 0), true);
    expect(await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'BI access' }).count()).to.equal(0);
  });
});
