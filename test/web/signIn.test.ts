import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { ensureWebBuilt } from '../../src/webBuild.js';
import { buildTenant } from '../helpers/factories.js';
import { fakePostmark, type FakePostmark } from '../helpers/fakePostmark.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { launch, screenshot, signedIn, text, until } from './browser.js';
import { SCOPE, SEED_ENV, seedTenant } from './seed.js';

describe('web app: a signed-out deep link survives the magic link (Chromium)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let mail: FakePostmark;
  let browser: Browser;

  before(async function () {
    this.timeout(120_000);
    ensureWebBuilt(() => {});
    mail = await fakePostmark();
    server = await testServer({ env: { ...SEED_ENV, MAILER_API_KEY: mail.token, MAILER_API_URL: mail.url, MAILER_FROM: 'Analytics <signin@example.com>' } });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await mail?.close();
  });

  it('goes to /login?returnUrl=…, and the link from the e-mail lands on the same page with its filters', async () => {
    const tenant = await buildTenant(server.databaseUrl);
    const seeded = await seedTenant(server, tenant.owner.apiKey, tenant.tenantId);
    const context = await signedIn(browser, server.baseUrl, null);
    const page = await context.newPage();
    const deepLink = `/app/?${SCOPE}&team=${seeded.teams.alpha}`;
    await page.goto(deepLink);
    expect(new URL(page.url()).pathname).to.equal('/login');
    expect(new URL(page.url()).searchParams.get('returnUrl')).to.equal(deepLink);
    await screenshot(page, 'login');
    await page.getByLabel('E-mail address').fill(tenant.owner.email);
    await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    const message = await mail.waitFor(tenant.owner.email);
    const link = /(http:\/\/\S+)/.exec(message.TextBody)![1] as string;
    await page.goto(link);
    await until(async () => new URL(page.url()).pathname + new URL(page.url()).search, deepLink);
    await until(() => text(page, 'deployment-frequency-count'), '4');
    const team = page.getByLabel('Team', { exact: true });
    expect(await team.inputValue()).to.equal(seeded.teams.alpha);
    await until(() => team.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent ?? ''), 'Alpha');
    await context.close();
  });
});
