import { expect } from 'chai';
import pg from 'pg';
import { buildTenant, dbFor, twoTenants, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { DEPLOYMENTS, ISSUES } from '../webhooks/helpers.js';
import { announceInstallation, codehostEnv, deliver, fixture, FIXTURE_INSTALLATION } from '../activity/helpers.js';
import { randomWrites } from './deliveryFactsRandom.js';
import { storedAndReference } from './deliveryFactsReference.js';

const DAY = 86_400;

/**
 * Migration 0021 stores the facts behind the DORA measures (deployment_facts, change_lead_times);
 * since 0055 writes note what they changed and every read catches up first. These tests change
 * the facts *after* the rows they affect (a rollback, an incident, an earlier deployment, a PR
 * synced late) and check the measures of the earlier month through /cubejs-api/v1/load, with values worked out by hand, and that the stored rows
 * equal the 0019/0020 rules computed from the facts (deliveryFactsReference.ts).
 */
describe('stored delivery facts (migrations 0021, 0055)', function () {
  this.timeout(120_000);
  let api: TestServer;
  let pool: pg.Pool;

  before(async () => {
    // No job worker: the catch-up schedule would take notes these tests count (each test catches
    // up where a reader would).
    api = await testServer({ env: { ...codehostEnv(), JOBS_WORKER_ENABLED: 'false' } });
    pool = dbFor(api.databaseUrl).pool;
  });
  after(() => api.close());

  const expectCurrent = async (tenantId: string) => {
    const { deployments, leadTimes } = await storedAndReference(pool, tenantId);
    expect(deployments.stored, 'deployments').to.deep.equal(deployments.reference);
    expect(leadTimes.stored, 'lead times').to.deep.equal(leadTimes.reference);
  };
  const load = async (tenant: BuiltTenant, query: object) => {
    const res = await api.as(tenant.owner.apiKey).post('/cubejs-api/v1/load', { query, castNumerics: true });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data as Record<string, unknown>[];
  };

  describe('deployment measures of an earlier month, through the webhooks', () => {
    let t: BuiltTenant;
    const post = async (path: string, body: object) => {
      const res = await api.as(t.owner.apiKey).post(path, { projectKey: 'acme/shop', ...body });
      expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
    };
    const deploy = (externalId: string, createdAt: string, sha: string, more: object = {}) =>
      post(DEPLOYMENTS, { externalId, createdAt, sha, ref: 'main', environment: 'production', status: 'success', ...more });
    const incident = (externalId: string, createdAt: string, more: object = {}) =>
      post(ISSUES, { externalId, createdAt, title: 'Checkout down', type: 'incident', state: 'open', ...more });
    const march = async () => {
      const [row] = await load(t, {
        measures: ['deployments.production_deploys', 'deployments.failed_production_deploys', 'deployments.change_failure_rate',
          'deployments.recovered_deploys', 'deployments.failed_deployment_recovery_time_p50_seconds'],
        timeDimensions: [{ dimension: 'deployments.created_at', dateRange: ['2025-03-01', '2025-03-31'] }],
      });
      await expectCurrent(t.tenantId);
      return [row!['deployments.production_deploys'], row!['deployments.failed_production_deploys'], row!['deployments.change_failure_rate'],
        row!['deployments.recovered_deploys'], row!['deployments.failed_deployment_recovery_time_p50_seconds']];
    };

    before(async () => {
      t = await buildTenant(api.databaseUrl);
      await deploy('d1', '2025-03-10T00:00:00Z', 'aaaaaaa1111111');
      await deploy('d2', '2025-03-20T00:00:00Z', 'bbbbbbb2222222');
      await deploy('d3', '2025-04-05T00:00:00Z', 'ccccccc3333333');
    });

    it('March starts with two good deployments', async () => {
      expect(await march()).to.deep.equal([2, 0, 0, 0, null]);
    });

    it('a rollback posted in April fails d2 in March; d3 recovers it (16 days)', async () => {
      await deploy('r1', '2025-04-06T00:00:00Z', '1234567aaaa', { isRollback: true, rollbackFromSha: 'BBBBBBB' });
      expect(await march()).to.deep.equal([2, 1, 0.5, 1, 16 * DAY]);
    });

    it('an incident naming d1 fails it; its recovery skips the rolled-back d2 (26 days)', async () => {
      await incident('inc-named', '2025-03-12T00:00:00Z', { metadata: { causedByDeployment: 'd1' } });
      expect(await march()).to.deep.equal([2, 2, 1, 2, 21 * DAY]);
    });

    it('a rollback of d3 in April moves both March recoveries to the next good deployment, the first rollback (04-06)', async () => {
      await deploy('r2', '2025-04-07T00:00:00Z', '7654321bbbb', { isRollback: true, rollbackFromSha: 'ccccccc3333333' });
      expect(await march()).to.deep.equal([2, 2, 1, 2, 22 * DAY]); // d1 27 days, d2 17 days
    });

    it('the first rollback re-posted as failed is no longer a recovery (it still rolls d2 back)', async () => {
      await deploy('r1', '2025-04-06T00:00:00Z', '1234567aaaa', { isRollback: true, rollbackFromSha: 'BBBBBBB', status: 'failure' });
      expect(await march()).to.deep.equal([2, 2, 1, 2, 23 * DAY]); // recovered by r2: 28 and 18 days
    });

    it('re-posting the incident as a bug, and the first rollback naming another sha, undo the failures', async () => {
      await incident('inc-named', '2025-03-12T00:00:00Z', { type: 'bug', metadata: { causedByDeployment: 'd1' } });
      expect(await march()).to.deep.equal([2, 1, 0.5, 1, 18 * DAY]);
      await deploy('r1', '2025-04-06T00:00:00Z', '1234567aaaa', { isRollback: true, rollbackFromSha: 'eeeeeee', status: 'failure' });
      expect(await march()).to.deep.equal([2, 0, 0, 0, null]);
    });

    it('an unnamed incident in the 24 hours after a deployment fails it; moving the deployment after the incident clears it', async () => {
      await incident('inc-window', '2025-03-20T23:00:00Z');
      expect(await march()).to.deep.equal([2, 1, 0.5, 1, 18 * DAY]); // d2, recovered by r2 (d3 is rolled back, r1 failed)
      await deploy('d2', '2025-03-21T00:00:00Z', 'bbbbbbb2222222');
      expect(await march()).to.deep.equal([2, 0, 0, 0, null]);
    });

    it('a late deployment with an earlier createdAt becomes the cause of the incident; d2 recovers it', async () => {
      await deploy('d1b', '2025-03-20T12:00:00Z', 'fffffff5555555');
      expect(await march()).to.deep.equal([3, 1, 1 / 3, 1, 0.5 * DAY]);
    });
  });

  describe('lead time when the deployment arrives before or after the PR sync', () => {
    let a: BuiltTenant;
    let b: BuiltTenant;
    const project = async (tenant: BuiltTenant) =>
      (await pool.query(`select id from projects where tenant_id = $1 and project_key = 'acme-corp/checkout-service'`, [tenant.tenantId])).rows[0].id as string;
    const deploy = async (tenant: BuiltTenant, externalId: string, at: string) =>
      pool.query(
        `insert into deployments (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task, created_at)
         values ($1, $2, 'manual', $3, 'main', md5($3), 'production', 'success', 'deploy', $4)`,
        [tenant.tenantId, await project(tenant), externalId, at],
      );
    const november = async (tenant: BuiltTenant) => {
      const [row] = await load(tenant, {
        measures: ['change_lead_times.deployed_changes', 'change_lead_times.lead_time_for_changes_p50_seconds', 'change_lead_times.undeployed_changes'],
        timeDimensions: [{ dimension: 'change_lead_times.merged_at', dateRange: ['2026-11-01', '2026-11-30'] }],
      });
      await expectCurrent(tenant.tenantId);
      return [row!['change_lead_times.deployed_changes'], row!['change_lead_times.lead_time_for_changes_p50_seconds'], row!['change_lead_times.undeployed_changes']];
    };

    before(async () => {
      ({ a, b } = await twoTenants(api.databaseUrl));
      await announceInstallation(api.databaseUrl, FIXTURE_INSTALLATION, 62000001);
      expect((await api.as(a.owner.apiKey).post('/api/integrations/codehost/installations', { installationId: FIXTURE_INSTALLATION })).status).to.equal(201);
      expect((await api.as(b.owner.apiKey).post('/api/integrations/codehost/installations', { installationId: 62000001 })).status).to.equal(201);
    });

    it('deployment first: commits pushed, then deployed, then the merged PR synced', async () => {
      expect((await deliver(api, 'push', 'push')).status).to.equal(200);
      await deploy(a, 'a-deploy', '2026-11-04T00:00:00Z');
      expect(await november(a)).to.deep.equal([0, null, 0]); // no merged PR yet
      expect((await deliver(api, 'pull_request', 'pull_request.closed')).status).to.equal(200);
      // First commit 2026-11-02T09:58:21Z (pushed 10:58:21+01:00) → deployment 2026-11-04T00:00:00Z.
      expect(await november(a)).to.deep.equal([1, DAY + 14 * 3600 + 1 * 60 + 39, 0]);
    });

    it('PR first: undeployed until a deployment arrives; a late earlier deployment shortens it; a failed status hands it on', async () => {
      const installationId = 62000001;
      expect((await deliver(api, 'pull_request', fixture('pull_request.closed'), { installationId })).status).to.equal(200);
      expect(await november(b)).to.deep.equal([0, null, 1]);
      // No commit linked: the change starts at the PR's createdAt, 2026-11-02T09:45:12Z.
      await deploy(b, 'b-late', '2026-11-05T00:00:00Z');
      expect(await november(b)).to.deep.equal([1, 2 * DAY + 14 * 3600 + 14 * 60 + 48, 0]);
      await deploy(b, 'b-early', '2026-11-03T20:00:00Z');
      expect(await november(b)).to.deep.equal([1, DAY + 10 * 3600 + 14 * 60 + 48, 0]);
      await pool.query(`update deployments set status = 'failure' where tenant_id = $1 and external_id = 'b-early'`, [b.tenantId]);
      expect(await november(b)).to.deep.equal([1, 2 * DAY + 14 * 3600 + 14 * 60 + 48, 0]);
      await pool.query(`delete from deployments where tenant_id = $1 and external_id = 'b-late'`, [b.tenantId]);
      expect(await november(b)).to.deep.equal([0, null, 1]);
    });

    it('a commit linked later, or its time corrected, moves the start of the change', async () => {
      const pr = (await pool.query(`select id, project_id from pull_requests where tenant_id = $1`, [b.tenantId])).rows[0];
      await deploy(b, 'b-again', '2026-11-05T00:00:00Z');
      const commit = (await pool.query(
        `insert into commits (tenant_id, project_id, sha, committed_at, message) values ($1, $2, md5('late'), '2026-11-01T00:00:00Z', 'm') returning id`,
        [b.tenantId, pr.project_id])).rows[0].id;
      await pool.query(`insert into pull_request_commits (pull_request_id, commit_id, tenant_id) values ($1, $2, $3)`, [pr.id, commit, b.tenantId]);
      expect(await november(b)).to.deep.equal([1, 4 * DAY, 0]);
      await pool.query(`update commits set committed_at = '2026-11-02T00:00:00Z' where id = $1`, [commit]);
      expect(await november(b)).to.deep.equal([1, 3 * DAY, 0]);
      await pool.query(`delete from commits where id = $1`, [commit]);
      expect(await november(b)).to.deep.equal([1, 2 * DAY + 14 * 3600 + 14 * 60 + 48, 0]);
    });
  });

  it('stays equal to the rules computed from the facts over a random sequence of writes', async function () {
    this.timeout(600_000);
    const t = await buildTenant(api.databaseUrl);
    const { rand, write } = await randomWrites(pool, t);
    // The first 150 writes are each read (caught up) at once; the next 100 are read after runs of
    // one to several writes, so that one catch-up takes the notes of many (as reads do under load).
    for (let i = 0; i < 250; i += 1) {
      const step = await write();
      if (i >= 150 && i < 249 && rand() < 0.7) continue;
      const { deployments, leadTimes } = await storedAndReference(pool, t.tenantId);
      expect(deployments.stored, `deployments after step ${i} (kind ${step})`).to.deep.equal(deployments.reference);
      expect(leadTimes.stored, `lead times after step ${i} (kind ${step})`).to.deep.equal(leadTimes.reference);
    }
    const counts = (await pool.query(
      `select (select count(*) from deployment_facts f where f.tenant_id = $1 and f.rolled_back)::int as rolled_back,
              (select count(*) from deployment_facts f where f.tenant_id = $1 and f.caused_incident)::int as caused,
              (select count(*) from deployment_facts f where f.tenant_id = $1 and f.recovered_at is not null)::int as recovered,
              (select count(*) from change_lead_times c where c.tenant_id = $1 and c.deployed_at is not null)::int as deployed`, [t.tenantId])).rows[0];
    // The sequence reaches every kind of fact (a test that compares empty sets proves nothing).
    for (const [k, v] of Object.entries(counts)) expect(v, k).to.be.greaterThan(0);
  });

  const newProject = async (t: BuiltTenant, key: string) =>
    (await pool.query(`insert into projects (tenant_id, provider, project_key, source_type) values ($1, 'manual', $2, 'manual') returning id`, [t.tenantId, key])).rows[0].id as string;
  const insertDeployment = (c: Pick<pg.Pool, 'query'>, t: BuiltTenant, projectId: string, ext: string, at: string, rollbackFrom: string | null = null) => c.query(
    `insert into deployments (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task, is_rollback, rollback_from_sha, created_at)
     values ($1, $2, 'manual', $3, 'main', md5($3), 'production', 'success', 'deploy', $4, $5, $6)`,
    [t.tenantId, projectId, ext, rollbackFrom !== null, rollbackFrom, at]);
  const pidOf = (c: pg.Client) => (c as unknown as { processID: number }).processID;
  /** Resolves with the query's result; throws if its session is ever seen waiting on a lock. */
  const neverWaits = async <T>(c: pg.Client, query: Promise<T>): Promise<T> => {
    let done = false;
    const result = query.finally(() => { done = true; });
    for (const end = Date.now() + 10_000; !done; await new Promise((resolve) => setTimeout(resolve, 20))) {
      const { rows } = await pool.query(`select wait_event_type from pg_stat_activity where pid = $1`, [pidOf(c)]);
      if (rows[0]?.wait_event_type === 'Lock') throw new Error('the session waited on a lock');
      if (Date.now() > end) throw new Error('the query did not finish');
    }
    return result;
  };
  const facts = async (t: BuiltTenant, column: 'rolled_back' | 'caused_incident') =>
    (await pool.query(`select d.external_id, f.${column} from deployment_facts f join deployments d on d.id = f.deployment_id where f.tenant_id = $1 order by 1`, [t.tenantId])).rows;
  const pending = async (t: BuiltTenant) => (await pool.query(`select count(*)::int as n from delivery_facts_pending where tenant_id = $1`, [t.tenantId])).rows[0].n as number;

  it('two writers of one project at once do not wait for each other; the next read sees the rollback fail its target', async () => {
    const t = await buildTenant(api.databaseUrl);
    const projectId = await newProject(t, 'c/one');
    const first = new pg.Client({ connectionString: api.databaseUrl });
    const second = new pg.Client({ connectionString: api.databaseUrl });
    await Promise.all([first.connect(), second.connect()]);
    try {
      await first.query('begin');
      await insertDeployment(first, t, projectId, 'target', '2025-05-01T00:00:00Z');
      await second.query('begin');
      // Until 0055 the second writer waited here for the first's project lock.
      await neverWaits(second, insertDeployment(second, t, projectId, 'rollback', '2025-05-02T00:00:00Z', (await second.query(`select left(md5('target'), 7) as s`)).rows[0].s));
      expect((await pool.query(`select state from pg_stat_activity where pid = $1`, [pidOf(first)])).rows[0].state).to.equal('idle in transaction');
      await second.query('commit');
      await first.query('commit');
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
    // The writes noted what they changed and recomputed nothing; reading catches up.
    expect(await pending(t)).to.equal(2);
    expect(await facts(t, 'rolled_back')).to.deep.equal([]);
    await expectCurrent(t.tenantId);
    expect(await facts(t, 'rolled_back')).to.deep.equal([{ external_id: 'rollback', rolled_back: false }, { external_id: 'target', rolled_back: true }]);
    expect(await pending(t)).to.equal(0);
  });

  it('an incident naming a deployment of another project, written while that deployment is uncommitted, fails it once both are read', async () => {
    const t = await buildTenant(api.databaseUrl);
    const [one, two] = [await newProject(t, 'x/one'), await newProject(t, 'x/two')];
    const first = new pg.Client({ connectionString: api.databaseUrl });
    const second = new pg.Client({ connectionString: api.databaseUrl });
    await Promise.all([first.connect(), second.connect()]);
    try {
      await first.query('begin');
      await insertDeployment(first, t, one, 'named', '2025-05-01T00:00:00Z');
      await second.query('begin');
      await neverWaits(second, second.query(`insert into issues (tenant_id, project_id, provider, external_id, number, title, type, state, metadata, created_at)
        values ($1, $2, 'manual', 'inc', 1, 'down', 'incident', 'open', '{"causedByDeployment":"named"}', '2025-05-03T00:00:00Z')`, [t.tenantId, two]));
      // The incident commits first: its note alone finds no deployment named "named" yet.
      await second.query('commit');
      await first.query('commit');
    } finally {
      await Promise.all([first.end(), second.end()]);
    }
    await expectCurrent(t.tenantId);
    expect(await facts(t, 'caused_incident')).to.deep.equal([{ external_id: 'named', caused_incident: true }]);
  });

  it('a read waits for a catch-up in progress, then holds every write committed meanwhile; writers never wait for a catch-up', async () => {
    const t = await buildTenant(api.databaseUrl);
    const projectId = await newProject(t, 'w/one');
    await insertDeployment(pool, t, projectId, 'target', '2025-05-01T00:00:00Z');
    const catching = new pg.Client({ connectionString: api.databaseUrl });
    const writer = new pg.Client({ connectionString: api.databaseUrl });
    const reader = new pg.Client({ connectionString: api.databaseUrl });
    await Promise.all([catching.connect(), writer.connect(), reader.connect()]);
    try {
      await catching.query('begin');
      expect((await catching.query('select delivery_facts_catch_up($1) as taken', [t.tenantId])).rows[0].taken).to.equal(1);
      // The catch-up holds its lock, uncommitted; a writer of the same project goes straight through.
      await neverWaits(writer, insertDeployment(writer, t, projectId, 'rollback', '2025-05-02T00:00:00Z', (await writer.query(`select left(md5('target'), 7) as s`)).rows[0].s));
      let read: number | null = null;
      const reading = reader.query('select delivery_facts_catch_up($1) as taken', [t.tenantId]).then((r) => { read = r.rows[0].taken; });
      // Positive signal: the reader is seen waiting on the catch-up's lock.
      for (const end = Date.now() + 10_000; ; await new Promise((resolve) => setTimeout(resolve, 20))) {
        const { rows } = await pool.query(`select wait_event_type from pg_stat_activity where pid = $1`, [pidOf(reader)]);
        if (rows[0]?.wait_event_type === 'Lock') break;
        if (read !== null || Date.now() > end) throw new Error('the reader did not wait for the catch-up in progress');
      }
      await catching.query('commit');
      await reading;
      // The reader took the rollback's note (the target's was taken by the first catch-up).
      expect(read).to.equal(1);
    } finally {
      await Promise.all([catching.end(), writer.end(), reader.end()]);
    }
    expect(await facts(t, 'rolled_back')).to.deep.equal([{ external_id: 'rollback', rolled_back: false }, { external_id: 'target', rolled_back: true }]);
    await expectCurrent(t.tenantId);
  });

  it('a cube query catches up before it reads: a rollback written in SQL a moment ago fails its target in the answer', async () => {
    const t = await buildTenant(api.databaseUrl);
    const projectId = await newProject(t, 'q/one');
    await insertDeployment(pool, t, projectId, 'target', '2025-06-01T00:00:00Z');
    await insertDeployment(pool, t, projectId, 'rollback', '2025-06-02T00:00:00Z', (await pool.query(`select left(md5('target'), 7) as s`)).rows[0].s);
    const [row] = await load(t, {
      measures: ['deployments.production_deploys', 'deployments.failed_production_deploys'],
      timeDimensions: [{ dimension: 'deployments.created_at', dateRange: ['2025-06-01', '2025-06-30'] }],
    });
    expect(row).to.deep.equal({ 'deployments.production_deploys': 2, 'deployments.failed_production_deploys': 1 });
    expect(await pending(t)).to.equal(0);
  });

  it('a writer moving a PR whose lead time a catch-up in progress is recomputing does not wait for it (migration 0057)', async () => {
    const t = await buildTenant(api.databaseUrl);
    const [one, two] = [await newProject(t, 'k/one'), await newProject(t, 'k/two')];
    const pr = (await pool.query(`insert into pull_requests (tenant_id, project_id, external_id, number, title, state, created_at, merged_at)
      values ($1, $2, 'kp', 7, 'p', 'merged', '2025-05-01T00:00:00Z', '2025-05-02T00:00:00Z') returning id`, [t.tenantId, one])).rows[0].id as string;
    await insertDeployment(pool, t, one, 'kd', '2025-05-03T00:00:00Z');
    await pool.query('select delivery_facts_catch_up($1)', [t.tenantId]);
    await pool.query(`update pull_requests set merged_at = '2025-05-02T06:00:00Z' where id = $1`, [pr]);
    const catching = new pg.Client({ connectionString: api.databaseUrl });
    const writer = new pg.Client({ connectionString: api.databaseUrl });
    await Promise.all([catching.connect(), writer.connect()]);
    try {
      await catching.query('begin');
      expect((await catching.query('select delivery_facts_catch_up($1) as taken', [t.tenantId])).rows[0].taken).to.equal(1);
      // The catch-up has rewritten the PR's lead-time row and is still open. 0055 locked the PR
      // FOR KEY SHARE, which holds up a change of its project (a column of a unique index).
      await neverWaits(writer, writer.query('update pull_requests set project_id = $2 where id = $1', [pr, two]));
      await catching.query('commit');
    } finally {
      await Promise.all([catching.end(), writer.end()]);
    }
    await expectCurrent(t.tenantId);
    expect((await pool.query('select project_id, deployment_id from change_lead_times where pull_request_id = $1', [pr])).rows).to.deep.equal([{ project_id: two, deployment_id: null }]);
  });

  it('a catch-up that meets a deployment deleted after its snapshot runs again, and the facts hold without it', async () => {
    const t = await buildTenant(api.databaseUrl);
    const projectId = await newProject(t, 'r/one');
    await insertDeployment(pool, t, projectId, 'gone', '2025-05-01T00:00:00Z');
    await pool.query('select delivery_facts_catch_up($1)', [t.tenantId]);
    await pool.query(`update deployments set status = 'failure' where tenant_id = $1 and external_id = 'gone'`, [t.tenantId]);
    const deleter = new pg.Client({ connectionString: api.databaseUrl });
    await deleter.connect();
    try {
      await deleter.query('begin');
      await deleter.query(`delete from deployments where tenant_id = $1 and external_id = 'gone'`, [t.tenantId]);
      const { catchUpDeliveryFacts } = await import('../../src/cube/deliveryFacts.js');
      const catching = catchUpDeliveryFacts(pool, t.tenantId);
      // Positive signal: the catch-up waits on the deleter's uncommitted delete of the fact row.
      for (const end = Date.now() + 10_000; ; await new Promise((resolve) => setTimeout(resolve, 20))) {
        const { rows } = await pool.query(`select 1 from pg_stat_activity where query like 'select delivery_facts_catch_up%' and wait_event_type = 'Lock'`);
        if (rows.length > 0) break;
        if (Date.now() > end) throw new Error('the catch-up did not meet the delete');
      }
      await deleter.query('commit');
      // Its first attempt fails the fact row's foreign key and rolls back; the second takes the
      // notes again (the update's two images) and succeeds. The delete committed after the
      // catch-up began: its note is left for the next one (migration 0058).
      expect(await catching).to.equal(2);
    } finally {
      await deleter.end();
    }
    expect(await pending(t)).to.equal(1);
    await expectCurrent(t.tenantId);
    expect(await pending(t)).to.equal(0);
    expect(await facts(t, 'rolled_back')).to.deep.equal([]);
  });

  it('a reader waits for another catch-up of its tenant at most the time it gives, then fails with lock_not_available', async () => {
    const t = await buildTenant(api.databaseUrl);
    const projectId = await newProject(t, 'l/one');
    await insertDeployment(pool, t, projectId, 'first', '2025-05-01T00:00:00Z');
    const catching = new pg.Client({ connectionString: api.databaseUrl });
    await catching.connect();
    try {
      await catching.query('begin');
      await catching.query('select delivery_facts_catch_up($1)', [t.tenantId]);
      await insertDeployment(pool, t, projectId, 'second', '2025-05-02T00:00:00Z');
      const started = Date.now();
      const error = await pool.query('select delivery_facts_catch_up($1, 300)', [t.tenantId]).then(() => null, (e: { code?: string }) => e);
      expect(error?.code).to.equal('55P03');
      expect(Date.now() - started).to.be.within(250, 5_000);
      // The wait applied to that statement only: the same session waits again without a limit.
      expect((await pool.query(`select current_setting('lock_timeout') as v`)).rows[0].v).to.equal('0');
      await catching.query('commit');
    } finally {
      await catching.end();
    }
    expect((await pool.query('select delivery_facts_catch_up($1, 300) as taken', [t.tenantId])).rows[0].taken).to.equal(1);
    await expectCurrent(t.tenantId);
  });

  it('the schedule catches up every tenant with notes; a tenant\'s own catch-up cannot take another tenant\'s notes', async () => {
    const { a, b } = await twoTenants(api.databaseUrl);
    for (const t of [a, b]) {
      const projectId = await newProject(t, 's/one');
      await insertDeployment(pool, t, projectId, 'target', '2025-07-01T00:00:00Z');
    }
    // As tenant B (the role and setting every request of B runs with), A's notes are out of reach.
    const asB = new pg.Client({ connectionString: api.databaseUrl });
    await asB.connect();
    try {
      await asB.query(`select set_config('role', 'app_tenant', false), set_config('app.tenant_id', $1, false)`, [b.tenantId]);
      expect((await asB.query('select delivery_facts_catch_up($1) as taken', [a.tenantId])).rows[0].taken).to.equal(0);
    } finally {
      await asB.end();
    }
    expect(await pending(a)).to.equal(1);
    const { catchUpAllDeliveryFacts } = await import('../../src/cube/deliveryFacts.js');
    const result = await catchUpAllDeliveryFacts(pool);
    expect(result.notes).to.be.at.least(2);
    expect([await pending(a), await pending(b)]).to.deep.equal([0, 0]);
    for (const t of [a, b]) expect(await facts(t, 'rolled_back')).to.deep.equal([{ external_id: 'target', rolled_back: false }]);
  });

  it('is rebuilt after a TRUNCATE, and goes with a deleted tenant', async () => {
    const t = await buildTenant(api.databaseUrl);
    const projectId = (await pool.query(`insert into projects (tenant_id, provider, project_key, source_type) values ($1, 'manual', 't/one', 'manual') returning id`, [t.tenantId])).rows[0].id;
    await pool.query(`insert into deployments (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task, created_at)
      values ($1, $2, 'manual', 'd', 'main', md5('d'), 'production', 'success', 'deploy', '2025-01-02T00:00:00Z')`, [t.tenantId, projectId]);
    const pr = (await pool.query(`insert into pull_requests (tenant_id, project_id, external_id, number, title, state, created_at, merged_at)
      values ($1, $2, 'p', 1, 'p', 'merged', '2024-12-20T00:00:00Z', '2025-01-01T00:00:00Z') returning id`, [t.tenantId, projectId])).rows[0].id;
    const commit = (await pool.query(`insert into commits (tenant_id, project_id, sha, committed_at, message) values ($1, $2, md5('c'), '2024-12-25T00:00:00Z', 'm') returning id`, [t.tenantId, projectId])).rows[0].id;
    await pool.query(`insert into pull_request_commits (pull_request_id, commit_id, tenant_id) values ($1, $2, $3)`, [pr, commit, t.tenantId]);
    const leadTime = async (c: Pick<pg.Pool, 'query'>) => (await c.query(`select lead_time_seconds from cube_change_lead_times where id = $1`, [pr])).rows[0].lead_time_seconds;
    await pool.query('select delivery_facts_catch_up($1)', [t.tenantId]);
    expect(await leadTime(pool)).to.equal(8 * DAY);
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('truncate pull_request_commits');
      expect(await leadTime(client)).to.equal(13 * DAY); // from the PR's createdAt
      await client.query('rollback');
    } finally {
      client.release();
    }
    expect(await leadTime(pool)).to.equal(8 * DAY);
    await pool.query('delete from tenants where id = $1', [t.tenantId]);
    // Its facts go by cascade, and its cascading deletes note nothing.
    const left = (await pool.query(`select (select count(*) from deployment_facts where tenant_id = $1)::int + (select count(*) from change_lead_times where tenant_id = $1)::int
      + (select count(*) from delivery_facts_pending where tenant_id = $1)::int as n`, [t.tenantId])).rows[0].n;
    expect(left).to.equal(0);
  });
});
