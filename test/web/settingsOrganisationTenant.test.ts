import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { buildMember, buildTenant, type BuiltTenant } from '../helpers/factories.js';
import type { TestServer } from '../helpers/server.js';
import { screenshot, serverAndBrowser, tabAs, text, until } from './browser.js';

const ADMIN_SECRET = 'admin-secret-for-the-web-test-0123456789';
const reportRow = (page: Page, key: string) => page.locator('[data-testid="config-report"] tr', { has: page.locator('th', { hasText: new RegExp(`^${key.replace('.', '\\.')}$`) }) }).locator('td').innerText();

describe('web app: Settings › Organisation (Chromium)', function () {
  this.timeout(90_000);
  const suite = serverAndBrowser({ env: { ADMIN_SECRET } });
  let server: TestServer;
  let tenant: BuiltTenant;

  before(async () => {
    ({ server } = suite);
    tenant = await buildTenant(server.databaseUrl, 'Rename Me');
  });

  it('an owner renames the organisation, creates another one and is switched into it', async () => {
    const page = await tabAs(suite, tenant.owner.userId, tenant.tenantId);
    await page.goto('/app/settings/organisation');
    const name = page.getByLabel('Organisation name');
    await until(() => name.inputValue(), 'Rename Me');
    await name.fill('');
    await page.getByRole('button', { name: 'Rename' }).click();
    await until(() => page.locator('#rename-name-error').innerText(), 'A name is required');
    await name.fill('Renamed Ltd');
    await page.getByRole('button', { name: 'Rename' }).click();
    await until(() => text(page, 'tenant-name'), 'Renamed Ltd');
    await screenshot(page, 'settings-organisation');

    await page.getByLabel('New organisation’s name').fill('Second Org');
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await until(async () => new URL(page.url()).pathname, '/app/settings/import');
    await screenshot(page, 'settings-organisation-created');
    const switcher = page.getByLabel('Organisation', { exact: true });
    await until(() => switcher.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.text), 'Second Org');
    expect(await switcher.evaluate((el: HTMLSelectElement) => [...el.options].map((o) => o.text))).to.deep.equal(['Renamed Ltd', 'Second Org']);
    await until(() => text(page, 'empty'), 'No register imported yet. Upload one above.');
  });

  it('the configuration report needs the administrator secret and shows kinds, never values; a member cannot rename', async () => {
    const member = await buildMember(server.databaseUrl, tenant.tenantId);
    const page = await tabAs(suite, member.userId, tenant.tenantId);
    await page.goto('/app/settings/organisation');
    await page.getByRole('heading', { name: 'Server configuration report' }).waitFor();
    expect(await page.getByLabel('Organisation name').count()).to.equal(0);
    await page.getByLabel('Administrator secret').fill('wrong');
    await page.getByRole('button', { name: 'Show report' }).click();
    await until(() => page.getByRole('alert').locator('p').first().innerText(), 'Missing or invalid credentials');
    await page.getByLabel('Administrator secret').fill(ADMIN_SECRET);
    await page.getByRole('button', { name: 'Show report' }).click();
    await until(() => reportRow(page, 'release.known'), 'no');
    expect(await reportRow(page, 'signIn.email')).to.equal('no');
    expect(await page.locator('[data-testid="config-report"]').innerText()).not.to.contain(ADMIN_SECRET);
  });
});
