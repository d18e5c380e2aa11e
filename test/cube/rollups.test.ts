import { expect } from 'chai';
import type pg from 'pg';
import { testServer, type TestServer } from '../helpers/server.js';
import { buildTenant, dbFor } from '../helpers/factories.js';
import { loadCube } from '../../src/cube/compiler.js';
import { validateQuery } from '../../src/cube/query.js';
import { runQuery } from '../../src/cube/run.js';
import { ROLLUPS } from '../../src/cube/rollups.js';
import { refreshAllRollups, refreshRollups } from '../../src/cube/rollupRefresh.js';
import { baselineRows } from '../../src/exports/baseline.js';
import { buildFixture, type Fixture } from './fixture.js';
import { insertMergedPr, rollupShapes } from './rollupHelpers.js';

const NOW = new Date('2025-06-15T12:00:00Z');
const WINDOW = { from: '2025-01', to: '2025-06' };

/** Every rollup-shaped query over the window, with or without rollups. */
const rollupShaped = (pool: pg.Pool, tenantId: string, rollups: boolean) => rollupShapes(pool, tenantId, ['2025-01-01', '2025-06-30'], rollups);

describe('cube rollups (exact monthly pre-aggregations)', function () {
  this.timeout(120_000);
  let api: TestServer;
  let pool: pg.Pool;
  let tenantId: string;
  let other: string;
  let f: Fixture;
  const one = async (sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows[0] as Record<string, string>;
  const storedMonths = async (t: string) =>
    (await pool.query(`select cube, to_char(month, 'YYYY-MM') as month from cube_rollups where tenant_id = $1 order by 1, 2`, [t])).rows.map((r) => `${r.cube}:${r.month}`);
  const prsMerged = (rows: Awaited<ReturnType<typeof baselineRows>>, team: string, month: string) =>
    rows.find((r) => r.team_id === team && r.month === month)?.prs_merged;

  before(async () => {
    // No job worker: the minute schedule must not refresh rollups behind the test's back.
    api = await testServer({ env: { JOBS_WORKER_ENABLED: 'false' } });
    pool = dbFor(api.databaseUrl).pool;
    tenantId = (await buildTenant(api.databaseUrl)).tenantId;
    other = (await buildTenant(api.databaseUrl)).tenantId;
    f = await buildFixture(pool, tenantId);
    await buildFixture(pool, other);
  });
  after(() => api.close());

  it('stores every month from the first fact to now, per rolled-up cube, and answers exactly as the facts do', async () => {
    const raw = await baselineRows(pool, tenantId, WINDOW, undefined, { rollups: false });
    const result = await refreshRollups(pool, tenantId, NOW);
    expect(result.built).to.deep.equal({ author_activity: 5, pull_requests: 5, ai_sessions: 5, ai_commits: 5 }); // 2025-02 .. 2025-06
    expect(await storedMonths(tenantId)).to.deep.equal(
      ROLLUPS.map((r) => r.cube).sort().flatMap((c) => ['02', '03', '04', '05', '06'].map((m) => `${c}:2025-${m}`)),
    );
    expect(await baselineRows(pool, tenantId, WINDOW)).to.deep.equal(raw);
    expect(await rollupShaped(pool, tenantId, true)).to.deep.equal(await rollupShaped(pool, tenantId, false));
    // A second run finds everything current.
    expect((await refreshRollups(pool, tenantId, NOW)).built).to.deep.equal({});
  });

  it('reads stored months (proved by altering one), and only for queries of the rollup shape', async () => {
    await refreshRollups(pool, tenantId, NOW);
    await pool.query(
      `update cube_rollups set rows = (select jsonb_agg(case when r->>'pull_requests.team_id' = $2 then jsonb_set(r, '{pull_requests.prs_merged}', '999') else r end) from jsonb_array_elements(rows) r)
       where tenant_id = $1 and cube = 'pull_requests' and month = '2025-03-01'`,
      [tenantId, f.teams.alpha],
    );
    try {
      expect(prsMerged(await baselineRows(pool, tenantId, WINDOW), f.teams.alpha, '2025-03')).to.equal(999);
      expect(prsMerged(await baselineRows(pool, tenantId, WINDOW, undefined, { rollups: false }), f.teams.alpha, '2025-03')).to.equal(3);
      // Another shape (a filter) is planned against the facts.
      const cube = await loadCube();
      const filtered = validateQuery(cube, {
        measures: ['pull_requests.prs_merged'], dimensions: ['pull_requests.team_id'],
        timeDimensions: [{ dimension: 'pull_requests.merged_at', granularity: 'month', dateRange: ['2025-03-01', '2025-03-31'] }],
        filters: [{ member: 'pull_requests.team_id', operator: 'equals', values: [f.teams.alpha] }],
      });
      expect((await runQuery(pool, cube, tenantId, filtered))[0]?.['pull_requests.prs_merged']).to.equal(3);
      // Months stored with other models (an upgrade) are ignored.
      await pool.query(`update cube_rollups set model = 'an older model' where tenant_id = $1`, [tenantId]);
      expect(prsMerged(await baselineRows(pool, tenantId, WINDOW), f.teams.alpha, '2025-03')).to.equal(3);
    } finally {
      await refreshRollups(pool, tenantId, NOW);
    }
    expect(prsMerged(await baselineRows(pool, tenantId, WINDOW), f.teams.alpha, '2025-03')).to.equal(3);
  });

  it('reads a month from the facts as soon as a write touches it, and keeps the other months', async () => {
    await refreshRollups(pool, tenantId, NOW);
    // Alter February's stored alpha value: it must stay in use while March is written.
    await pool.query(
      `update cube_rollups set rows = '[{"pull_requests.team_id": "${f.teams.alpha}", "pull_requests.merged_at.month": "2025-02-01T00:00:00.000", "pull_requests.merged_at": "2025-02-01T00:00:00.000", "pull_requests.prs_merged": 7}]'
       where tenant_id = $1 and cube = 'pull_requests' and month = '2025-02-01'`,
      [tenantId],
    );
    await insertMergedPr(pool, tenantId, { externalId: 'late', number: 500, created: '2025-03-05Z', merged: '2025-03-06Z' });
    const rows = await baselineRows(pool, tenantId, WINDOW);
    expect(prsMerged(rows, f.teams.alpha, '2025-02')).to.equal(7);
    expect(prsMerged(rows, f.teams.alpha, '2025-03')).to.equal(4);
    const changes = await pool.query(`select cube, to_char(month, 'YYYY-MM') as month from cube_rollup_changes where tenant_id = $1 order by 1`, [tenantId]);
    expect(changes.rows).to.deep.equal([{ cube: 'author_activity', month: '2025-03' }, { cube: 'pull_requests', month: '2025-03' }]);
    const refreshed = await refreshRollups(pool, tenantId, NOW);
    expect(refreshed.built).to.deep.equal({ author_activity: 1, pull_requests: 1 });
    expect(refreshed.forgotten).to.equal(2);
    await pool.query(`delete from cube_rollups where tenant_id = $1 and cube = 'pull_requests' and month = '2025-02-01'`, [tenantId]);
    await refreshRollups(pool, tenantId, NOW);
    expect(await baselineRows(pool, tenantId, WINDOW)).to.deep.equal(await baselineRows(pool, tenantId, WINDOW, undefined, { rollups: false }));
  });

  // Each write below changes some rolled-up value; right after it (no refresh), every rollup-shaped
  // query must equal the facts.
  const writes: [string, (t: string) => Promise<unknown>][] = [
    ['a merged pull request', (t) => pool.query(
      `insert into pull_requests (tenant_id, project_id, external_id, number, title, author_username, state, created_at, merged_at)
       select tenant_id, id, 'w1', 501, 'x', 'newbie', 'merged', '2025-04-01Z', '2025-04-02Z' from projects where tenant_id = $1 and project_key = 'acme/api'`, [t])],
    ['a commit by a new author', (t) => pool.query(
      `insert into commits (tenant_id, project_id, sha, author_username, committed_at, message)
       select tenant_id, id, 'feedface1', 'frank', '2025-02-03Z', 'm' from projects where tenant_id = $1 and project_key = 'acme/web'`, [t])],
    ['an AI co-author trailer on a commit of a merged pull request', async (t) => {
      const pr = await one(`select id from pull_requests where tenant_id = $1 and external_id = 'pr-2'`, [t]);
      const c = await one(`insert into commits (tenant_id, project_id, sha, author_username, committed_at, message, ai_coauthors)
        select tenant_id, project_id, 'c0ffee01', 'carol', '2025-03-01Z', 'm', array['Claude'] from pull_requests where id = $1 returning id`, [pr.id]);
      await pool.query(`insert into pull_request_commits (pull_request_id, commit_id, tenant_id) values ($1, $2, $3)`, [pr.id, c.id, t]);
    }],
    ['an AI session', (t) => pool.query(
      `insert into ai_sessions (id, tenant_id, user_id, tool, started_at)
       select gen_random_uuid(), $1, s.user_id, 'claude-code', '2025-04-09Z' from ai_sessions s where s.tenant_id = $1 limit 1`, [t])],
    ['a session linked to a commit', async (t) => {
      const s = await one(`select s.id from ai_sessions s join users u on u.id = s.user_id where s.tenant_id = $1 and u.email like 'dora-%'`, [t]);
      const c = await one(`select id from commits where tenant_id = $1 and sha = 'c2c2c2c2'`, [t]);
      await pool.query(`insert into ai_session_links (tenant_id, session_id, commit_id, linked_by) values ($1, $2, $3, 'commit_sha')`, [t, s.id, c.id]);
    }],
    ['a session unlinked from a pull request', (t) => pool.query(`delete from ai_session_links where tenant_id = $1 and pull_request_id is not null`, [t])],
    ['a new identity (two authors become one person)', async (t) => {
      const p = await one(`select person_id from person_identities where tenant_id = $1 and value = 'alice'`, [t]);
      await pool.query(`insert into person_identities (tenant_id, person_id, kind, value) values ($1, $2, 'codehost_username', 'dave')`, [t, p.person_id]);
    }],
    ['a membership removed', (t) => pool.query(`delete from team_memberships where tenant_id = $1 and team_id = (select id from teams where tenant_id = $1 and slug = 'beta')`, [t])],
    ['a team disabled', (t) => pool.query(`update teams set enabled = false where tenant_id = $1 and slug = 'alpha'`, [t])],
    ['a project moved to another team', (t) => pool.query(
      `update projects set owning_team_id = (select id from teams where tenant_id = $1 and slug = 'beta') where tenant_id = $1 and project_key = 'acme/api'`, [t])],
    ["an uploader's e-mail changed", (t) => pool.query(
      `update users set email = 'someone-else-' || id || '@example.com' where id in (select user_id from ai_sessions where tenant_id = $1)`, [t])],
    ['a pull request deleted', (t) => pool.query(`delete from pull_requests where tenant_id = $1 and external_id = 'pr-3'`, [t])],
  ];

  for (const [name, write] of writes) {
    it(`stays exact after ${name}`, async () => {
      const t = (await buildTenant(api.databaseUrl)).tenantId;
      await buildFixture(pool, t);
      await refreshRollups(pool, t, NOW);
      const before = await rollupShaped(pool, t, false);
      await write(t);
      const facts = await rollupShaped(pool, t, false);
      expect(facts, 'the write changes a rolled-up value').to.not.deep.equal(before);
      expect(await rollupShaped(pool, t, true)).to.deep.equal(facts);
      await refreshRollups(pool, t, NOW);
      expect(await rollupShaped(pool, t, true)).to.deep.equal(facts);
    });
  }

  it('ignores a month computed before a write that was still uncommitted, once it commits', async () => {
    await refreshRollups(pool, tenantId, NOW);
    const writer = await pool.connect();
    try {
      await writer.query('begin');
      await insertMergedPr(writer, tenantId, { externalId: 'slow', number: 502, created: '2025-04-05Z', merged: '2025-04-06Z' });
      await pool.query(`delete from cube_rollups where tenant_id = $1 and month = '2025-04-01'`, [tenantId]);
      // April is computed while the insert is in flight: its snapshot does not contain it.
      expect((await refreshRollups(pool, tenantId, NOW)).built).to.deep.equal({ author_activity: 1, pull_requests: 1, ai_sessions: 1, ai_commits: 1 });
      await writer.query('commit');
    } finally {
      writer.release();
    }
    const rows = await baselineRows(pool, tenantId, WINDOW);
    expect(prsMerged(rows, f.teams.alpha, '2025-04')).to.equal(1);
    expect(rows).to.deep.equal(await baselineRows(pool, tenantId, WINDOW, undefined, { rollups: false }));
  });

  it('keeps tenants apart, and drops the rows of a deleted tenant', async () => {
    await refreshAllRollups(pool, NOW);
    expect(await baselineRows(pool, other, WINDOW)).to.deep.equal(await baselineRows(pool, other, WINDOW, undefined, { rollups: false }));
    const gone = (await buildTenant(api.databaseUrl)).tenantId;
    await buildFixture(pool, gone);
    await refreshRollups(pool, gone, NOW);
    expect((await storedMonths(gone)).length).to.equal(20);
    await pool.query('delete from tenants where id = $1', [gone]);
    await refreshAllRollups(pool, NOW);
    expect(await storedMonths(gone)).to.deep.equal([]);
    expect((await pool.query('select 1 from cube_rollup_changes where tenant_id = $1', [gone])).rowCount).to.equal(0);
  });

  it('visits only the tenants that may need work each minute, and every tenant once an hour', async () => {
    const minute = new Date('2025-06-15T12:07:30Z');
    await refreshAllRollups(pool, minute);
    expect(await refreshAllRollups(pool, minute)).to.deep.equal({ tenants: 0, built: 0 });
    await insertMergedPr(pool, other, { externalId: 'visit', number: 503, created: '2025-04-05Z', merged: '2025-04-06Z' });
    expect(await refreshAllRollups(pool, minute)).to.deep.equal({ tenants: 1, built: 2 });
    // A new month: every tenant with facts needs its row for it.
    const withFacts = Number((await one('select count(distinct tenant_id) as n from pull_requests')).n);
    expect((await refreshAllRollups(pool, new Date('2025-07-01T00:05:30Z'))).tenants).to.equal(withFacts);
    const all = Number((await one('select count(*) as n from tenants')).n);
    // The hour is a window of its own: whatever the minute its job runs at, it visits everyone.
    expect(await refreshAllRollups(pool, new Date('2025-07-01T01:00:30Z'))).to.deep.equal({ tenants: 0, built: 0 });
    expect(await refreshAllRollups(pool, new Date('2025-07-01T01:26:47Z'), { everyTenant: true })).to.deep.equal({ tenants: all, built: 0 });
  });
});
