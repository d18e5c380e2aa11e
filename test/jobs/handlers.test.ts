/**
 * The scheduled jobs' handlers, run directly against a real database: each does its sweep, and a
 * second run changes nothing (their documented idempotency).
 */
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import type { AppContext } from '../../src/context.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { migrateDatabase } from '../../src/jobCatalog.js';
import { bossOver, JobSchemaBehindError } from '../../src/jobs/boss.js';
import { jobCatalog, scheduleCatalog } from '../../src/jobCatalog.js';
import { ROLLUPS_SWEEP } from '../../src/cube/jobs.js';
import { asSystem } from '../../src/db/tenancy.js';
import type { JobContext, JobDefinition } from '../../src/jobs/define.js';
import { createJobQueue } from '../../src/jobs/index.js';
import { createLivePublisher } from '../../src/live/publisher.js';
import { createLogger } from '../../src/log.js';
import { startServer } from '../../src/server.js';
import { freshDatabase } from '../helpers/database.js';
import { buildTenant, type BuiltTenant } from '../helpers/factories.js';
import { baseEnv } from '../helpers/server.js';
import { requestHooks } from '../../src/app.js';

describe('scheduled job handlers', function () {
  this.timeout(30_000);
  let database: Database;
  let app: AppContext;
  let tenant: BuiltTenant;
  const payload = { schedule: 'manual', windowStart: new Date().toISOString() };
  const byName = (name: string) => jobCatalog.find((d) => d.name === name) as JobDefinition;
  // As the runner runs them: a job without a tenant is maintenance across tenants.
  const run = (name: string, with_: typeof payload = payload) => {
    const ctx: JobContext = { app, job: { id: '00000000-0000-0000-0000-000000000000', name, retryCount: 0 }, signal: new AbortController().signal, instanceId: 'test', progress: async () => {} };
    return asSystem('maintenance', () => byName(name).run(ctx, with_));
  };
  const q = (text: string, values: unknown[] = []) => database.pool.query(text, values);

  before(async () => {
    const url = await freshDatabase();
    database = openDatabase(url, { max: 4, unscoped: 'test-fixture' });
    tenant = await buildTenant(url);
    const config = loadConfig(baseEnv(url));
    app = { config, database, log: createLogger('silent'), jobs: createJobQueue(database.pool, jobCatalog), live: createLivePublisher(database.pool, config), requestHooks };
  });
  after(() => database?.close());

  it('every schedule names a job of the catalog, and every name is unique', () => {
    const jobs = new Set(jobCatalog.map((d) => d.name));
    expect(jobs.size).to.equal(jobCatalog.length);
    expect(scheduleCatalog.length).to.be.greaterThan(0);
    for (const schedule of scheduleCatalog) expect(jobs.has(schedule.job), schedule.name).to.equal(true);
    expect(new Set(scheduleCatalog.map((s) => s.name)).size).to.equal(scheduleCatalog.length);
  });

  it('cube.rollups-refresh visits every tenant in the hourly sweep’s window, whatever minute it runs at, and only tenants with work otherwise', async () => {
    const sweep = scheduleCatalog.find((s) => s.name === ROLLUPS_SWEEP);
    expect(sweep).to.deep.include({ job: 'cube.rollups-refresh', everySeconds: 3600 });
    const tenants = (await q('select count(*)::int as n from tenants')).rows[0].n;
    expect(tenants).to.be.greaterThan(0);
    expect(await run('cube.rollups-refresh', { schedule: 'cube.rollups-refresh', windowStart: payload.windowStart })).to.deep.equal({ tenants: 0, built: 0 });
    expect(await run('cube.rollups-refresh', { schedule: ROLLUPS_SWEEP, windowStart: payload.windowStart })).to.deep.equal({ tenants, built: 0 });
  });

  it('cube.delivery-facts-catch-up recomputes every tenant\'s noted writes, and a second run finds none', async () => {
    expect(scheduleCatalog.find((s) => s.name === 'cube.delivery-facts-catch-up')).to.deep.include({ job: 'cube.delivery-facts-catch-up', everySeconds: 5 });
    const project = (await q(`insert into projects (tenant_id, provider, project_key, source_type) values ($1, 'manual', 'jobs/facts', 'manual') returning id`, [tenant.tenantId])).rows[0].id;
    await q(`insert into deployments (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task, created_at)
      values ($1, $2, 'manual', 'jd', 'main', md5('jd'), 'production', 'success', 'deploy', '2025-01-02T00:00:00Z')`, [tenant.tenantId, project]);
    const facts = async () => (await q(`select count(*)::int as n from deployment_facts where tenant_id = $1`, [tenant.tenantId])).rows[0].n;
    expect(await facts()).to.equal(0);
    expect(await run('cube.delivery-facts-catch-up')).to.deep.equal({ tenants: 1, notes: 1, failed: 0 });
    expect(await facts()).to.equal(1);
    expect(await run('cube.delivery-facts-catch-up')).to.deep.equal({ tenants: 0, notes: 0, failed: 0 });
  });

  it('identity.sessions-cleanup deletes sessions past either expiry and sign-in links a day past theirs', async () => {
    const session = (hash: string, idle: string, absolute: string) =>
      q(`insert into login_sessions (token_hash, user_id, idle_expires_at, absolute_expires_at) values ($1, $2, now() + $3::interval, now() + $4::interval)`, [hash, tenant.owner.userId, idle, absolute]);
    await session('live', '1 hour', '1 day');
    await session('idle-expired', '-1 minute', '1 day');
    await session('absolute-expired', '1 hour', '-1 minute');
    const token = (hash: string, expires: string) => q(`insert into login_tokens (token_hash, email, expires_at) values ($1, 'x@example.com', now() + $2::interval)`, [hash, expires]);
    await token('fresh', '10 minutes');
    await token('just-expired', '-1 hour');
    await token('old', '-2 days');
    expect(await run('identity.sessions-cleanup')).to.deep.equal({ sessions: 2, tokens: 1 });
    expect((await q(`select token_hash from login_sessions where token_hash in ('live', 'idle-expired', 'absolute-expired')`)).rows).to.deep.equal([{ token_hash: 'live' }]);
    expect((await q(`select token_hash from login_tokens where token_hash in ('fresh', 'just-expired', 'old') order by 1`)).rows.map((r) => r.token_hash)).to.deep.equal(['fresh', 'just-expired']);
    expect(await run('identity.sessions-cleanup')).to.deep.equal({ sessions: 0, tokens: 0 });
  });

  it('integrations.flag-stale flags linked code-host installations silent for 7 days and unflags them once active', async () => {
    const install = (id: number, linked: string, extra = '') =>
      q(`insert into codehost_installations (installation_id, tenant_id, linked_at${extra ? ', suspended_at' : ''}) values ($1, $2, now() - $3::interval${extra ? ', now()' : ''})`, [id, tenant.tenantId, linked]);
    await install(101, '30 days'); // silent: stale
    await install(102, '30 days'); // recent delivery: fine
    await install(103, '2 days'); // linked recently: not judged yet
    await install(104, '30 days', 'suspended'); // suspended: not judged
    await q(`insert into codehost_deliveries (delivery_id, tenant_id, installation_id, event, received_at) values ('d1', $1, 102, 'push', now() - interval '1 day'), ('d0', $1, 101, 'push', now() - interval '20 days')`, [tenant.tenantId]);
    expect(await run('integrations.flag-stale')).to.deep.equal({ stale: 1, flagged: 1, cleared: 0 });
    const rows = await q(`select kind, ref, tenant_id, last_activity_at is not null as seen from stale_integrations`);
    expect(rows.rows).to.deep.equal([{ kind: 'codehost_installation', ref: '101', tenant_id: tenant.tenantId, seen: true }]);
    expect(await run('integrations.flag-stale')).to.deep.equal({ stale: 1, flagged: 0, cleared: 0 });
    await q(`insert into codehost_deliveries (delivery_id, tenant_id, installation_id, event) values ('d2', $1, 101, 'push')`, [tenant.tenantId]);
    expect(await run('integrations.flag-stale')).to.deep.equal({ stale: 0, flagged: 0, cleared: 1 });
    expect((await q('select count(*)::int as n from stale_integrations')).rows[0].n).to.equal(0);
  });

  it('jobs.expire hands a job held past its expiry back to the queue as a retry', async () => {
    const id = await app.jobs.send('identity.sessions-cleanup', payload);
    await q(`update pgboss.job set state = 'active', started_on = now() - interval '10 minutes' where id = $1`, [id]);
    await run('jobs.expire');
    const job = (await q(`select state::text, retry_count from pgboss.job where id = $1`, [id])).rows[0];
    expect(job).to.deep.equal({ state: 'retry', retry_count: 0 });
    // Claimed again (after its retry delay), it counts as a retry.
    const [again] = await bossOver(database.pool).fetch('identity.sessions-cleanup', { includeMetadata: true, ignoreStartAfter: true });
    expect(again).to.deep.include({ id, retryCount: 1 });
    // The sweep is a named statement planned once per connection: a second sweep finds the next job.
    const next = await app.jobs.send('identity.sessions-cleanup', payload);
    await q(`update pgboss.job set state = 'active', started_on = now() - interval '10 minutes' where id = $1`, [next]);
    for (let i = 0; i < 3; i++) await run('jobs.expire');
    expect((await q(`select state::text from pgboss.job where id = $1`, [next])).rows[0]).to.deep.equal({ state: 'retry' });
  });

  it('jobs.retention archives finished jobs and deletes schedule windows and checkpoints older than the retention', async () => {
    await q(`insert into schedule_runs (schedule, window_start, claimed_by, claimed_at) values ('x', now() - interval '30 days', 'i', now() - interval '30 days'), ('x', now(), 'i', now())`);
    await q(`insert into workflow_checkpoints (job_id, workflow, updated_at) values (gen_random_uuid(), 'w', now() - interval '30 days')`);
    const id = await app.jobs.send('identity.sessions-cleanup', payload);
    await q(`update pgboss.job set state = 'completed', completed_on = now() - interval '2 hours' where id = $1`, [id]);
    expect(await run('jobs.retention')).to.deep.equal({ scheduleRuns: 1, workflowCheckpoints: 1 });
    expect((await q(`select count(*)::int as n from pgboss.job where id = $1`, [id])).rows[0].n).to.equal(0);
    expect((await q(`select count(*)::int as n from pgboss.archive where id = $1`, [id])).rows[0].n).to.equal(1);
    expect(await run('jobs.retention')).to.deep.equal({ scheduleRuns: 0, workflowCheckpoints: 0 });
  });
});


describe('job queue installation', function () {
  this.timeout(30_000);

  it('serve refuses to start without a catalog queue; migrate puts it back', async () => {
    const url = await freshDatabase();
    const database = openDatabase(url, { max: 2, unscoped: 'test-fixture' });
    try {
      await database.pool.query(`select pgboss.delete_queue('surveys.close-due')`);
      const config = loadConfig(baseEnv(url));
      let error: Error | null = null;
      await startServer(config, createLogger('silent')).catch((e) => (error = e));
      expect(error).to.be.instanceOf(JobSchemaBehindError);
      expect((error as unknown as Error).message).to.equal('job queues are not installed: surveys.close-due (run "delivery-analytics migrate")');
      await migrateDatabase(database.pool);
      const server = await startServer(config, createLogger('silent'));
      await server.close();
    } finally {
      await database.close();
    }
  });
});

describe('TEST_HOOKS', () => {
  it('is refused unless NODE_ENV is test', () => {
    const env = { ...baseEnv('postgresql://u:p@127.0.0.1:5432/d'), TEST_HOOKS: 'true' };
    expect(loadConfig(env).testHooks).to.equal(true);
    for (const nodeEnv of ['production', 'development']) {
      expect(() => loadConfig({ ...env, NODE_ENV: nodeEnv, APP_URL: 'https://example.com' }))
        .to.throw(ConfigError)
        .with.property('problems')
        .that.includes('TEST_HOOKS is refused unless NODE_ENV is test');
    }
  });
});
