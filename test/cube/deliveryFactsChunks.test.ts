import { expect } from 'chai';
import pg from 'pg';
import { catchUpDeliveryFacts, catchUpForRead } from '../../src/cube/deliveryFacts.js';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { randomWrites } from './deliveryFactsRandom.js';
import { storedAndReference } from './deliveryFactsReference.js';

/**
 * Migration 0058: a tenant's backlog of notes is caught up in chunks that commit as they go. The
 * chunk size is set small here (10 notes, or 7), so that a backlog of a few dozen writes is many
 * chunks; a catch-up is held in its third chunk by a row lock on a deployment whose fact row that
 * chunk inserts (the fact row's foreign key check waits for it), and the tests look at what is
 * committed and who waits while it is held.
 */
describe('stored delivery facts caught up in chunks (migration 0058)', function () {
  this.timeout(120_000);
  let api: TestServer;
  let pool: pg.Pool;

  before(async () => {
    // No job worker: the schedule would catch up the notes these tests count.
    api = await testServer({ env: { JOBS_WORKER_ENABLED: 'false' } });
    pool = dbFor(api.databaseUrl).pool;
  });
  after(() => api.close());

  const pending = async (t: BuiltTenant) => (await pool.query(`select count(*)::int as n from delivery_facts_pending where tenant_id = $1`, [t.tenantId])).rows[0].n as number;
  const factRows = async (t: BuiltTenant) => (await pool.query(`select count(*)::int as n from deployment_facts where tenant_id = $1`, [t.tenantId])).rows[0].n as number;
  const expectCurrent = async (t: BuiltTenant) => {
    const { deployments, leadTimes } = await storedAndReference(pool, t.tenantId);
    expect(deployments.stored, 'deployments').to.deep.equal(deployments.reference);
    expect(leadTimes.stored, 'lead times').to.deep.equal(leadTimes.reference);
  };
  /** Deployments d1..dN of one project, one statement each, so that their notes' order is theirs. */
  const deploy = async (t: BuiltTenant, projectId: string, from: number, to: number) => {
    for (let i = from; i <= to; i += 1) {
      await pool.query(`insert into deployments (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task, created_at)
        values ($1, $2, 'manual', $3, 'main', md5($3), 'production', 'success', 'deploy', timestamptz '2025-05-01' + $4 * interval '1 hour')`,
      [t.tenantId, projectId, `d${i}`, i]);
    }
  };
  const tenantWithProject = async () => {
    const t = await buildTenant(api.databaseUrl);
    const projectId = (await pool.query(`insert into projects (tenant_id, provider, project_key, source_type) values ($1, 'manual', 'c/one', 'manual') returning id`, [t.tenantId])).rows[0].id as string;
    return { t, projectId };
  };
  /** Polls until `check` holds (a positive signal), failing after 10 s. */
  const until = async (what: string, check: () => Promise<boolean>) => {
    for (const end = Date.now() + 10_000; !(await check()); await new Promise((resolve) => setTimeout(resolve, 20))) {
      if (Date.now() > end) throw new Error(`never seen: ${what}`);
    }
  };
  /** The backend of a catch-up chunk seen waiting on a row lock (the held deployment). */
  const chunkWaitingOnRow = async () => (await pool.query(`select pid from pg_stat_activity
    where query like 'select delivery_facts_catch_up($1, $2, $3, $4)%' and wait_event_type = 'Lock' and wait_event <> 'advisory'`)).rows.map((r) => r.pid as number);
  /** Holds deployment `ext` FOR UPDATE: the chunk that inserts its fact row waits (its foreign key check). */
  const holdDeployment = async (t: BuiltTenant, ext: string) => {
    const locker = new pg.Client({ connectionString: api.databaseUrl });
    await locker.connect();
    await locker.query('begin');
    await locker.query(`select id from deployments where tenant_id = $1 and external_id = $2 for update`, [t.tenantId, ext]);
    return locker;
  };

  it('a backlog of many chunks, caught up 7 notes at a time, leaves the rows the rules give from scratch', async function () {
    this.timeout(600_000);
    const t = await buildTenant(api.databaseUrl);
    const { write } = await randomWrites(pool, t, 20261127);
    for (let i = 0; i < 150; i += 1) await write();
    const backlog = await pending(t);
    expect(backlog).to.be.greaterThan(10 * 7);
    const chunks: number[] = [];
    const taken = await catchUpDeliveryFacts(pool, t.tenantId, { chunkNotes: 7, onChunk: (n) => chunks.push(n) });
    expect(taken).to.equal(backlog);
    // Full chunks, then the one that found fewer than 7 left (0 when the backlog divides by 7).
    expect(chunks).to.deep.equal([...Array.from({ length: Math.floor(backlog / 7) }, () => 7), backlog % 7]);
    expect(await pending(t)).to.equal(0);
    await expectCurrent(t);
    const counts = (await pool.query(
      `select (select count(*) from deployment_facts f where f.tenant_id = $1 and f.rolled_back)::int as rolled_back,
              (select count(*) from deployment_facts f where f.tenant_id = $1 and f.caused_incident)::int as caused,
              (select count(*) from deployment_facts f where f.tenant_id = $1 and f.recovered_at is not null)::int as recovered,
              (select count(*) from change_lead_times c where c.tenant_id = $1 and c.deployed_at is not null)::int as deployed`, [t.tenantId])).rows[0];
    for (const [k, v] of Object.entries(counts)) expect(v, k).to.be.greaterThan(0);
  });

  it('a reader waits for the chunk in progress only, answers with every write committed before it began, and leaves later notes', async () => {
    const { t, projectId } = await tenantWithProject();
    await deploy(t, projectId, 1, 50);
    const locker = await holdDeployment(t, 'd25');
    let catching: Promise<number> | null = null;
    let reading: Promise<{ status: number; body: { data?: Record<string, unknown>[] } }> | null = null;
    try {
      // The schedule's catch-up, 10 notes a chunk: chunks 1 and 2 commit, chunk 3 (d21-d30) waits on d25.
      catching = catchUpDeliveryFacts(pool, t.tenantId, { chunkNotes: 10 });
      await until('the third chunk waiting on d25', async () => (await chunkWaitingOnRow()).length === 1);
      expect([await pending(t), await factRows(t)]).to.deep.equal([30, 20]);
      // A reader (a cube query through the API) arrives: seen waiting on the tenant's catch-up lock.
      reading = api.as(t.owner.apiKey).post('/cubejs-api/v1/load', { query: { measures: ['deployments.production_deploys'] }, castNumerics: true });
      await until('the reader waiting on the catch-up lock', async () => (await pool.query(`select 1 from pg_locks l
        where l.locktype = 'advisory' and not l.granted and ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended('delivery_facts:' || $1, 0)`, [t.tenantId])).rows.length === 1);
      // Three chunks' worth of writes commit after the reader began.
      await deploy(t, projectId, 51, 80);
      await locker.query('rollback');
      const answer = await reading;
      expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
      // Every deployment written before the reader began, none of those written after it.
      expect(answer.body.data).to.deep.equal([{ 'deployments.production_deploys': 50 }]);
      // The later writes' notes are still there when the reader has its answer.
      expect(await pending(t)).to.equal(30);
      // The schedule's catch-up stops at the newest note it saw when it began, too.
      expect(await catching).to.be.within(30, 50);
    } finally {
      await locker.end();
      await catching?.catch(() => 0);
      await reading?.catch(() => null);
    }
    expect([await pending(t), await factRows(t)]).to.deep.equal([30, 50]);
    await expectCurrent(t);
    expect([await pending(t), await factRows(t)]).to.deep.equal([0, 80]);
  });

  it('a reader finding more than a chunk pending does not wait for it: one catch-up runs behind the answers, which say what is pending', async () => {
    const { t, projectId } = await tenantWithProject();
    await deploy(t, projectId, 1, 50);
    const locker = await holdDeployment(t, 'd25');
    // Its own pool: the catch-up in progress is remembered per pool (per instance).
    const own = new pg.Pool({ connectionString: api.databaseUrl, max: 4 });
    try {
      // 50 notes, chunks of 10: the reader answers at once (pending counted up to a chunk and one)…
      expect(await catchUpForRead(own, t.tenantId, { chunkNotes: 10 })).to.deep.equal({ pending: 11 });
      // …and a catch-up runs behind it, chunk by chunk: held in its third chunk by d25.
      await until('the third chunk waiting on d25', async () => (await chunkWaitingOnRow()).length === 1);
      expect([await pending(t), await factRows(t)]).to.deep.equal([30, 20]);
      // A second reader does not wait either, and starts no second catch-up.
      expect(await catchUpForRead(own, t.tenantId, { chunkNotes: 10 })).to.deep.equal({ pending: 11 });
      expect(await chunkWaitingOnRow()).to.have.length(1);
      await locker.query('rollback');
      await until('the backlog caught up behind the answers', async () => (await pending(t)) === 0);
      expect(await factRows(t)).to.equal(50);
      // A chunk or less pending: the reader catches it up before it answers.
      await deploy(t, projectId, 51, 58);
      expect(await catchUpForRead(own, t.tenantId, { chunkNotes: 10 })).to.deep.equal({ pending: 0 });
      expect([await pending(t), await factRows(t)]).to.deep.equal([0, 58]);
    } finally {
      await locker.end();
      await own.end();
    }
    await expectCurrent(t);
  });

  it('a catch-up whose backend is terminated mid-way keeps the chunks it committed; the next one does the rest', async () => {
    const { t, projectId } = await tenantWithProject();
    await deploy(t, projectId, 1, 50);
    const locker = await holdDeployment(t, 'd25');
    // Its own pool: the terminated connection is this pool's (whose clients, as the server's,
    // ignore the socket's own 'error' event; the query that was running fails with the cause).
    const own = new pg.Pool({ connectionString: api.databaseUrl, max: 1 });
    own.on('connect', (client) => client.on('error', () => {}));
    try {
      const catching = catchUpDeliveryFacts(own, t.tenantId, { chunkNotes: 10 }).then(() => null, (e: { code?: string }) => e);
      await until('the third chunk waiting on d25', async () => (await chunkWaitingOnRow()).length === 1);
      const [pid] = await chunkWaitingOnRow();
      expect((await pool.query('select pg_terminate_backend($1) as done', [pid])).rows[0].done).to.equal(true);
      expect((await catching)?.code).to.equal('57P01'); // admin_shutdown
      await until('the terminated backend gone', async () => (await pool.query('select 1 from pg_stat_activity where pid = $1', [pid])).rows.length === 0);
      // Chunks 1 and 2 stay done; the third chunk's notes are back, with the other two chunks'.
      expect([await pending(t), await factRows(t)]).to.deep.equal([30, 20]);
      await locker.query('rollback');
    } finally {
      await locker.end();
      await own.end();
    }
    expect(await catchUpDeliveryFacts(pool, t.tenantId)).to.equal(30);
    expect([await pending(t), await factRows(t)]).to.deep.equal([0, 50]);
    await expectCurrent(t);
  });

  it('a chunk past its statement_timeout is halved and run again, down to the one note that cannot finish', async () => {
    const { t, projectId } = await tenantWithProject();
    await deploy(t, projectId, 1, 20);
    // d6's fact row cannot be inserted while it is held: every chunk holding d6's note runs into its timeout.
    const locker = await holdDeployment(t, 'd6');
    const chunks: number[] = [];
    try {
      const error = await catchUpDeliveryFacts(pool, t.tenantId, { chunkNotes: 8, chunkTimeoutMs: 1000, onChunk: (n) => chunks.push(n) })
        .then(() => null, (e: { code?: string }) => e);
      // d1-d8 timed out; d1-d4 done; d5-d8 and d5-d6 timed out; d5 done; d6 alone timed out: given up.
      expect(error?.code).to.equal('57014');
      expect(chunks).to.deep.equal([4, 1]);
      expect([await pending(t), await factRows(t)]).to.deep.equal([15, 5]);
      await locker.query('rollback');
    } finally {
      await locker.end();
    }
    expect(await catchUpDeliveryFacts(pool, t.tenantId)).to.equal(15);
    await expectCurrent(t);
  });
});
