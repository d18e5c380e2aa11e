import { expect } from 'chai';
import { mkdir, mkdtemp, readFile, stat } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { apiKeys } from '../../src/db/schema/index.js';
import { sha256hex } from '../../src/auth/crypto.js';
import { runCli, startCli, type CliResult } from '../helpers/cli.js';
import { buildMember, buildSessionCookie, dbFor, twoTenants, type BuiltTenant } from '../helpers/factories.js';
import { fakePostmark, type FakePostmark } from '../helpers/fakePostmark.js';
import { apiError, expectRefusal, expectRefusalPage } from '../helpers/refusals.js';
import { capturedLog, testServer, type TestServer } from '../helpers/server.js';
import { launch, screenshot, signedIn } from '../web/browser.js';
import { SEED_ENV, seedTenant } from '../web/seed.js';
import { hiddenField } from './helpers.js';
import { CredentialsStore } from '../../src/cliLogin/credentials.js';
import { describeVersion } from '../../src/cliLogin/serverClient.js';

/** stderr without the runtime notice a dependency (oidc-provider) may print on Node 20. */
const stderrOf = (result: CliResult) => result.stderr.replace(/^oidc-provider WARNING: Unsupported runtime[^\n]*\n/m, '');

/** A fresh home for one CLI "machine": credentials go under its XDG_CONFIG_HOME. */
async function machine(): Promise<{ env: Record<string, string>; credentials: string; dir: string }> {
  const home = await mkdtemp(join(tmpdir(), 'cli-home-'));
  const config = join(home, 'config');
  return { env: { HOME: home, XDG_CONFIG_HOME: config }, dir: join(config, 'delivery-analytics'), credentials: join(config, 'delivery-analytics', 'credentials.json') };
}

/** The CLI polls for its approval every second here, not RFC 8628's 5 s (CLI_LOGIN_POLL_INTERVAL_SECONDS). */
const POLL_EVERY_SECOND = { CLI_LOGIN_POLL_INTERVAL_SECONDS: '1' };

const LINK = /open this page in a browser[^\n]*\n\n {2}(\S+)\n/;
const CODE = /shows the code ([A-Z]{4}-[A-Z]{4})/;
const EXPIRED = 'login: the login was not approved in time (a login waits 10 minutes) or is no longer valid: run delivery-analytics login again\n';

/** The approval page as a signed-in browser would get it, and its form's fields. */
async function approvalForm(api: TestServer, cookie: string, userCode: string): Promise<{ csrf: string; html: string }> {
  const page = await api.with({ cookie }).get(`/cli/login?user_code=${userCode}`);
  expect(page.status, page.text).to.equal(200);
  return { csrf: hiddenField(page.text, 'csrf') as string, html: page.text };
}

function submit(api: TestServer, cookie: string, fields: Record<string, string>) {
  return api.with({ cookie, 'content-type': 'application/x-www-form-urlencoded' }).post('/cli/login/approve', new URLSearchParams(fields).toString());
}

describe('CLI login: device authorization grant, approved in the browser (Chromium)', function () {
  // Six CLI child processes: each start costs seconds on a busy machine.
  this.timeout(480_000);
  let api: TestServer;
  let mail: FakePostmark;
  let browser: Browser;
  let alpha: BuiltTenant;
  let beta: BuiltTenant;
  const log = capturedLog('debug');

  before(async function () {
    this.timeout(120_000);
    mail = await fakePostmark();
    api = await testServer({ env: { ...SEED_ENV, ...POLL_EVERY_SECOND, MAILER_API_KEY: mail.token, MAILER_API_URL: mail.url, MAILER_FROM: 'Analytics <signin@example.com>', LOG_LEVEL: 'debug' }, logger: log.logger });
    browser = await launch();
    ({ a: alpha, b: beta } = await twoTenants(api.databaseUrl, { a: 'Alpha', b: 'Beta' }));
    // Alpha's owner is a member of Beta too: the approval page offers both.
    await buildMember(api.databaseUrl, beta.tenantId, 'member', alpha.owner.email);
    await seedTenant(api, alpha.owner.apiKey, alpha.tenantId);
  });
  after(async () => {
    await browser?.close();
    await api?.close();
    await mail?.close();
  });

  it('logs in through the magic link and the approval page; whoami; exports with --url give the API bytes; logout revokes the key', async () => {
    const here = await machine();
    // A directory that is too open is tightened on the first write.
    await mkdir(here.dir, { recursive: true, mode: 0o755 });
    const cli = startCli(['login', `--url=${api.baseUrl}/`], here.env);
    const link = (await cli.waitFor(LINK))[1] as string;
    const userCode = (await cli.waitFor(CODE))[1] as string;
    expect(link).to.equal(`${api.baseUrl}/cli/login?user_code=${userCode}`);

    const context = await signedIn(browser, api.baseUrl, null);
    const page = await context.newPage();
    await page.goto(link);
    expect(new URL(page.url()).pathname).to.equal('/login');
    expect(new URL(page.url()).searchParams.get('returnUrl')).to.equal(`/cli/login?user_code=${userCode.replace('-', '')}`);
    await page.getByLabel('E-mail address').fill(alpha.owner.email);
    await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
    const message = await mail.waitFor(alpha.owner.email);
    await page.goto(/(http:\/\/\S+)/.exec(message.TextBody)![1] as string);
    await page.getByRole('heading', { name: 'Approve CLI login' }).waitFor();
    expect(await page.getByTestId('user-code').innerText()).to.equal(userCode);
    expect(await page.locator('body').innerText()).to.include(`The delivery-analytics CLI on ${hostname()} asks to sign in as you.`);
    expect(await page.getByLabel('Tenant').locator('option').allInnerTexts()).to.deep.equal(['Alpha (owner)', 'Beta (member)']);
    await page.getByLabel('Tenant').selectOption({ label: 'Alpha (owner)' });
    await screenshot(page, 'cli-login-approval');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { name: 'CLI login approved' }).waitFor();
    await context.close();

    const done = await cli.exited;
    expect(stderrOf(done), done.stderr).to.equal('');
    expect(done.code).to.equal(0);
    expect(done.stdout.split('\n').slice(-3)).to.deep.equal([
      `Logged in to ${api.baseUrl} as ${alpha.owner.email} in Alpha (owner).`,
      `The new API key "${hostname()}" is stored in ${here.credentials}.`,
      '',
    ]);

    // The file: 0600 in a 0700 directory, keyed by the server's URL; the key is a new one of Alpha's owner.
    expect((await stat(here.dir)).mode & 0o777).to.equal(0o700);
    expect((await stat(here.credentials)).mode & 0o777).to.equal(0o600);
    const stored = JSON.parse(await readFile(here.credentials, 'utf8'));
    expect(Object.keys(stored.servers)).to.deep.equal([api.baseUrl]);
    const entry = stored.servers[api.baseUrl];
    expect(entry.apiKey).to.match(/^gai_[A-Za-z0-9_-]{43}$/);
    expect(entry).to.include({ keyName: hostname(), tenantId: alpha.tenantId });
    const { db } = dbFor(api.databaseUrl);
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, entry.keyId));
    expect(row).to.include({ tenantId: alpha.tenantId, userId: alpha.owner.userId, name: hostname(), keyHash: sha256hex(entry.apiKey), revokedAt: null });
    // The provider's own token and grant did not outlive the exchange.
    const { rows: left } = await dbFor(api.databaseUrl).pool.query(`select model, count(*)::int as n from oauth_records where model in ('AccessToken', 'Grant', 'RefreshToken') group by model`);
    expect(left).to.deep.equal([]);
    expect((await dbFor(api.databaseUrl).pool.query('select count(*)::int as n from mcp_grants')).rows[0].n).to.equal(0);

    // Each CLI run is a child process (seconds on a busy machine): the independent ones run together.
    const out = join(here.env.HOME as string, 'baseline.csv');
    const [whoami, roster, baseline] = await Promise.all([
      runCli(['whoami'], here.env),
      runCli(['export:team-roster', `--url=${api.baseUrl}`, '--as-of=2026-03-31'], here.env),
      runCli(['export:team-baseline', `--url=${api.baseUrl}`, '--from=2026-01', '--to=2026-03', `--out=${out}`], here.env),
    ]);
    expect(stderrOf(whoami), whoami.stderr).to.equal('');
    expect(whoami.stdout).to.equal([
      // The test server's RELEASE_VERSION is unset: `dev` is never shown as a version.
      `server: ${api.baseUrl} (version unknown)`,
      `user:   ${alpha.owner.email}`,
      `tenant: Alpha (${alpha.tenantId})`,
      'role:   owner',
      `key:    ${hostname()} (${entry.apiKey.slice(0, 10)}…)`,
      '',
    ].join('\n'));

    // Exports over HTTP: byte for byte what the API answers (to standard output and to --out).
    expect(stderrOf(roster), roster.stderr).to.equal('');
    const rosterApi = await api.as(alpha.owner.apiKey).get('/api/exports/team-roster?asOf=2026-03-31');
    expect(rosterApi.text.split('\n').length).to.be.greaterThan(4);
    expect(roster.stdout).to.equal(rosterApi.text);
    expect(baseline.code, baseline.stderr).to.equal(0);
    const baselineApi = await api.as(alpha.owner.apiKey).get('/api/exports/team-baseline?from=2026-01&to=2026-03');
    expect(baselineApi.text).to.include('alpha');
    expect(await readFile(out, 'utf8')).to.equal(baselineApi.text);

    const logout = await runCli(['logout', `--url=${api.baseUrl}`], here.env);
    expect(stderrOf(logout), logout.stderr).to.equal('');
    expect(logout.stdout).to.equal(`Logged out of ${api.baseUrl}: the API key "${hostname()}" revoked and is removed from ${here.credentials}.\n`);
    expectRefusal(await api.as(entry.apiKey).get('/api/users/me'), 401, apiError('unauthorized', 'Missing or invalid credentials'));
    const [revoked] = await db.select().from(apiKeys).where(eq(apiKeys.id, entry.keyId));
    expect(revoked!.revokedAt).to.be.an.instanceOf(Date);
    await stat(here.credentials).then(() => expect.fail('credentials file still there'), (e) => expect(e.code).to.equal('ENOENT'));
    const after = await runCli(['whoami'], here.env);
    expect(after.code).to.equal(1);
    expect(stderrOf(after)).to.equal('whoami: not logged in: run delivery-analytics login --url=<server address>\n');

    // Neither the key nor the codes reach the server's log.
    const logged = log.text();
    expect(logged).to.not.include(entry.apiKey);
    expect(logged).to.not.include(userCode);
    expect(logged).to.not.include(userCode.replace('-', ''));
  });
});

describe('CLI login: the device flow over HTTP (denial, expiry, tenants, versions)', function () {
  // Several CLI child processes per test; a start takes 10-20 s on a loaded machine.
  this.timeout(240_000);
  let api: TestServer;
  let alpha: BuiltTenant;
  let beta: BuiltTenant;
  let cookie: string;
  const log = capturedLog('debug');
  const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const start = (machineName = 'build-box') =>
    api.post('/oauth/device', form({ client_id: 'delivery-analytics-cli', scope: 'cli:key', machine_name: machineName }), FORM);
  const exchange = (deviceCode: string) =>
    api.post('/oauth/token', form({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: deviceCode, client_id: 'delivery-analytics-cli' }), FORM);

  before(async () => {
    api = await testServer({ env: { ...POLL_EVERY_SECOND, LOG_LEVEL: 'debug' }, logger: log.logger });
    ({ a: alpha, b: beta } = await twoTenants(api.databaseUrl, { a: 'Alpha', b: 'Beta' }));
    await buildMember(api.databaseUrl, beta.tenantId, 'member', alpha.owner.email);
    cookie = await buildSessionCookie(api.databaseUrl, alpha.owner.userId);
  });
  after(() => api.close());

  it('answers pending until approved, then one API key with the role in the chosen tenant, once; nothing secret is logged', async () => {
    const started = await start();
    expect(started.status).to.equal(200);
    expect(Object.keys(started.body).sort()).to.deep.equal(['device_code', 'expires_in', 'interval', 'user_code', 'verification_uri', 'verification_uri_complete']);
    expect(started.body).to.include({ verification_uri: `${api.baseUrl}/cli/login`, expires_in: 600, interval: 1 });
    expect(started.body.user_code).to.match(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect((await exchange(started.body.device_code)).body).to.deep.equal({ error: 'authorization_pending', error_description: "authorization request is still pending as the end-user hasn't yet completed the user interaction steps" });

    const { csrf, html } = await approvalForm(api, cookie, started.body.user_code.toLowerCase());
    expect(html).to.include('The delivery-analytics CLI on <strong>build-box</strong> asks to sign in as you.');
    const approved = await submit(api, cookie, { user_code: started.body.user_code, csrf, action: 'approve', tenantId: beta.tenantId });
    expect(approved.status).to.equal(200);
    expect(approved.text).to.include('<h1>CLI login approved</h1><p>The CLI receives its API key (with your role, member) in a few seconds.');
    // The approval's grant lives no longer than the device code (10 minutes), not a consent's 30 days.
    const { rows: grants } = await dbFor(api.databaseUrl).pool.query(`select extract(epoch from expires_at - now())::int as ttl from oauth_records where model = 'Grant'`);
    expect(grants).to.have.length(1);
    expect(grants[0].ttl).to.be.within(500, 600);

    const token = await exchange(started.body.device_code);
    expect(token.status).to.equal(200);
    expect(token.headers.get('cache-control')).to.equal('no-store');
    expect(Object.keys(token.body)).to.deep.equal(['access_token', 'token_type', 'key_id', 'key_name', 'tenant_id']);
    expect(token.body).to.include({ token_type: 'Bearer', key_name: 'build-box', tenant_id: beta.tenantId });
    const me = await api.as(token.body.access_token).get('/api/users/me');
    expect(me.body.data.activeTenant).to.deep.equal({ id: beta.tenantId, name: 'Beta', slug: me.body.data.activeTenant.slug, role: 'member' });
    const current = await api.as(token.body.access_token).get('/api/keys/current');
    expect(current.body.data).to.include({ id: token.body.key_id, name: 'build-box', prefix: token.body.access_token.slice(0, 10) });
    expect(current.body.data.createdBy).to.deep.equal({ userId: alpha.owner.userId, email: alpha.owner.email });

    const again = await exchange(started.body.device_code);
    expect(again.status).to.equal(400);
    expect(again.body.error).to.equal('invalid_grant');
    // Approved codes cannot be approved twice either.
    const reused = await api.with({ cookie }).get(`/cli/login?user_code=${started.body.user_code}`);
    expect(reused.status).to.equal(404);
    expect(reused.text).to.include('This code is unknown, has expired (a CLI login waits 10 minutes) or was already used.');

    const logged = log.text();
    for (const secret of [token.body.access_token, started.body.device_code, started.body.user_code, started.body.user_code.replace('-', '')]) {
      expect(logged).to.not.include(secret);
    }
  });

  it('a member of tenant A cannot approve for tenant B; forged or foreign forms are refused; the code stays pending', async () => {
    const memberOfA = await buildMember(api.databaseUrl, alpha.tenantId, 'member');
    const memberCookie = await buildSessionCookie(api.databaseUrl, memberOfA.userId);
    const started = await start();
    const { csrf, html } = await approvalForm(api, memberCookie, started.body.user_code);
    // Only Alpha is offered; the form is tampered with to name Beta.
    expect(html).to.include(`Tenant: <strong>Alpha</strong> (your role: member)</p><input type="hidden" name="tenantId" value="${alpha.tenantId}">`);
    const forBeta = await submit(api, memberCookie, { user_code: started.body.user_code, csrf, action: 'approve', tenantId: beta.tenantId });
    expect(forBeta.status).to.equal(403);
    expect(forBeta.text).to.include('<h1>Forbidden</h1><p>You are not a member of that tenant.</p>');

    const otherSession = await approvalForm(api, cookie, started.body.user_code);
    const foreignToken = await submit(api, memberCookie, { user_code: started.body.user_code, csrf: otherSession.csrf, action: 'approve', tenantId: alpha.tenantId });
    expect(foreignToken.status).to.equal(403);
    expect(foreignToken.text).to.include('The form token is missing or invalid.');
    const crossSite = await api.with({ cookie: memberCookie, origin: 'https://evil.example', ...FORM }).post('/cli/login/approve', form({ user_code: started.body.user_code, csrf, action: 'approve', tenantId: alpha.tenantId }));
    // Refused before routing, like every cookie-carrying change from elsewhere (src/auth/csrf.ts).
    expect(crossSite.status).to.equal(403);
    expect(crossSite.body).to.deep.equal({ error: { code: 'forbidden', message: 'Cross-origin request refused' } });
    const signedOut = await api.with(FORM).post('/cli/login/approve', form({ user_code: started.body.user_code, csrf, action: 'approve', tenantId: alpha.tenantId }));
    expectRefusalPage(signedOut, 401, 'Signed out', 'Sign in again, then open the link the CLI shows once more.');

    expect((await exchange(started.body.device_code)).body.error).to.equal('authorization_pending');
    // Only the key the factory made for the member exists: none in Beta, none from this login.
    const keys = await dbFor(api.databaseUrl).db.select().from(apiKeys).where(eq(apiKeys.userId, memberOfA.userId));
    expect(keys.map((k) => [k.tenantId, k.keyHash])).to.deep.equal([[alpha.tenantId, sha256hex(memberOfA.apiKey)]]);
  });

  it('names no interval by default (RFC 8628: the client polls every 5 s), and the configured one otherwise', async () => {
    // A second instance on the same database, configured as a deployment is by default.
    const plain = await testServer({ databaseUrl: api.databaseUrl });
    try {
      const started = await plain.post('/oauth/device', form({ client_id: 'delivery-analytics-cli', scope: 'cli:key', machine_name: 'build-box' }), FORM);
      expect(started.status).to.equal(200);
      expect(Object.keys(started.body).sort()).to.deep.equal(['device_code', 'expires_in', 'user_code', 'verification_uri', 'verification_uri_complete']);
    } finally {
      await plain.close();
    }
    expect((await start()).body.interval).to.equal(1);
  });

  it('denial: the CLI stops with a clear message and stores nothing', async () => {
    const here = await machine();
    const cli = startCli(['login', `--url=${api.baseUrl}`], here.env);
    const userCode = (await cli.waitFor(CODE))[1] as string;
    const { csrf } = await approvalForm(api, cookie, userCode);
    const denied = await submit(api, cookie, { user_code: userCode, csrf, action: 'deny' });
    expect(denied.status).to.equal(200);
    expect(denied.text).to.include('<h1>CLI login denied</h1>');
    const done = await cli.exited;
    expect(done.code).to.equal(1);
    expect(stderrOf(done)).to.equal('login: the login was denied in the browser; no key was issued\n');
    await stat(here.credentials).then(() => expect.fail('credentials stored'), (e) => expect(e.code).to.equal('ENOENT'));
    expectRefusalPage(await api.with({ cookie }).get(`/cli/login?user_code=${userCode}`), 404, 'CLI login', 'This code is unknown, has expired (a CLI login waits 10 minutes) or was already used.');
  });

  it('expiry: an expired code is refused by the page, and the CLI stops', async () => {
    const here = await machine();
    const cli = startCli(['login', `--url=${api.baseUrl}`], here.env);
    const userCode = (await cli.waitFor(CODE))[1] as string;
    // Ten minutes later, as the database sees it (the adapter treats an expired row as gone).
    await dbFor(api.databaseUrl).pool.query(`update oauth_records set expires_at = now() - interval '1 second' where model = 'DeviceCode' and user_code = $1`, [sha256hex(userCode.replace('-', ''))]);
    const page = await api.with({ cookie }).get(`/cli/login?user_code=${userCode}`);
    expect(page.status).to.equal(404);
    expect(page.text).to.include('This code is unknown, has expired (a CLI login waits 10 minutes) or was already used.');
    const done = await cli.exited;
    expect(done.code).to.equal(1);
    expect(stderrOf(done)).to.equal(EXPIRED);
    await stat(here.credentials).then(() => expect.fail('credentials stored'), (e) => expect(e.code).to.equal('ENOENT'));
  });

  it('a CLI older than minimumClientVersion stops before it starts a login; bad addresses are usage errors', async () => {
    const here = await machine();
    const countCodes = async () => (await dbFor(api.databaseUrl).pool.query(`select count(*)::int as n from oauth_records where model = 'DeviceCode'`)).rows[0].n as number;
    const before = await countCodes();
    const [old, plain, several, reversed, both] = await Promise.all([
      runCli(['login', `--url=${api.baseUrl}`], { ...here.env, RELEASE_VERSION: '0.0.9' }),
      runCli(['login', '--url=http://analytics.example.com'], here.env),
      runCli(['whoami', '--url=ftp://127.0.0.1'], here.env),
      runCli(['export:team-baseline', `--url=${api.baseUrl}`, '--from=2026-03', '--to=2026-01'], here.env),
      runCli(['export:team-roster', `--url=${api.baseUrl}`, `--tenant=${alpha.tenantId}`], here.env),
    ]);
    expect(old.code).to.equal(1);
    expect(stderrOf(old)).to.equal(
      `login: this delivery-analytics CLI is version 0.0.9, but the server at ${api.baseUrl} (version unknown) needs version 0.1.0 or later: install a newer delivery-analytics and try again\n`,
    );
    expect(old.stdout).to.equal('');
    expect(await countCodes()).to.equal(before);
    expect(plain.code).to.equal(2);
    expect(stderrOf(plain)).to.include('login: --url must use https (plain http is only accepted for this machine: localhost, 127.0.0.1, [::1])\n');
    expect(several.code).to.equal(2);
    expect(stderrOf(several)).to.include('whoami: --url must be the server address, https://…\n');
    // An export with --url refuses the same windows as the API, before any request.
    expect(reversed.code).to.equal(2);
    expect(stderrOf(reversed)).to.match(/^export:team-baseline: --from: /);
    expect(both.code).to.equal(2);
    expect(stderrOf(both)).to.include('--tenant does not go with --url: the stored key belongs to one tenant');
  });

  it('the approval page: signed out goes to the login page keeping the code; headers; the provider\'s own steps are closed', async () => {
    const signedOut = await api.get('/cli/login?user_code=bcdf-ghjk');
    expect(signedOut.status).to.equal(302);
    expect(signedOut.headers.get('location')).to.equal(`/login?returnUrl=${encodeURIComponent('/cli/login?user_code=BCDFGHJK')}`);
    const page = await api.with({ cookie }).get('/cli/login');
    expect(page.status).to.equal(200);
    expect(page.text).to.include('<form method="get" action="/cli/login">');
    expect(page.headers.get('content-security-policy')).to.equal("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'");
    expect(page.headers.get('x-frame-options')).to.equal('DENY');
    expect(page.headers.get('cache-control')).to.equal('no-store');
    const unknown = await api.with({ cookie }).get('/cli/login?user_code=BCDF-GHJK');
    expectRefusalPage(unknown, 404, 'CLI login', 'This code is unknown, has expired (a CLI login waits 10 minutes) or was already used.');
    for (const [method, path] of [['POST', '/cli/login'], ['GET', '/cli/login/some-uid'], ['GET', '/cli/login/approve']] as const) {
      const res = await api.request(method, path);
      expectRefusal(res, 404, apiError('not_found', 'Not found'), `${method} ${path}`);
    }
    const discovery = await api.get('/.well-known/oauth-authorization-server');
    expect(discovery.body.device_authorization_endpoint).to.equal(`${api.baseUrl}/oauth/device`);
  });

  it('only our CLI gets the device grant: dynamic registration refuses it, and an unknown client cannot start one', async () => {
    const registered = await api.post('/oauth/register', {
      client_name: 'sneaky', redirect_uris: ['http://127.0.0.1:9/cb'], grant_types: ['authorization_code', 'urn:ietf:params:oauth:grant-type:device_code'], token_endpoint_auth_method: 'none',
    });
    expect(registered.status).to.equal(400);
    expect(registered.body).to.deep.equal({ error: 'invalid_client_metadata', error_description: 'the device authorization grant is reserved for the delivery-analytics CLI' });
    const unknown = await api.post('/oauth/device', form({ client_id: 'someone-else', scope: 'cli:key' }), FORM);
    expect(unknown.status).to.equal(401);
    expect(unknown.body.error).to.equal('invalid_client');
  });

  it('GET /api/keys/current names the key of the request; a session has none', async () => {
    const current = await api.as(alpha.owner.apiKey).get('/api/keys/current');
    expect(current.status).to.equal(200);
    expect(current.body.data).to.include({ prefix: alpha.owner.apiKey.slice(0, 10) });
    const session = await api.with({ cookie }).get('/api/keys/current');
    expect(session.status).to.equal(404);
    expect(session.body).to.deep.equal({ error: { code: 'not_found', message: 'API key not found' } });
    expectRefusal(await api.get('/api/keys/current'), 401, apiError('unauthorized', 'Missing or invalid credentials'));
  });
});

describe('CLI login: the credentials file and versions (no server)', function () {
  this.timeout(120_000);

  it('keeps one key per server URL in a 0600 file and removes the file with the last one', async () => {
    const here = await machine();
    const store = new CredentialsStore(here.env.XDG_CONFIG_HOME as string);
    const key = (n: number) => ({ apiKey: `gai_${'k'.repeat(42)}${n}`, keyId: `id-${n}`, keyName: 'box', tenantId: `t-${n}`, createdAt: '2026-11-24T00:00:00.000Z' });
    await store.put('https://one.example', key(1));
    await store.put('https://two.example/analytics', key(2));
    expect(await store.servers()).to.deep.equal(['https://one.example', 'https://two.example/analytics']);
    expect(await store.get('https://two.example/analytics')).to.deep.equal(key(2));
    expect((await stat(here.credentials)).mode & 0o777).to.equal(0o600);
    expect((await stat(here.dir)).mode & 0o777).to.equal(0o700);

    // Several servers and no --url: the CLI asks which one, before any request.
    const which = await runCli(['whoami'], here.env);
    expect(which.code).to.equal(2);
    expect(stderrOf(which)).to.equal('whoami: logged in to several servers; choose one with --url (https://one.example, https://two.example/analytics)\nusage: delivery-analytics whoami [--url=<APP_URL>]\n');

    await store.remove('https://one.example');
    expect(await store.servers()).to.deep.equal(['https://two.example/analytics']);
    expect((await stat(here.credentials)).mode & 0o777).to.equal(0o600);
    await store.remove('https://two.example/analytics');
    await stat(here.credentials).then(() => expect.fail('file left behind'), (e) => expect(e.code).to.equal('ENOENT'));
  });

  it('never shows `dev` as a version', () => {
    expect(['dev', '', 'nightly', '1.2', 'v1.4.0', '2.0.0-rc.1', undefined].map(describeVersion)).to.deep.equal(['unknown', 'unknown', 'unknown', 'unknown', '1.4.0', '2.0.0-rc.1', 'unknown']);
  });
});
