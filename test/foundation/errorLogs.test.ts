/**
 * A request the database refuses fails alone, and what is logged about it is the request id and
 * the database's code and constraint: never a value of the query (an import's rows are e-mails
 * and names). The log is the real pino logger writing to a stream the test reads.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { expect } from 'chai';
import type Koa from 'koa';
import { createApp } from '../../src/app.js';
import { afterResponseErrorHandler } from '../../src/http/errors.js';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { expectRefusal } from '../helpers/refusals.js';
import { capturedLog, testServer, type TestServer } from '../helpers/server.js';
import { CSV, register, snapshot } from '../organisation/helpers.js';
import { ISSUES, issue } from '../webhooks/helpers.js';

const SEEDED_EMAIL = 'seeded.person.4711@example.com';
const BLOCKED_NAME = 'Blocked Name 4711';
const BLOCKED_TITLE = 'Blocked Title 4711';

describe('failing requests: alone in their batch, logged without personal data', function () {
  this.timeout(60_000);
  let api: TestServer;
  let t: BuiltTenant;
  const log = capturedLog('info');

  before(async () => {
    api = await testServer({ logger: log.logger });
    t = await buildTenant(api.databaseUrl);
    // A rule of this database only, so that a value passes validation and the database refuses it.
    const { pool } = dbFor(api.databaseUrl);
    await pool.query(`alter table people add constraint people_display_name_test check (display_name <> '${BLOCKED_NAME}')`);
    await pool.query(`alter table issues add constraint issues_title_test check (title <> '${BLOCKED_TITLE}')`);
  });
  after(() => api.close());

  const leaks = () => [SEEDED_EMAIL, BLOCKED_NAME, BLOCKED_TITLE, t.owner.apiKey].filter((secret) => log.text().includes(secret));

  it('a webhook the database refuses answers 500 alone; its neighbours in the batch are stored', async () => {
    const bodies = Array.from({ length: 12 }, (_, i) => issue({ externalId: `N-${i}`, title: i === 5 ? BLOCKED_TITLE : `t${i}` }));
    const answers = await Promise.all(bodies.map((body) => api.as(t.owner.apiKey).post(ISSUES, body)));
    expect(answers.map((a) => a.status)).to.deep.equal(bodies.map((_, i) => (i === 5 ? 500 : 201)));
    expect(answers[5]!.body).to.deep.equal({ error: 'Internal server error' });
    const { rows } = await dbFor(api.databaseUrl).pool.query(`select external_id from issues where tenant_id = $1 order by 1`, [t.tenantId]);
    expect(rows.map((r) => r.external_id)).to.have.length(11).and.not.include('N-5');

    const line = log.lines().find((l) => l.msg === 'unhandled error' && l.requestId === answers[5]!.headers.get('x-request-id'));
    expect(line, log.text()).to.not.equal(undefined);
    expect(line!.db).to.deep.equal({ code: '23514', constraint: 'issues_title_test', table: 'issues' });
    expect(leaks()).to.deep.equal([]);
  });

  it('a number the column cannot hold is a 400 for that request alone, not a 500 for its batch', async () => {
    const key = t.owner.apiKey;
    expect((await api.as(key).post(ISSUES, issue({ projectKey: 'full/seq', externalId: 'TOP', number: 2_147_483_647 }))).status).to.equal(201);
    const bodies = Array.from({ length: 8 }, (_, i) => issue({ externalId: `S-${i}`, projectKey: i === 3 ? 'full/seq' : 'fine/seq' }));
    const answers = await Promise.all(bodies.map((body) => api.as(key).post(ISSUES, body)));
    expect(answers.map((a) => a.status)).to.deep.equal(bodies.map((_, i) => (i === 3 ? 400 : 201)));
    expect(answers[3]!.body.error).to.equal('Validation failed');
    const { rows } = await dbFor(api.databaseUrl).pool.query(`select count(*)::int as n from issues where tenant_id = $1 and external_id = 'S-3'`, [t.tenantId]);
    expect(rows[0].n).to.equal(0);
  });

  it('a failing register import logs counts and codes, never its rows, synchronously and as a job', async () => {
    const seed = register(`E1,${SEEDED_EMAIL},Seeded Person,employee,,CC1,GB,web,Web,T1,CC1,`);
    expect((await api.as(t.owner.apiKey).post('/api/register/imports', seed, CSV)).status).to.equal(201);
    const before = await snapshot(api.databaseUrl, t.tenantId);

    // NUL in a cell: refused in validation (it used to reach the insert and log every row).
    const withNul = register(`E1,${SEEDED_EMAIL},Seeded\u0000Person,employee,,CC1,GB,web,Web,T1,CC1,`);
    expectRefusal(await api.as(t.owner.apiKey).post('/api/register/imports', withNul, CSV), 400, { error: { code: 'validation_failed', message: 'Register rejected: 1 error; nothing was imported', details: [{ path: 'line 2, display_name', line: 2, column: 'display_name', message: 'Must not contain the NUL character (U+0000)' }] } });

    // Refused by the database: a 500, logged as the constraint.
    const blocked = register(`E1,${SEEDED_EMAIL},Seeded Person,employee,,CC1,GB,web,Web,T1,CC1,`, `E2,other.4711@example.com,${BLOCKED_NAME},employee,,CC1,GB,web,Web,T1,CC1,`);
    const sync = await api.as(t.owner.apiKey).post('/api/register/imports', blocked, CSV);
    expect(sync.status).to.equal(500);
    const line = log.lines().find((l) => l.msg === 'unhandled error' && l.requestId === sync.headers.get('x-request-id'));
    expect(line?.db).to.deep.equal({ code: '23514', constraint: 'people_display_name_test', table: 'people' });
    expect((line?.err as { message?: string }).message).to.equal('database error 23514 on people_display_name_test');

    const queued = await api.as(t.owner.apiKey).post('/api/register/imports?mode=async', blocked, CSV);
    expect(queued.status).to.equal(202);
    const end = Date.now() + 20_000;
    while (!log.lines().some((l) => l.msg === 'job failed') && Date.now() < end) await delay(100);
    const failed = log.lines().find((l) => l.msg === 'job failed');
    expect(failed?.error).to.equal('database error 23514 on people_display_name_test');

    expect(await snapshot(api.databaseUrl, t.tenantId)).to.deep.equal(before);
    expect(leaks()).to.deep.equal([]);
  });
});

describe('errors after a response has started: in the JSON log, not on stderr', () => {
  it('logs a client leaving mid-stream at debug with its code, anything else as an error, and skips what was answered', () => {
    const log = capturedLog('debug');
    const handle = afterResponseErrorHandler(log.logger);
    const ctx = { state: { requestId: 'req-1' }, path: '/app/assets/main.js' } as unknown as Koa.Context;
    handle(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }), ctx);
    handle(Object.assign(new Error('disk gone'), { code: 'EIO' }), ctx);
    handle(Object.assign(new Error('Not Found'), { status: 404 }), ctx);
    handle(Object.assign(new Error('Bad Request'), { status: 400, expose: true }), ctx);
    const lines = log.lines().map((l) => ({ level: l.level, msg: l.msg, code: l.code, path: l.path, requestId: l.requestId }));
    expect(lines).to.deep.equal([
      { level: 20, msg: 'client closed the response early', code: 'ERR_STREAM_PREMATURE_CLOSE', path: '/app/assets/main.js', requestId: 'req-1' },
      { level: 50, msg: 'response failed after it started', code: 'EIO', path: '/app/assets/main.js', requestId: 'req-1' },
    ]);
  });

  it('replaces Koa\'s default handler, which writes the raw stack to stderr', async () => {
    const api = await testServer();
    try {
      const koa = createApp(api.running.app);
      // Koa adds its own (console.error of the stack) only when no listener is there at callback().
      koa.callback();
      expect(koa.listenerCount('error')).to.equal(1);
      expect(koa.listeners('error')[0]).to.not.equal(koa.onerror);
    } finally {
      await api.close();
    }
  });
});
