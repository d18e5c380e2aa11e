import { seriousAxe } from './axe.js';
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { buildMember, buildSessionCookie, buildTenant, type BuiltTenant } from '../helpers/factories.js';
import { pageAs, personTab, screenshot, serverAndBrowser, serverAndBrowserWithBilling, until } from './browser.js';

/** Issue 38, points 5 and 6: errors a person can read, and pages that match their rights and the server's features. */
describe('web app: readable errors, rights and features (Chromium)', function () {
  this.timeout(90_000);
  // Billing is off: the test server's default configuration.
  const suite = serverAndBrowser();
  let tenant: BuiltTenant;

  before(async () => {
    tenant = await buildTenant(suite.server.databaseUrl, 'Errors Org');
  });

  /** The file's one tab (personTab), signed in as the person: a context of its own cost a page load's CPU again. */
  const tabAs = async (userId: string) => personTab(suite, await buildSessionCookie(suite.server.databaseUrl, userId, tenant.tenantId));

  /**
   * Every request path the page sends from now on, and every console error, until `stop()` (the
   * tab is the next test's too).
   */
  function record(page: Page) {
    const requests: string[] = [];
    const consoleErrors: string[] = [];
    const onRequest = (r: { url(): string }) => requests.push(new URL(r.url()).pathname);
    const onConsole = (m: { type(): string; text(): string }) => m.type() === 'error' && consoleErrors.push(m.text());
    page.on('request', onRequest);
    page.on('console', onConsole);
    const stop = () => {
      page.off('request', onRequest);
      page.off('console', onConsole);
    };
    return { requests, consoleErrors, stop };
  }

  async function seriousViolations(page: Page): Promise<string[]> {
    const result = await seriousAxe(page).analyze();
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
  }

  it('a refused roster date says why next to the date, not as a downloaded JSON error', async () => {
    const page = await tabAs(tenant.owner.userId);
    await page.goto('/app/downloads');
    await page.getByRole('heading', { name: 'Downloads for finance', level: 1 }).waitFor();
    const downloads: string[] = [];
    const onDownload = (d: { suggestedFilename(): string }) => downloads.push(d.suggestedFilename());
    page.on('download', onDownload);
    const asOf = page.getByLabel('As of');
    await asOf.fill('2999-01-01');
    await page.getByTestId('roster-csv').click();
    await until(() => asOf.getAttribute('aria-invalid'), 'true');
    expect(await page.locator('#roster-as-of-error').innerText()).to.equal('The roster was not downloaded: the day must not be in the future (today is the UTC date).');
    expect(await page.locator('body').innerText()).to.not.contain('validation_failed');
    expect(await seriousViolations(page)).to.deep.equal([]);
    await screenshot(page, 'downloads-refused-date');

    // A day that is fine downloads the API's bytes under the API's file name, and the error goes.
    const today = new Date().toISOString().slice(0, 10);
    await asOf.fill(today);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('roster-csv').click()]);
    expect(download.suggestedFilename()).to.equal(`team-roster-${today}.csv`);
    expect(await asOf.getAttribute('aria-invalid')).to.equal(null);
    expect(downloads).to.deep.equal([`team-roster-${today}.csv`]);
    page.off('download', onDownload);
  });

  it('a 404 shows its message without Retry; code and request id only once "Details" is opened', async () => {
    const page = await tabAs(tenant.owner.userId);
    await page.goto(`/app/teams/${randomUUID()}`);
    const alert = page.getByRole('alert').filter({ hasText: 'Team not found' });
    await alert.waitFor();
    expect(await alert.getByRole('button', { name: 'Retry' }).count()).to.equal(0);
    expect(await alert.innerText()).to.not.contain('not_found');
    expect(await alert.innerText()).to.not.contain('request');
    await alert.getByText('Details').click();
    expect(await alert.innerText()).to.match(/HTTP 404 · not_found · request \S+/);
    await screenshot(page, 'error-404');
  });

  it('a member who opens BI access by its address reads what it is, with no form and no refused request', async () => {
    const member = await buildMember(suite.server.databaseUrl, tenant.tenantId, 'member');
    const page = await tabAs(member.userId);
    const { requests, stop } = record(page);
    await page.goto('/app/settings/bi');
    await page.getByTestId('bi-owner-only').waitFor();
    expect(await page.getByTestId('bi-owner-only').innerText()).to.contain('An owner of the organisation creates and revokes BI credentials');
    expect(await page.getByRole('button', { name: 'Create credential' }).count()).to.equal(0);
    expect(await page.getByRole('alert').count()).to.equal(0);
    stop();
    expect(requests.filter((p) => p.startsWith('/api/bi/'))).to.deep.equal([]);
    expect(await seriousViolations(page)).to.deep.equal([]);
    await screenshot(page, 'settings-bi-member');
  });

  it('with billing off: no Billing menu item, no /api/billing/notice request, a favicon and no console error', async () => {
    const page = await tabAs(tenant.owner.userId);
    const { requests, consoleErrors, stop } = record(page);
    await page.goto('/app/settings/keys');
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    const menu = page.getByRole('navigation', { name: 'Settings' });
    // The owner-only items appear once the role (from /api/users/me, which also names the features) is known.
    await menu.getByRole('link', { name: 'BI access' }).waitFor();
    await page.getByTestId('keys').getByText(/Updated/).waitFor();
    expect(await menu.getByRole('link', { name: 'Billing' }).count()).to.equal(0);
    await page.goto('/app/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await until(() => page.evaluate(() => document.readyState), 'complete');
    expect(requests.filter((p) => p.startsWith('/api/billing'))).to.deep.equal([]);
    expect(requests).to.include('/api/users/me');

    const icon = await page.locator('link[rel="icon"]').getAttribute('href');
    const served = await suite.server.get(icon as string);
    expect([served.status, served.headers.get('content-type')]).to.deep.equal([200, 'image/svg+xml']);
    const ico = await suite.server.get('/favicon.ico');
    expect([ico.status, ico.headers.get('content-type')]).to.deep.equal([200, 'image/svg+xml']);
    stop();
    expect(consoleErrors.filter((e) => /404|Not Found/i.test(e))).to.deep.equal([]);
  });
});

/** Issue 38, point 5: a refusal (403) reads like the 404 above; billing on, since its page is one a member can open by address and not use. */
describe('web app: a refused page (403) reads as a refusal (Chromium)', function () {
  this.timeout(90_000);
  const suite = serverAndBrowserWithBilling();

  it('a member who opens Billing by its address reads that it needs the owner role, with no Retry; code and request id only under "Details"', async () => {
    const tenant = await buildTenant(suite.server.databaseUrl, 'Refusal Org');
    const member = await buildMember(suite.server.databaseUrl, tenant.tenantId, 'member');
    const page = await pageAs(suite, member.userId, tenant.tenantId);
    await page.goto('/app/settings/billing');
    const alert = page.getByRole('alert').filter({ hasText: 'Only an owner of the tenant can do this' });
    await alert.waitFor();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).to.equal('Billing');
    expect(await alert.locator('p').first().innerText()).to.equal('Only an owner of the tenant can do this (this needs the owner role)');
    expect(await alert.getByRole('button', { name: 'Retry' }).count()).to.equal(0);
    expect(await alert.innerText()).to.not.contain('forbidden');
    expect(await alert.innerText()).to.not.contain('request');
    await alert.getByText('Details').click();
    expect(await alert.innerText()).to.match(/HTTP 403 · forbidden · request \S+/);
    await screenshot(page, 'error-403');
  });
});
