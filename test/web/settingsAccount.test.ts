import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { externalIdentities } from '../../src/db/schema/index.js';
import { ensureWebBuilt } from '../../src/webBuild.js';
import { buildSessionCookie, buildTenant, dbFor } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { launch, screenshot, signedIn, until } from './browser.js';

describe('web app: Settings › Account, linked sign-in accounts (Chromium)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let browser: Browser;

  before(async function () {
    this.timeout(120_000);
    ensureWebBuilt(() => {});
    server = await testServer();
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists the linked accounts and removes one after confirmation', async () => {
    const tenant = await buildTenant(server.databaseUrl, 'Account Org');
    const { db } = dbFor(server.databaseUrl);
    await db.insert(externalIdentities).values([
      { userId: tenant.owner.userId, provider: 'github', subject: '101', username: 'octo-owner', email: tenant.owner.email, createdAt: new Date('2026-01-02T10:00:00Z') },
      { userId: tenant.owner.userId, provider: 'google', subject: 'g-101', email: tenant.owner.email, createdAt: new Date('2026-02-03T10:00:00Z') },
    ]);
    const context = await signedIn(browser, server.baseUrl, await buildSessionCookie(server.databaseUrl, tenant.owner.userId, tenant.tenantId));
    const page = await context.newPage();
    await page.goto('/app/settings/account');
    await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Account' }).getAttribute('aria-current')).to.equal('page');
    const rows = () => page.locator('[data-testid="identities"] tbody th').allInnerTexts();
    await until(rows, ['GitHub', 'Google']);
    expect(await page.locator('[data-testid="identities"] tbody tr').first().locator('td').first().innerText()).to.equal(`octo-owner (${tenant.owner.email})`);
    await screenshot(page, 'settings-account');

    const google = page.locator('[data-testid="identities"] tbody tr', { hasText: 'Google' });
    await google.getByRole('button', { name: 'Remove' }).click();
    await google.getByRole('button', { name: 'Cancel' }).click();
    expect(await rows()).to.deep.equal(['GitHub', 'Google']);
    await google.getByRole('button', { name: 'Remove' }).click();
    await google.getByRole('button', { name: 'Remove Google' }).click();
    await until(rows, ['GitHub']);
    const left = await db.select({ provider: externalIdentities.provider }).from(externalIdentities);
    expect(left.filter((r) => r.provider === 'google')).to.deep.equal([]);
    await context.close();
  });
});
