import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { buildMember, dbFor, twoTenants, type BuiltTenant } from '../helpers/factories.js';
import type { TestServer } from '../helpers/server.js';
import { CSV, EXAMPLE_REGISTER } from '../organisation/helpers.js';
import { screenshot, serverAndBrowser, tabAs, until } from './browser.js';

const cells = (page: Page, testId: string) =>
  page.locator(`[data-testid="${testId}"] tbody tr`).evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => (c.textContent ?? '').trim())));

describe('web app: Settings › Teams and People (Chromium)', function () {
  this.timeout(90_000);
  const suite = serverAndBrowser();
  let server: TestServer;
  let tenant: BuiltTenant;
  let other: BuiltTenant;
  let ownerPage: Page;
  let teamIds: Record<string, string>;

  before(async () => {
    ({ server } = suite);
    ({ a: tenant, b: other } = await twoTenants(server.databaseUrl, { a: 'Teams Org', b: 'Other Org' }));
    await server.as(tenant.owner.apiKey).post('/api/register/imports', EXAMPLE_REGISTER, CSV);
    await server.as(other.owner.apiKey).post('/api/register/imports', EXAMPLE_REGISTER, CSV);
    teamIds = Object.fromEntries((await server.as(tenant.owner.apiKey).get('/api/teams')).body.data.map((t: { slug: string; id: string }) => [t.slug, t.id]));
    // The file's one tab (tabAs): the member's test, the last, takes it over.
    ownerPage = await tabAs(suite, tenant.owner.userId, tenant.tenantId);
  });

  it('lists the teams; an owner disables one and the API agrees', async () => {
    const page = ownerPage;
    await page.goto('/app/settings/teams');
    await until(() => cells(page, 'settings-teams'), [
      ['Checkout', 'checkout', '2', 'none', 'Checkout enabled'],
      ['Payments', 'payments', '2', 'none', 'Payments enabled'],
      ['Platform', 'platform', '2', 'none', 'Platform enabled'],
    ]);
    const platform = page.getByLabel('Platform enabled');
    expect(await platform.isChecked()).to.equal(true);
    await platform.uncheck();
    await until(async () => (await server.as(tenant.owner.apiKey).get(`/api/teams/${teamIds.platform}`)).body.data.enabled, false);
    await until(() => platform.isChecked(), false);
    await screenshot(page, 'settings-teams');
    await platform.check();
    await until(async () => (await server.as(tenant.owner.apiKey).get(`/api/teams/${teamIds.platform}`)).body.data.enabled, true);
  });

  it('a team’s projects: the API’s error under the field, then saved; a person added by hand and removed again', async () => {
    const page = ownerPage;
    await page.getByRole('link', { name: 'Payments' }).click();
    await page.getByRole('heading', { name: 'Payments', level: 1 }).waitFor();
    const projects = page.getByLabel('Project keys, one per line');
    await projects.fill('acme/pay\nnot-a-key');
    await page.getByRole('button', { name: 'Save projects' }).click();
    await until(() => projects.getAttribute('aria-invalid'), 'true');
    expect(await page.locator('#team-projects-error').innerText()).to.equal('Must be a project key <owner>/<repo>');
    // Issue 46 point 5: a mistyped key is refused under the field (with the key it was probably
    // meant to be) and creates nothing; a key of no project yet is added after "Add anyway".
    const sent = await server.as(tenant.owner.apiKey).post('/api/webhooks/v1/deployments', { projectKey: 'acme/ledger', externalId: 'l1', ref: 'main', sha: '9fceb02d0ae598e95dc970b74767f19372d61af8', environment: 'production', status: 'success' });
    expect(sent.status).to.equal(201);
    await projects.fill('acme/ledgr');
    await page.getByRole('button', { name: 'Save projects' }).click();
    await until(() => page.locator('#team-projects-error').innerText(), 'No project of this organisation has the key "acme/ledgr" (did you mean acme/ledger?): no pull request, deployment, issue or code-host event has named it yet');
    expect(await projects.getAttribute('aria-invalid')).to.equal('true');
    const projectKeys = async () => (await dbFor(server.databaseUrl).pool.query('select project_key from projects where tenant_id = $1 order by project_key', [tenant.tenantId])).rows.map((r) => r.project_key);
    expect(await projectKeys()).to.deep.equal(['acme/ledger']);
    await projects.fill('acme/pay\nacme/ledger');
    await page.getByRole('button', { name: 'Save projects' }).click();
    await until(() => page.locator('#team-projects-error').innerText(), 'No project of this organisation has the key "acme/pay": no pull request, deployment, issue or code-host event has named it yet');
    const confirm = page.getByRole('group', { name: 'Add unknown projects' });
    expect(await confirm.innerText()).to.equal('This key names no project yet. Add it only for a repository whose data has not arrived yet. Add anyway');
    expect((await server.as(tenant.owner.apiKey).get(`/api/teams/${teamIds.payments}`)).body.data.projects).to.deep.equal([]);
    await confirm.getByRole('button', { name: 'Add anyway' }).click();
    await until(async () => (await server.as(tenant.owner.apiKey).get(`/api/teams/${teamIds.payments}`)).body.data.projects, ['acme/ledger', 'acme/pay']);
    await until(() => page.getByRole('status').filter({ hasText: 'Saved.' }).count(), 1);
    expect(await projects.getAttribute('aria-invalid')).to.equal(null);

    await until(() => cells(page, 'team-members'), [
      ['Ada Lovelace', 'E1001', 'register', ''],
      ['Grace Hopper', 'E1002', 'register', ''],
    ]);
    await page.getByLabel('Find a person').fill('hamil');
    await page.getByRole('button', { name: 'Add Margaret Hamilton' }).click();
    await until(async () => (await cells(page, 'team-members')).map((r) => r.slice(0, 3)), [
      ['Ada Lovelace', 'E1001', 'register'],
      ['Grace Hopper', 'E1002', 'register'],
      ['Margaret Hamilton', 'S3001', 'manual'],
    ]);
    await screenshot(page, 'settings-team');
    const row = page.locator('[data-testid="team-members"] tbody tr', { hasText: 'Margaret Hamilton' });
    await row.getByRole('button', { name: 'Remove' }).click();
    await row.getByRole('button', { name: 'Remove member' }).click();
    await until(async () => (await cells(page, 'team-members')).length, 2);
  });

  it('people: search, and an owner adds a manual identity (a bad value shows the API’s message under the field)', async () => {
    const page = ownerPage;
    await page.goto('/app/settings/people');
    await page.getByLabel('Search').fill('grace');
    await until(async () => (await cells(page, 'people')).map((r) => r.slice(0, 3)), [['Grace Hopper', 'E1002', 'checkout, payments']]);
    await page.getByRole('button', { name: 'Edit identities' }).click();
    const value = page.getByLabel('Value');
    await value.fill('not-an-address');
    await page.getByRole('button', { name: 'Add identity' }).click();
    await until(() => value.getAttribute('aria-invalid'), 'true');
    expect(await value.evaluate((el) => el === document.activeElement)).to.equal(true);
    await value.fill('grace@old.example');
    await page.getByRole('button', { name: 'Add identity' }).click();
    await until(() => page.getByRole('list', { name: 'Manual identities of Grace Hopper' }).innerText(), 'E-mail: grace@old.example Remove grace@old.example');
    expect(await page.locator('[data-testid="people"] tbody tr .identity').allInnerTexts()).to.deep.equal(['ghopper (register)', 'grace.hopper@example.com (register)', 'grace@old.example (added by hand)']);
    await screenshot(page, 'settings-people');
    const person = (await server.as(tenant.owner.apiKey).get('/api/people?q=grace')).body.data[0];
    expect(person.identities).to.deep.include({ kind: 'email', value: 'grace@old.example', source: 'manual' });
    // The other tenant's Grace is untouched.
    const theirs = (await server.as(other.owner.apiKey).get('/api/people?q=grace')).body.data[0];
    expect(theirs.identities.map((i: { value: string }) => i.value)).to.deep.equal(['ghopper', 'grace.hopper@example.com']);
  });

  it('a member sees teams and people without any owner control; another tenant’s team id is the API’s not-found message', async () => {
    const member = await buildMember(server.databaseUrl, tenant.tenantId);
    const page = await tabAs(suite, member.userId, tenant.tenantId);
    await page.goto('/app/settings/teams');
    await until(async () => (await cells(page, 'settings-teams')).map((r) => r[4]), ['yes', 'yes', 'yes']);
    expect(await page.locator('input[type="checkbox"]').count()).to.equal(0);
    // The team's page and People by the app's links (no second document load).
    await page.getByTestId('settings-teams').getByRole('link', { name: 'Payments', exact: true }).click();
    await until(async () => new URL(page.url()).pathname, `/app/settings/teams/${teamIds.payments}`);
    await page.getByRole('heading', { name: 'Payments', level: 1 }).waitFor();
    await until(async () => (await cells(page, 'team-members')).length, 2);
    expect(await page.locator('textarea, input[type="search"], form').count()).to.equal(0);
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'People' }).click();
    await until(async () => new URL(page.url()).pathname, '/app/settings/people');
    await until(async () => (await cells(page, 'people')).length, 5);
    expect(await page.getByRole('button', { name: 'Edit identities' }).count()).to.equal(0);
    const otherTeam = (await server.as(other.owner.apiKey).get('/api/teams')).body.data[0].id;
    await page.goto(`/app/settings/teams/${otherTeam}`);
    await until(() => page.getByRole('alert').locator('p').first().innerText(), 'Team not found');
  });
});
