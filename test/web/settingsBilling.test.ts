import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { buildMember, buildSessionCookie, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { PADDLE_ENV } from '../helpers/fakePaddle.js';
import { pageAs, personTab, screenshot, serverAndBrowser, serverAndBrowserWithBilling, text, until } from './browser.js';

const settingsLinks = (page: Page) => page.getByRole('navigation', { name: 'Settings' }).getByRole('link');

describe('web app: Settings › Billing, billing off (Chromium)', function () {
  this.timeout(120_000);
  const suite = serverAndBrowser();

  it('has no Billing menu item, no banner, and the strict CSP everywhere', async () => {
    const tenant = await buildTenant(suite.server.databaseUrl);
    const page = await pageAs(suite, tenant.owner.userId, tenant.tenantId);
    const res = await page.goto('/app/settings/billing');
    expect(res?.headers()['content-security-policy']).to.not.contain('paddle');
    // Another settings page by the menu (no second document load).
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await until(async () => settingsLinks(page).count().then((n) => n > 0), true);
    await until(() => page.getByText('Organisation', { exact: true }).count().then((n) => n > 0), true);
    expect(await settingsLinks(page).getByText('Billing', { exact: true }).count()).to.equal(0);
    expect(await page.getByTestId('billing-banner').count()).to.equal(0);
  });
});

describe('web app: Settings › Billing, billing on (Chromium)', function () {
  this.timeout(120_000);
  const suite = serverAndBrowserWithBilling();
  let tenant: BuiltTenant;

  before(async () => {
    tenant = await buildTenant(suite.server.databaseUrl, 'Paying Org');
  });

  /** The file's one tab (personTab), signed in as the person: a context of its own cost a page load's CPU again. */
  const tabAs = async (userId: string) => personTab(suite, await buildSessionCookie(suite.server.databaseUrl, userId, tenant.tenantId));
  const PADDLE_CDN = 'https://cdn.paddle.com/**';
  /** Paddle's CDN answered on this tab until `withoutPaddleJs` (the tab goes on to the next person). */
  async function withPaddleJs(page: Page): Promise<void> {
    // The browser cannot reach Paddle's CDN here: its address answers with the fake's Paddle.js.
    const script = await (await fetch(`${suite.paddle.url}/paddle.js`)).text();
    await page.route(PADDLE_CDN, (route) => route.fulfill({ status: 200, contentType: 'application/javascript', body: script }));
  }
  const withoutPaddleJs = (page: Page) => page.unroute(PADDLE_CDN);

  it('checkout through Paddle.js with the client token and the tenant as custom data; the plan is active once Paddle’s notification arrives', async () => {
    const page = await tabAs(tenant.owner.userId);
    await withPaddleJs(page);
    await page.goto('/app/settings/keys');
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    const link = settingsLinks(page).getByText('Billing', { exact: true });
    await link.waitFor();
    const [response] = await Promise.all([page.waitForResponse((r) => new URL(r.url()).pathname === '/app/settings/billing'), link.click()]);
    const csp = response.headers()['content-security-policy'] as string;
    expect(csp).to.contain("script-src 'self' https://cdn.paddle.com");
    expect(csp).to.contain('frame-src https://buy.paddle.com https://sandbox-buy.paddle.com');
    expect(csp).to.contain("frame-ancestors 'none'");
    await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();
    expect(await text(page, 'billing-state')).to.equal('No subscription');
    expect(await text(page, 'billing-plan')).to.equal('None');
    await screenshot(page, 'settings-billing-none');

    await page.getByRole('button', { name: 'Choose Small team' }).click();
    await until(() => page.evaluate(() => (window as any).__paddle.checkouts.length), 1);
    const opened = await page.evaluate(() => ({ token: (window as any).__paddle.token, environment: (window as any).__paddle.environment, checkout: (window as any).__paddle.checkouts[0] }));
    expect(opened.token).to.equal(PADDLE_ENV.BILLING_CLIENT_TOKEN);
    expect(opened.environment).to.equal('sandbox');
    expect(opened.checkout.items).to.deep.equal([{ priceId: 'pri_small_team', quantity: 1 }]);
    expect(opened.checkout.customData.tenantId).to.equal(tenant.tenantId);

    // The browser's "completed" alone changes nothing: the plan waits for the verified notification.
    await page.evaluate(() => (window as any).__paddle.complete());
    await page.getByTestId('billing-waiting').waitFor();
    expect(await text(page, 'billing-state')).to.equal('No subscription');
    const { response: delivered } = await suite.paddle.checkout(`${suite.server.baseUrl}/api/billing/webhook`, 'pri_small_team', opened.checkout.customData);
    expect(delivered.body.data.outcome).to.equal('applied');
    await until(() => text(page, 'billing-state'), 'Active');
    expect(await text(page, 'billing-plan')).to.equal('Small team');
    expect(await text(page, 'billing-seats')).to.equal('0 of 10 (2–10 seats)');
    expect(await text(page, 'billing-renews')).to.not.equal('—');
    expect(await page.getByTestId('billing-waiting').count()).to.equal(0);
    await screenshot(page, 'settings-billing-active');
    await withoutPaddleJs(page);
  });

  it('shows the over-band notice, and a member gets no Billing item but the read-only banner saying what to do', async () => {
    for (let i = 0; i < 12; i++) {
      await dbFor(suite.server.databaseUrl).pool.query('insert into people (tenant_id, external_ref) values ($1, $2)', [tenant.tenantId, `web-${i}`]);
    }
    const owner = await tabAs(tenant.owner.userId);
    await withPaddleJs(owner);
    await owner.goto('/app/settings/billing');
    await owner.getByTestId('billing-over-band').waitFor();
    expect(await text(owner, 'billing-over-band')).to.equal(
      'The register holds 12 people, more than the 10 seats of the Small team plan. Nothing is blocked or removed; an owner can move to the Large team plan under Settings › Billing.',
    );

    await dbFor(suite.server.databaseUrl).pool.query("update billing_subscriptions set status = 'past_due', status_since = now() - interval '20 days' where tenant_id = $1", [tenant.tenantId]);
    await withoutPaddleJs(owner);
    const member = await buildMember(suite.server.databaseUrl, tenant.tenantId);
    const page = await tabAs(member.userId);
    await page.goto('/app/settings/keys');
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await page.getByTestId('billing-banner').waitFor();
    expect(await text(page, 'billing-banner')).to.match(/^This organisation is read-only: its subscription is past due and the 14-day grace period ended on \d{4}-\d{2}-\d{2}\. An owner can restore it under Settings › Billing\. Exports, MCP, the Cube API and incoming data keep working\.$/);
    await until(async () => settingsLinks(page).count().then((n) => n > 0), true);
    expect(await settingsLinks(page).getByText('Billing', { exact: true }).count()).to.equal(0);
    await screenshot(page, 'settings-billing-member-read-only');
  });
});
