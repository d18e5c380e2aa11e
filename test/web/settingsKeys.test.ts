import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { buildMember, buildSessionCookie, buildTenant, type BuiltTenant } from '../helpers/factories.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import type { TestServer } from '../helpers/server.js';
import { personTab, screenshot, serverAndBrowser, until } from './browser.js';

/** The settings menu of a member: every owner-only page is left out. */
const MEMBER_MENU = ['API keys', 'Members', 'Teams', 'People', 'Surveys', 'Integrations', 'Deployment sources', 'Organisation', 'AI', 'Account'];
const rowNames = (page: Page) => page.locator('[data-testid="keys"] tbody th').allInnerTexts();

describe('web app: Settings › API keys (Chromium)', function () {
  this.timeout(60_000);
  const suite = serverAndBrowser();
  let server: TestServer;
  let tenant: BuiltTenant;

  before(async () => {
    ({ server } = suite);
    tenant = await buildTenant(server.databaseUrl, 'Keys Org');
  });

  it('creates a key (the API’s field error first), shows the secret once with the role warning, the key works, and revoking it after confirmation ends it', async () => {
    const cookie = await buildSessionCookie(server.databaseUrl, tenant.owner.userId, tenant.tenantId);
    const page = await personTab(suite, cookie);
    await page.goto('/app/settings');
    await until(async () => new URL(page.url()).pathname, '/app/settings/keys');
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'API keys' }).getAttribute('aria-current')).to.equal('page');
    // The window and team of the dashboards do not apply to settings.
    expect(await page.getByLabel('From').count()).to.equal(0);

    await page.getByLabel('Name').fill('   ');
    await page.getByRole('button', { name: 'Create key' }).click();
    const name = page.getByLabel('Name');
    await until(() => name.getAttribute('aria-invalid'), 'true');
    expect(await page.locator('#key-name-error').innerText()).to.equal('Give the key a name (at most 100 characters).');
    expect(await name.evaluate((el) => el === document.activeElement)).to.equal(true);

    await name.fill('CI deployments');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.getByTestId('new-key-secret').innerText();
    expect(secret).to.match(/^gai_\S{20,}$/);
    expect(await page.getByTestId('new-key').innerText()).to.contain('This key carries your role (owner)');
    await screenshot(page, 'settings-keys-created');

    const withKey = await server.as(secret).get('/api/keys');
    expect(withKey.status).to.equal(200);
    expect(withKey.body.data.map((k: { name: string }) => k.name)).to.include('CI deployments');

    await page.getByRole('button', { name: 'Done, I have stored it' }).click();
    expect(await page.getByTestId('new-key-secret').count()).to.equal(0);
    await until(async () => (await rowNames(page)).includes('CI deployments'), true);
    await screenshot(page, 'settings-keys');

    const row = page.locator('[data-testid="keys"] tbody tr', { hasText: 'CI deployments' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: 'Cancel' }).click();
    expect((await server.as(secret).get('/api/keys')).status).to.equal(200);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByRole('button', { name: 'Revoke key' }).click();
    await until(async () => (await rowNames(page)).includes('CI deployments'), false);
    expectRefusal(await server.as(secret).get('/api/keys'), 401, apiError('unauthorized', 'Missing or invalid credentials'));
  });

  it('a member sees only their own keys and the owner-only pages are not in their menu', async () => {
    const member = await buildMember(server.databaseUrl, tenant.tenantId, 'member', 'member-keys@example.com');
    await server.as(tenant.owner.apiKey).post('/api/keys', { name: 'Owner’s export key' });
    await server.as(member.apiKey).post('/api/keys', { name: 'Member’s script' });
    const cookie = await buildSessionCookie(server.databaseUrl, member.userId, tenant.tenantId);
    const page = await personTab(suite, cookie);
    await page.goto('/app/settings/keys');
    await until(async () => (await rowNames(page)).includes('Member’s script'), true);
    expect(await rowNames(page)).not.to.include('Owner’s export key');
    expect(await page.getByText('You see the keys you created.').count()).to.equal(1);
    expect(await page.getByRole('navigation', { name: 'Settings' }).getByRole('link').allInnerTexts()).to.deep.equal(MEMBER_MENU);
  });
});
