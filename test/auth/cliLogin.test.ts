import { expect } from 'chai';
import { mkdir, mkdtemp, readFile, stat } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { apiKeys } from '../../src/db/schema/index.js';
import { sha256hex } from '../../src/oauth/crypto.js';
import { runCli, startCli, type CliResult } from '../helpers/cli.js';
import { buildMember, buildSessionCookie, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { fakePostmark, type FakePostmark } from '../helpers/fakePostmark.js';
import { capturedLog, testServer, type TestServer } from '../helpers/server.js';
import { launch, screenshot, signedIn } from '../web/browser.js';
import { seedTenant } from '../web/seed.js';
import { hiddenField } from './helpers.js';

/** stderr without the runtime notice a dependency (oidc-provider) may print on Node 20. */
const stderrOf = (result: CliResult) => result.stderr.replace(/^oidc-provider WARNING: Unsupported runtime[^\n]*\n/m, '');

/** A fresh home for one CLI "machine": credentials go under its XDG_CONFIG_HOME. */
async function machine(): Promise<{ env: Record<string, string>; credentials: string; dir: string }> {
  const home = await mkdtemp(join(tmpdir(), 'cli-home-'));
  const config = join(home, 'config');
  return { env: { HOME: home, XDG_CONFIG_HOME: config }, dir: join(config, 'delivery-analytics'), credentials: join(config, 'delivery-analytics', 'credentials.json') };
}

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
  this.timeout(300_000);
  let api: TestServer;
  let mail: FakePostmark;
  let browser: Browser;
  let alpha: BuiltTenant;
  let beta: BuiltTenant;
  const log = capturedLog('debug');

  before(async function () {
    this.timeout(120_000);
    mail = await fakePostmark();
    api = await testServer({ env: { MAILER_API_KEY: mail.token, MAILER_API_URL: mail.url, MAILER_FROM: 'Analytics <signin@example.com>', LOG_LEVEL: 'debug' }, logger: log.logger });
    browser = await launch();
    alpha = await buildTenant(api.databaseUrl, 'Alpha');
    beta = await buildTenant(api.databaseUrl, 'Beta');
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
    const [whoami, roster, baseline, reversed, both] = await Promise.all([
      runCli(['whoami'], here.env),
      runCli(['export:team-roster', `--url=${api.baseUrl}`, '--as-of=2026-03-31'], here.env),
      runCli(['export:team-baseline', `--url=${api.baseUrl}`, '--from=2026-01', '--to=2026-03', `--out=${out}`], here.env),
      runCli(['export:team-baseline', `--url=${api.baseUrl}`, '--from=2026-03', '--to=2026-01'], here.env),
      runCli(['export:team-roster', `--url=${api.baseUrl}`, `--tenant=${alpha.tenantId}`], here.env),
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
    // The same windows are refused as by the API, before any request.
    expect(reversed.code).to.equal(2);
    expect(stderrOf(reversed)).to.match(/^export:team-baseline: /);
    expect(both.code).to.equal(2);
    expect(stderrOf(both)).to.include('--tenant does not go with --url: the stored key belongs to one tenant');

    const logout = await runCli(['logout', `--url=${api.baseUrl}`], here.env);
    expect(stderrOf(logout), logout.stderr).to.equal('');
    expect(logout.stdout).to.equal(`Logged out of ${api.baseUrl}: the API key "${hostname()}" revoked and is removed from ${here.credentials}.\n`);
    expect((await api.as(entry.apiKey).get('/api/users/me')).status).to.equal(401);
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
