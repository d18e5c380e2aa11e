/**
 * /api/live on one in-process instance: authentication, tenant scoping, notifications forged by
 * another database role, ping and dead-client detection, listener reconnect after its database
 * session is killed, 1012 on close.
 */
import { until as waitUntil } from '../helpers/until.js';
import { expect } from 'chai';
import pg from 'pg';
import WebSocket from 'ws';
import { grantBiCredential, revokeBiCredential } from '../../src/bi/credentials.js';
import { loadConfig } from '../../src/config/index.js';
import { freePort } from '../../src/dev.js';
import { createLogger } from '../../src/log.js';
import { derive, seal } from '../../src/auth/crypto.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { freshDatabase } from '../helpers/database.js';
import { buildSessionCookie, dbFor, twoTenants, type BuiltTenant } from '../helpers/factories.js';
import { baseEnv } from '../helpers/server.js';

interface Live {
  ws: WebSocket;
  messages: any[];
  pingTimes: number[];
  closed: Promise<number>;
}

function connect(server: RunningServer, headers: Record<string, string>, options: WebSocket.ClientOptions = {}): Promise<Live> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws').replace('localhost', '127.0.0.1')}/api/live`, { headers, ...options });
    const live: Live = { ws, messages: [], pingTimes: [], closed: new Promise((done) => ws.on('close', (code) => done(code))) };
    ws.on('ping', () => live.pingTimes.push(Date.now()));
    ws.on('message', (raw) => {
      const data = JSON.parse(raw.toString());
      live.messages.push(data);
      if (data.kind === 'live.ready') resolve(live);
    });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => reject(Object.assign(new Error(`status ${res.statusCode}`), { status: res.statusCode, body: JSON.parse(body), headers: res.headers })));
    });
    ws.on('error', reject);
  });
}

async function refused(server: RunningServer, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  try {
    await connect(server, headers);
  } catch (error) {
    return error as { status: number; body: unknown };
  }
  throw new Error('connected');
}

const until = (what: string, probe: () => boolean | Promise<boolean>) => waitUntil(what, probe, { everyMs: 25 });

describe('live progress websocket /api/live', function () {
  this.timeout(30_000);
  let databaseUrl: string;
  let server: RunningServer;
  let a: BuiltTenant;
  let b: BuiltTenant;

  before(async () => {
    databaseUrl = await freshDatabase();
    ({ a, b } = await twoTenants(databaseUrl));
    const port = await freePort();
    const config = loadConfig({ ...baseEnv(databaseUrl, port), JOBS_WORKER_ENABLED: 'false' });
    server = await startServer(config, createLogger('silent'), { live: { pingIntervalMs: 200, listenerHealthCheckMs: 500 } });
  });
  after(() => server?.close());

  it('refuses an upgrade without credentials, with a wrong key, and for another path', async () => {
    expect(await refused(server, {})).to.deep.include({ status: 401, body: { error: { code: 'unauthorized', message: 'Missing or invalid credentials' } } });
    expect(await refused(server, { authorization: 'Bearer gai_wrong' })).to.deep.include({ status: 401, body: { error: { code: 'unauthorized', message: 'Missing or invalid credentials' } } });
    const other = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${server.url.replace('http', 'ws').replace('localhost', '127.0.0.1')}/api/elsewhere`, { headers: { authorization: `Bearer ${a.owner.apiKey}` } });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode as number));
      ws.on('error', () => {});
    });
    expect(other).to.equal(404);
  });

  it('accepts an API key or a session cookie of our own origin; refuses a cookie from another origin', async () => {
    const byKey = await connect(server, { authorization: `Bearer ${a.owner.apiKey}` });
    expect(byKey.messages[0]).to.include({ kind: 'live.ready', pingIntervalMs: 200 });
    const cookie = await buildSessionCookie(databaseUrl, a.owner.userId, a.tenantId);
    const bySession = await connect(server, { cookie, origin: new URL(server.app.config.appUrl).origin });
    const crossSite = await refused(server, { cookie, origin: 'https://evil.example' });
    expect(crossSite).to.deep.include({ status: 403, body: { error: { code: 'forbidden', message: 'Cross-origin websocket refused' } } });
    byKey.ws.close();
    bySession.ws.close();
  });

  it('delivers an event only to the clients of its tenant, with the time it was raised', async () => {
    const mine = await connect(server, { authorization: `Bearer ${a.owner.apiKey}` });
    const theirs = await connect(server, { authorization: `Bearer ${b.owner.apiKey}` });
    const event = { kind: 'progress', subject: { type: 'register_import', id: '7b0c9a62-8e4f-4a38-9d55-1f0e6d4b2c11' }, phase: 'validating', done: 40, total: 120 } as const;
    await server.app.live.publish(a.tenantId, event);
    await until('the event', () => mine.messages.length === 2);
    expect(mine.messages[1]).to.deep.equal({ ...event, at: mine.messages[1].at });
    expect(Date.parse(mine.messages[1].at)).to.be.closeTo(Date.now(), 5000);
    // Notifications arrive in the order they were raised: once one raised afterwards for B is
    // there, A's event would have reached B's client before it.
    const marker = { kind: 'progress', subject: { type: 'job', id: 'marker' }, phase: 'marker' } as const;
    await server.app.live.publish(b.tenantId, marker);
    await until('the event for B', () => theirs.messages.length === 2);
    expect(theirs.messages.map(({ at, ...m }) => m)).to.deep.equal([{ kind: 'live.ready', pingIntervalMs: 200 }, marker]);
    mine.ws.close();
    theirs.ws.close();
  });

  it("drops notifications another tenant's BI role sends on the channel; the role cannot read the genuine ones", async () => {
    const client = await connect(server, { authorization: `Bearer ${a.owner.apiKey}` });
    const { credential, password } = await grantBiCredential(dbFor(databaseUrl).pool, { tenantId: b.tenantId, name: 'Forger' });
    const url = new URL(databaseUrl);
    url.username = credential.user;
    url.password = password;
    // Where the role connects (the BI database, docs/bi.md): channels are per database, so it
    // hears nothing of the application's and reaches none of its listeners.
    const inBi = new URL(url);
    inBi.pathname = `${url.pathname}_bi`;
    const separate = new pg.Client({ connectionString: inBi.toString() });
    separate.on('error', () => {});
    const overheard: string[] = [];
    await separate.connect();
    separate.on('notification', (n) => overheard.push(n.payload ?? ''));
    await separate.query('listen da_live');
    const before = { kind: 'progress', subject: { type: 'register_import', id: 'genuine-0' }, phase: 'queued' } as const;
    await server.app.live.publish(a.tenantId, before);
    await until('the event at the client', () => client.messages.some((m) => m.phase === 'queued'));
    const own = JSON.stringify({ t: a.tenantId, e: before });
    await separate.query(`select pg_notify('da_live', $1)`, [own]);
    await until('its own notification', () => overheard.length > 0);
    // Observed, not slept: a second genuine event reaches the client (its NOTIFY committed in the
    // application database), then a second notification of its own reaches the BI listener.
    // PostgreSQL delivers notifications in commit order from one queue for every database, so
    // anything of the application's that could reach it would have come before that one.
    const again = { kind: 'progress', subject: { type: 'register_import', id: 'genuine-1' }, phase: 'queued' } as const;
    await server.app.live.publish(a.tenantId, again);
    await until('the second event at the client', () => client.messages.some((m) => m.subject?.id === 'genuine-1'));
    const ownAgain = JSON.stringify({ t: a.tenantId, e: again });
    await separate.query(`select pg_notify('da_live', $1)`, [ownAgain]);
    await until('its second notification', () => overheard.length > 1);
    // Only what it sent itself, in its own database; the genuine events never reached it.
    expect(overheard).to.deep.equal([own, ownAgain]);
    await separate.end();
    client.messages.splice(1);
    // The sealing holds for a role that could connect to the application database (as BI roles
    // did before the BI database): given CONNECT here for the test.
    await dbFor(databaseUrl).pool.query(`grant connect on database ${pg.escapeIdentifier(url.pathname.slice(1))} to ${pg.escapeIdentifier(credential.user)}`);
    const bi = new pg.Client({ connectionString: url.toString() });
    bi.on('error', () => {});
    try {
      await bi.connect();
      // PostgreSQL has no privilege on LISTEN or NOTIFY, and both work in the BI role's read-only transactions.
      const heard: string[] = [];
      bi.on('notification', (n) => heard.push(n.payload ?? ''));
      await bi.query('listen da_live');
      const first = { kind: 'progress', subject: { type: 'register_import', id: 'genuine-1' }, phase: 'validating' } as const;
      await server.app.live.publish(a.tenantId, first);
      await until('the first event at the client', () => client.messages.some((m) => m.phase === 'validating'));
      await until('the first event at the BI listener', () => heard.length === 1);
      const captured = heard[0] as string;
      expect(captured).not.to.include(a.tenantId);
      expect(captured).not.to.include('validating');

      const forged = { kind: 'job.finished', job: { id: 'forged', name: 'register.import' }, outcome: 'completed' };
      const note = JSON.stringify({ t: a.tenantId, e: forged, at: new Date().toISOString() });
      const tampered = captured.slice(0, 40) + (captured[40] === 'A' ? 'B' : 'A') + captured.slice(41);
      const payloads = [note, seal(derive(Buffer.alloc(32, 7), 'live-events'), note, 'da_live'), tampered];
      await bi.query('begin read only');
      for (const payload of payloads) await bi.query(`select pg_notify('da_live', $1)`, [payload]);
      await bi.query('commit');
      await bi.query(`notify da_live, ${bi.escapeLiteral(note)}`);

      // Sent after the forgeries on the same channel: once it is there, they were dropped.
      const second = { kind: 'progress', subject: { type: 'register_import', id: 'genuine-2' }, phase: 'recording' } as const;
      await server.app.live.publish(a.tenantId, second);
      await until('the second event at the client', () => client.messages.some((m) => m.phase === 'recording'));
      expect(client.messages.map(({ at, ...m }) => m)).to.deep.equal([{ kind: 'live.ready', pingIntervalMs: 200 }, first, second]);
    } finally {
      client.ws.close();
      await bi.end().catch(() => {});
      await revokeBiCredential(dbFor(databaseUrl).pool, b.tenantId, credential.id);
    }
  });

  it('refuses an event too large for a notification', async () => {
    const message = 'x'.repeat(8000);
    let error: Error | null = null;
    await server.app.live.publish(a.tenantId, { kind: 'progress', subject: { type: 'export', id: 'e' }, phase: 'x', message }).catch((e) => (error = e));
    expect(error).to.be.instanceOf(Error);
    expect((error as unknown as Error).message).to.match(/the limit is 7500/);
  });

  it('pings every interval and drops a client that stopped answering', async () => {
    const healthy = await connect(server, { authorization: `Bearer ${a.owner.apiKey}` });
    const silent = await connect(server, { authorization: `Bearer ${a.owner.apiKey}` }, { autoPong: false });
    // The silent client missed a pong: the server terminates it (1006: no close frame).
    expect(await silent.closed).to.equal(1006);
    await until('five pings', () => healthy.pingTimes.length >= 5);
    // Four intervals of 200 ms, give or take a busy machine.
    expect((healthy.pingTimes[4]! - healthy.pingTimes[0]!) / 4).to.be.within(150, 400);
    expect(healthy.ws.readyState).to.equal(WebSocket.OPEN);
    healthy.ws.close();
  });

  it('reconnects its LISTEN session after the database drops it, telling clients about the gap', async () => {
    const client = await connect(server, { authorization: `Bearer ${a.owner.apiKey}` });
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      const killed = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = 'delivery-analytics-live'`,
      );
      expect(killed.rowCount).to.equal(1);
    } finally {
      await admin.end();
    }
    await until('the gap notice', () => client.messages.some((m) => m.kind === 'live.gap'));
    expect(server.live.listening).to.equal(true);
    await server.app.live.publish(a.tenantId, { kind: 'progress', subject: { type: 'backfill', id: 'b1' }, phase: 'after-restart' });
    await until('the event after the reconnect', () => client.messages.some((m) => m.phase === 'after-restart'));
    client.ws.close();
  });

  it('closes every socket with 1012 (Service Restart) when the instance stops', async () => {
    const port = await freePort();
    const config = loadConfig({ ...baseEnv(databaseUrl, port), JOBS_WORKER_ENABLED: 'false' });
    const other = await startServer(config, createLogger('silent'));
    const client = await connect(other, { authorization: `Bearer ${a.owner.apiKey}` });
    await other.close();
    expect(await client.closed).to.equal(1012);
  });

  it('caps the sockets one tenant holds on an instance (429 with Retry-After), other tenants unaffected', async () => {
    const port = await freePort();
    const config = loadConfig({ ...baseEnv(databaseUrl, port), JOBS_WORKER_ENABLED: 'false', LIVE_MAX_CONNECTIONS_PER_TENANT: '2' });
    const capped = await startServer(config, createLogger('silent'));
    try {
      const key = { authorization: `Bearer ${a.owner.apiKey}` };
      const first = await connect(capped, key);
      await connect(capped, key);
      const third = (await refused(capped, key)) as { status: number; body: unknown };
      expect(third).to.deep.include({
        status: 429,
        body: { error: { code: 'rate_limited', message: 'Too many live connections for this tenant on this instance (at most 2); retry later' } },
      });
      expect((third as unknown as { headers: Record<string, string> }).headers['retry-after']).to.equal('30');
      // Another tenant still connects; a slot freed by a close is usable again.
      await connect(capped, { authorization: `Bearer ${b.owner.apiKey}` });
      first.ws.close();
      await first.closed;
      await until('the slot to free', async () => (await connect(capped, key).then(() => true, () => false)));
    } finally {
      await capped.close();
    }
  });
});
