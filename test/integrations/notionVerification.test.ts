/**
 * Notion's webhook verification token reaches the operator: the subscription's handshake is taken
 * before DOCS_WEBHOOK_SECRET exists, kept sealed (no plaintext in the row, no privilege for the
 * tenant role, nothing in the log), and printed once by `delivery-analytics
 * notion:verification-token`. Every other delivery is still refused without the secret.
 */
import { expect } from 'chai';
import { buildTenant } from '../helpers/factories.js';
import { runCli } from '../helpers/cli.js';
import { dbFor } from '../helpers/factories.js';
import { capturedLog, TEST_KEY, testServer, type TestServer } from '../helpers/server.js';
import { fakeNotion, type FakeNotion } from './fakes/notion.js';
import { openDatabase } from '../../src/db/client.js';
import { asSystem } from '../../src/db/tenancy.js';
import { keepVerificationToken } from '../../src/integrations/notion/verificationTokens.js';

const TOKEN = 'secret_6kJvZ0Z9wq3h0NqJkV1y2bA7c8d9e0fGhIjKlMnOpQr';

describe('Notion webhook verification token, for the operator', function () {
  this.timeout(90_000);
  let notion: FakeNotion;
  let api: TestServer;
  const log = capturedLog('info');
  const q = (sql: string, params: unknown[] = []) => dbFor(api.databaseUrl).pool.query(sql, params);
  const env = (extra: Record<string, string> = {}) => ({ DOCS_CLIENT_ID: notion.clientId, DOCS_CLIENT_SECRET: notion.clientSecret, NOTION_API_BASE_URL: notion.url, ...extra });
  const post = (server: TestServer, body: string, headers: Record<string, string> = {}) => server.post('/api/integrations/notion/webhook', body, { 'content-type': 'application/json', ...headers });
  const cli = () => runCli(['notion:verification-token'], { DATABASE_URL: api.databaseUrl, OAUTH_ENCRYPTION_KEY: TEST_KEY });

  before(async () => {
    notion = await fakeNotion();
    api = await testServer({ env: env(), logger: log.logger });
  });
  after(async () => {
    await api?.close();
    await notion?.close();
  });

  it('without DOCS_WEBHOOK_SECRET the handshake is taken and kept sealed; any other delivery is still 503', async () => {
    const handshake = await post(api, JSON.stringify({ verification_token: TOKEN }));
    expect([handshake.status, handshake.body]).to.deep.equal([200, { handled: 'verification' }]);
    const event = await post(api, JSON.stringify({ type: 'page.deleted', workspace_id: 'w', entity: { id: 'p', type: 'page' } }), { 'x-notion-signature': `sha256=${'0'.repeat(64)}` });
    expect([event.status, event.body]).to.deep.equal([503, { error: { code: 'unavailable', message: 'Notion webhooks are refused: DOCS_WEBHOOK_SECRET is not set on this server' } }]);
    // Not a handshake: extra fields, or an empty token.
    expect((await post(api, JSON.stringify({ verification_token: TOKEN, type: 'x' }))).status).to.equal(503);
    expect((await post(api, JSON.stringify({ verification_token: '' }))).status).to.equal(503);

    const { rows } = await q('select * from docs_verification_tokens');
    expect(rows).to.have.length(1);
    expect(JSON.stringify(rows[0])).not.to.contain(TOKEN.slice(7));
    expect(log.text()).not.to.contain(TOKEN.slice(7));
    expect(log.lines().some((l) => String(l.msg).includes('notion:verification-token'))).to.equal(true);

    // A deployment secret: the tenant role may not even read the table.
    const tenant = await buildTenant(api.databaseUrl);
    const client = await dbFor(api.databaseUrl).pool.connect();
    try {
      await client.query('begin');
      await client.query(`select set_config('role', 'app_tenant', true), set_config('app.tenant_id', $1, true)`, [tenant.tenantId]);
      const denied = await client.query('select count(*) from docs_verification_tokens').then(() => 'read', (e: { code?: string }) => e.code);
      expect(denied).to.equal('42501');
    } finally {
      await client.query('rollback');
      client.release();
    }
  });

  it('the CLI prints the token once: a second run finds none', async () => {
    const first = await cli();
    expect(first.code, first.stderr).to.equal(0);
    const lines = first.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).to.have.length(1);
    expect(lines[0].verificationToken).to.equal(TOKEN);
    expect(Date.now() - Date.parse(lines[0].receivedAt)).to.be.within(0, 60_000);
    const second = await cli();
    expect([second.code, second.stdout]).to.deep.equal([1, '']);
    expect(second.stderr).to.match(/^No verification token was received in the last 24 hours/);
    expect((await q('select count(*)::int as n from docs_verification_tokens')).rows[0].n).to.equal(0);
  });

  it('keeps only the newest five; with the secret set, its own token is not kept and another one is (a new subscription), both answered alike', async () => {
    for (let i = 0; i < 7; i++) await post(api, JSON.stringify({ verification_token: `secret_posted-${i}` }));
    expect((await q('select count(*)::int as n from docs_verification_tokens')).rows[0].n).to.equal(5);
    const listed = (await cli()).stdout.trim().split('\n').map((l) => JSON.parse(l).verificationToken);
    expect(listed).to.deep.equal(['secret_posted-6', 'secret_posted-5', 'secret_posted-4', 'secret_posted-3', 'secret_posted-2']);

    const withSecret = await testServer({ databaseUrl: api.databaseUrl, env: env({ DOCS_WEBHOOK_SECRET: TOKEN }) });
    try {
      const same = await post(withSecret, JSON.stringify({ verification_token: TOKEN }));
      const other = await post(withSecret, JSON.stringify({ verification_token: 'secret_new-subscription' }));
      expect([same.status, same.body, other.status, other.body]).to.deep.equal([200, { handled: 'verification' }, 200, { handled: 'verification' }]);
      const kept = (await cli()).stdout.trim().split('\n').map((l) => JSON.parse(l).verificationToken);
      expect(kept).to.deep.equal(['secret_new-subscription']);
      expect((await withSecret.as((await buildTenant(api.databaseUrl)).owner.apiKey).get('/api/integrations/notion')).body.data).to.include({ enabled: true, webhooksAccepted: true });
    } finally {
      await withSecret.close();
    }
  });

  it('the unsigned handshake is rate-limited per address, and five are kept however many arrive at once', async () => {
    const fresh = await testServer({ env: env() });
    try {
      const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => post(fresh, JSON.stringify({ verification_token: `secret_flood-${i}` }))));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 200)).to.have.length(10);
      expect(statuses.filter((s) => s === 429)).to.have.length(190);
      const refused = answers.find((a) => a.status === 429)!;
      expect(refused.body.error.code).to.equal('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 3600);
      const kept = await dbFor(fresh.databaseUrl).pool.query('select count(*)::int as n from docs_verification_tokens');
      expect(kept.rows[0].n).to.equal(5);
    } finally {
      await fresh.close();
    }
  });

  it('the cap of five holds when keepers run at once (past the rate limit: many addresses)', async () => {
    // A connection for every keeper, so all 40 transactions are open at once and meet only at the
    // keepers' lock: through the factories' pool of four, 36 of them queued for a connection and,
    // the keepers running one at a time on a loaded machine, outwaited its 5 s connect timeout.
    const keepers = openDatabase(api.databaseUrl, { max: 40, applicationName: 'tests', unscoped: 'test-fixture' });
    const { pool } = dbFor(api.databaseUrl);
    try {
      await pool.query('delete from docs_verification_tokens');
      await Promise.all(Array.from({ length: 40 }, (_, i) => asSystem('inbound-routing', () => keepVerificationToken(keepers.db, Buffer.from(TEST_KEY, 'hex'), `secret_parallel-${i}`))));
      expect((await pool.query('select count(*)::int as n from docs_verification_tokens')).rows[0].n).to.equal(5);
    } finally {
      await keepers.close();
    }
  });
});
