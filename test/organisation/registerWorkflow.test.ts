/**
 * The register import through the `register.import` workflow: `POST /api/register/imports?mode=async`
 * validates in the request, the in-process worker applies the file with the synchronous import's
 * service function, progress reaches the tenant's websocket clients only, and
 * `GET /api/register/imports/jobs/:jobId` reads the outcome.
 */
import { withTenant } from '../../src/db/tenancy.js';
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { expect } from 'chai';
import { sql } from 'drizzle-orm';
import WebSocket from 'ws';
import { registerImportWorkflow } from '../../src/organisation/jobs.js';
import { buildMember, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import type { TestServer } from '../helpers/server.js';
import { CSV, EXAMPLE_REGISTER, register, snapshot } from './helpers.js';
import { serverWithTwoTenants } from '../helpers/suites.js';

interface Live {
  ws: WebSocket;
  messages: any[];
}

function connect(api: TestServer, apiKey: string): Promise<Live> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${api.baseUrl.replace('http', 'ws')}/api/live`, { headers: { authorization: `Bearer ${apiKey}` } });
    const live: Live = { ws, messages: [] };
    ws.on('message', (raw) => {
      const data = JSON.parse(raw.toString());
      live.messages.push(data);
      if (data.kind === 'live.ready') resolve(live);
    });
    ws.on('error', reject);
  });
}

/** Rows without ids, tenant ids, importer and timestamps, so two tenants' imports compare. */
function comparable(snap: Record<string, unknown[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [table, rows] of Object.entries(snap)) {
    out[table] = rows
      .map((row) => JSON.stringify(Object.fromEntries(Object.entries(row as object).filter(([k]) => !/(^id$|_id$|_at$|^imported_by$)/.test(k)))))
      .sort();
  }
  return out;
}

/** Waits until a message matching `wanted` arrived (a test's assertions then say whether it did). */
async function received(live: Live, wanted: (message: any) => boolean): Promise<void> {
  const end = Date.now() + 5000;
  while (!live.messages.some(wanted) && Date.now() < end) await delay(50);
}

async function memberships(databaseUrl: string, tenantId: string): Promise<string[]> {
  const result = await dbFor(databaseUrl).db.execute(sql`
    select p.external_ref || ' ' || t.slug || ' ' || m.membership_source as m from team_memberships m
    join people p on p.id = m.person_id join teams t on t.id = m.team_id where m.tenant_id = ${tenantId}::uuid order by 1`);
  return result.rows.map((r) => r.m as string);
}

async function jobsEnqueued(databaseUrl: string): Promise<number> {
  const result = await dbFor(databaseUrl).db.execute(sql`select count(*)::int as n from pgboss.job where name = 'register.import'`);
  return result.rows[0]!.n as number;
}

describe('Organisation register import through the register.import workflow', function () {
  this.timeout(60_000);
  let api: TestServer, a: BuiltTenant, b: BuiltTenant;
  before(async () => ({ api, a, b } = await serverWithTwoTenants({ env: { JOBS_POLL_INTERVAL_MS: '100' } })));
  after(() => api.close());

  async function finished(apiKey: string, jobId: string): Promise<any> {
    const end = Date.now() + 30_000;
    for (;;) {
      const res = await api.as(apiKey).get(`/api/register/imports/jobs/${jobId}`);
      expect(res.status).to.equal(200);
      if (res.body.data.status === 'completed' || res.body.data.status === 'failed' || Date.now() > end) return res.body;
      await delay(100);
    }
  }

  it('imports the example register asynchronously: the same rows as the synchronous import, progress to the tenant only', async () => {
    const mine = await connect(api, a.owner.apiKey);
    const theirs = await connect(api, b.owner.apiKey);
    const res = await api.as(a.owner.apiKey).post('/api/register/imports?mode=async', EXAMPLE_REGISTER, CSV);
    expect(res.status).to.equal(202);
    const { jobId } = res.body.data;
    expect(jobId).to.match(/^[0-9a-f-]{36}$/);
    expect(res.body).to.deep.equal({ data: { jobId, status: 'queued' }, meta: {} });

    const outcome = await finished(a.owner.apiKey, jobId);
    const [record] = (await api.as(a.owner.apiKey).get('/api/register/imports')).body.data;
    expect(outcome).to.deep.equal({ data: { jobId, status: 'completed', importId: record.id, rowCount: 6, recorded: true }, meta: {} });
    expect(record).to.deep.include({ rowCount: 6, importedBy: a.owner.userId });

    // The synchronous import of the same file into another tenant writes the same rows.
    const sync = await buildTenant(api.databaseUrl);
    expect((await api.as(sync.owner.apiKey).post('/api/register/imports', EXAMPLE_REGISTER, CSV)).status).to.equal(201);
    expect(comparable(await snapshot(api.databaseUrl, a.tenantId))).to.deep.equal(comparable(await snapshot(api.databaseUrl, sync.tenantId)));
    expect(await memberships(api.databaseUrl, a.tenantId)).to.deep.equal(await memberships(api.databaseUrl, sync.tenantId));
    expect((await memberships(api.databaseUrl, a.tenantId)).length).to.equal(6);

    await received(mine, (m) => m.kind === 'job.finished');
    const events = mine.messages.slice(1).map(({ at, ...event }) => {
      expect(at).to.be.a('string');
      return event;
    });
    const job = { id: jobId, name: 'register.import' };
    expect(events).to.deep.equal([
      { kind: 'job.progress', job, step: { name: 'parse', index: 1, count: 3 } },
      { kind: 'job.progress', job, step: { name: 'apply', index: 2, count: 3 } },
      { kind: 'job.progress', job, subject: { type: 'register_import', id: record.id }, done: 6, total: 6, message: 'recorded' },
      { kind: 'job.progress', job, step: { name: 'record', index: 3, count: 3 } },
      { kind: 'job.finished', job, outcome: 'completed' },
    ]);
    // Events reach the hub in the order they were raised: once an event raised for the other tenant
    // after this job finished has arrived there, any of this job's events sent there would have too.
    const marker = { kind: 'progress', subject: { type: 'job', id: randomUUID() }, phase: 'marker' } as const;
    await api.running.app.live.publish(b.tenantId, marker);
    await received(theirs, (m) => m.phase === 'marker');
    expect(theirs.messages.map(({ at, ...m }) => m)).to.deep.equal([{ kind: 'live.ready', pingIntervalMs: 30_000 }, marker]);
    mine.ws.close();
    theirs.ws.close();
  });

  it('re-running the same file through the workflow changes nothing and records no new import', async () => {
    const before = await snapshot(api.databaseUrl, a.tenantId);
    const res = await api.as(a.owner.apiKey).post('/api/register/imports?mode=async', EXAMPLE_REGISTER, CSV);
    expect(res.status).to.equal(202);
    const outcome = await finished(a.owner.apiKey, res.body.data.jobId);
    const latest = before.register_imports![0] as { id: string };
    expect(outcome.data).to.deep.equal({ jobId: res.body.data.jobId, status: 'completed', importId: latest.id, rowCount: 6, recorded: false });
    expect(await snapshot(api.databaseUrl, a.tenantId)).to.deep.equal(before);
  });

  it('a retry after a crash (the whole workflow again, no checkpoint) re-applies the file and changes nothing', async () => {
    const before = await snapshot(api.databaseUrl, a.tenantId);
    const published: unknown[] = [];
    const app = { ...api.running.app, live: { publish: async (_t: string, e: unknown) => void published.push(e) } };
    const ctx = { app, job: { id: randomUUID(), name: 'register.import', retryCount: 1 }, signal: new AbortController().signal, instanceId: 'test', progress: async () => {} };
    // As the runner runs it: as the job's tenant.
    const output = (await withTenant(a.tenantId, () => registerImportWorkflow.run(ctx, { tenantId: a.tenantId, importedBy: a.owner.userId, csv: EXAMPLE_REGISTER }))) as any;
    const latest = before.register_imports![0] as { id: string };
    expect(output).to.deep.equal({ steps: 3, state: { rows: 6, importId: latest.id, rowCount: 6, recorded: false } });
    expect(published).to.deep.equal([
      { kind: 'job.progress', job: { id: ctx.job.id, name: 'register.import' }, subject: { type: 'register_import', id: latest.id }, done: 6, total: 6, message: 'unchanged' },
    ]);
    expect(await snapshot(api.databaseUrl, a.tenantId)).to.deep.equal(before);
  });

  it('a file that turned invalid after it was enqueued fails the job with every error, and writes nothing', async () => {
    const t = await buildTenant(api.databaseUrl);
    const live = await connect(api, t.owner.apiKey);
    const before = await snapshot(api.databaseUrl, t.tenantId);
    // The route never enqueues a bad file: enqueue directly, as if it had turned bad meanwhile.
    const bad = register('E1,bad,Ann,employee,,CC,DE,checkout,Checkout,,,');
    const jobId = await api.running.app.jobs.send('register.import', { tenantId: t.tenantId, importedBy: t.owner.userId, csv: bad });
    const outcome = await finished(t.owner.apiKey, jobId);
    expect(outcome.data).to.deep.equal({
      jobId, status: 'failed',
      errors: [{ path: 'line 2, email', line: 2, column: 'email', message: '"bad" is not an e-mail address' }],
    });
    await received(live, (m) => m.kind === 'job.finished');
    const last = live.messages.find((m) => m.kind === 'job.finished');
    expect(last).to.deep.include({ outcome: 'retrying', error: 'Register rejected: 1 error; nothing was imported' });
    expect(await snapshot(api.databaseUrl, t.tenantId)).to.deep.equal(before);
    live.ws.close();
  });

  it('refuses an invalid file with the synchronous 400 (every error), enqueues nothing and writes nothing', async () => {
    const t = await buildTenant(api.databaseUrl);
    const bad = register('E1,bad,Ann,employee,,CC,DE,checkout,Checkout,,,', 'E2,,Bob,alien,,CC,Germany,Checkout,Checkout,,,');
    const jobsBefore = await jobsEnqueued(api.databaseUrl);
    const before = await snapshot(api.databaseUrl, t.tenantId);
    const async = await api.as(t.owner.apiKey).post('/api/register/imports?mode=async', bad, CSV);
    const sync = await api.as(t.owner.apiKey).post('/api/register/imports', bad, CSV);
    expect(async.status).to.equal(400);
    expect(async.body).to.deep.equal(sync.body);
    expect(async.body.error.code).to.equal('validation_failed');
    expect(async.body.error.details.map((d: any) => `${d.line}:${d.column}`)).to.deep.equal(['2:email', '3:employment_type', '3:location_country', '3:team_slug']);
    expect(await jobsEnqueued(api.databaseUrl)).to.equal(jobsBefore);
    expect(await snapshot(api.databaseUrl, t.tenantId)).to.deep.equal(before);
  });

  it('is for owners only; a job id of another tenant (or no job) is a 404', async () => {
    const member = await buildMember(api.databaseUrl, a.tenantId);
    const jobsBefore = await jobsEnqueued(api.databaseUrl);
    const refused = await api.as(member.apiKey).post('/api/register/imports?mode=async', EXAMPLE_REGISTER, CSV);
    expect(refused.status).to.equal(403);
    expect(refused.body.error.code).to.equal('forbidden');
    expect(await jobsEnqueued(api.databaseUrl)).to.equal(jobsBefore);

    const res = await api.as(a.owner.apiKey).post('/api/register/imports?mode=async', EXAMPLE_REGISTER, CSV);
    const { jobId } = res.body.data;
    await finished(a.owner.apiKey, jobId);
    // A member of the tenant may read its job; another tenant may not see it exists.
    expect((await api.as(member.apiKey).get(`/api/register/imports/jobs/${jobId}`)).body.data.status).to.equal('completed');
    const other = await api.as(b.owner.apiKey).get(`/api/register/imports/jobs/${jobId}`);
    expect(other.status).to.equal(404);
    expect(other.body.error.code).to.equal('not_found');
    expectRefusal(await api.as(a.owner.apiKey).get('/api/register/imports/jobs/not-a-uuid'), 404, apiError('not_found', 'Job not found'));
    expectRefusal(await api.as(a.owner.apiKey).get('/api/register/imports/jobs/7b0c9a62-8e4f-4a38-9d55-1f0e6d4b2c11'), 404, apiError('not_found', 'Job not found'));
  });
});
