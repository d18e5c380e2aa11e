import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { ensureWebBuilt } from '../../src/webBuild.js';
import { buildTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { finishWithCode, MemoryOAuthClient, fetchFrom, REDIRECT_URI } from '../mcp/oauthFlow.js';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { startFakes, type Fakes } from '../auth/providerFlow.js';
import { launch, personTab, screenshot, until } from './browser.js';

let ip = 0;
const nextIp = () => `192.0.2.${(ip += 1)}`;

describe('web app: sign-in with each provider, from the /login button to the app (Chromium)', function () {
  this.timeout(60_000);
  let fakes: Fakes;
  let server: TestServer;
  let browser: Browser;

  before(async function () {
    this.timeout(120_000);
    ensureWebBuilt(() => {});
    fakes = await startFakes();
    server = await testServer({ port: fakes.port, env: fakes.env });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await fakes?.close();
  });

  /**
   * The file's one tab (personTab, signed out: no cookies, storage cleared) for one person, with a
   * client address of its own: a context of its own cost a page load's CPU again.
   */
  const newPage = async () => {
    const page = await personTab({ server, browser }, null);
    await page.setExtraHTTPHeaders({ 'x-forwarded-for': nextIp() });
    return page;
  };

  const PROVIDERS = [
    { id: 'github', label: 'GitHub' },
    { id: 'gitlab', label: 'GitLab' },
    { id: 'google', label: 'Google' },
    { id: 'microsoft', label: 'Microsoft' },
  ] as const;

  for (const provider of PROVIDERS) {
    it(`${provider.label}: a deep link, the button, the provider, and the app signed in on that page`, async () => {
      const tenant = await buildTenant(server.databaseUrl, `${provider.label} Org`);
      const subject = `${provider.id}-${Date.now()}`;
      if (provider.id === 'github') {
        fakes.github.account({ id: Date.now(), login: subject, emails: [{ email: tenant.owner.email, primary: true, verified: true }] });
        fakes.github.as(subject);
      } else {
        const fake = fakes[provider.id];
        fake.account(subject, provider.id === 'microsoft' ? { email: tenant.owner.email, xms_edov: true } : { email: tenant.owner.email, email_verified: true, nickname: subject });
        fake.as(subject);
      }
      const page = await newPage();
      await page.goto('/app/settings');
      expect(new URL(page.url()).pathname).to.equal('/login');
      if (provider.id === 'github') await screenshot(page, 'login-providers');
      await page.getByRole('link', { name: `Sign in with ${provider.label}` }).click();
      await until(async () => new URL(page.url()).pathname.startsWith('/app/settings'), true);
      await until(() => page.getByTestId('signed-in-user').innerText(), tenant.owner.email);
      expect(await page.getByTestId('tenant-name').innerText()).to.equal(`${provider.label} Org`);
    });
  }

  it('a refusal is a page that says why, with the buttons to try again', async () => {
    fakes.google.deny();
    const page = await newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Sign in with Google' }).click();
    await until(async () => new URL(page.url()).searchParams.get('error'), 'provider_denied');
    expect(await page.locator('#error').innerText()).to.equal('The sign-in was cancelled or refused at the provider, so you were not signed in. Try again, or choose another way below.');
    expect(await page.getByRole('link', { name: 'Sign in with Google' }).count()).to.equal(1);
    await screenshot(page, 'login-provider-denied');
  });

  it('the MCP consent flow continues through a provider: login (mode=mcp), GitHub, consent, code, token', async () => {
    const tenant = await buildTenant(server.databaseUrl, 'MCP Org');
    const login = `mcp-${Date.now()}`;
    fakes.github.account({ id: Date.now() + 1, login, emails: [{ email: tenant.owner.email, primary: true, verified: true }] });
    fakes.github.as(login);
    const client = new MemoryOAuthClient();
    expect(await auth(client, { serverUrl: `${server.baseUrl}/mcp`, fetchFn: fetchFrom(client.ip) })).to.equal('REDIRECT');

    const page = await newPage();
    let redirected: URL | null = null;
    const back = `${REDIRECT_URI}**`;
    await page.route(back, async (route) => {
      redirected = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the client' });
    });
    await page.goto(client.authorizationUrl!.href);
    expect(new URL(page.url()).pathname).to.equal('/login');
    expect(new URL(page.url()).searchParams.get('mode')).to.equal('mcp');
    await page.locator('#mcp-notice').waitFor();
    await page.getByRole('link', { name: 'Sign in with GitHub' }).click();
    await page.getByRole('heading', { name: 'Authorize Test Assistant' }).waitFor();
    expect(new URL(page.url()).pathname).to.equal('/mcp/authorize');
    await page.getByRole('button', { name: 'Authorize' }).click();
    await until(async () => redirected !== null, true);
    const code = (redirected as unknown as URL).searchParams.get('code') as string;
    const tokens = await finishWithCode(server.baseUrl, client, code);
    expect(tokens.token_type.toLowerCase()).to.equal('bearer');
    const tools = await fetch(`${server.baseUrl}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-forwarded-for': client.ip },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });
    expect(tools.status).to.equal(200);
    await page.unroute(back);
  });
});
