/**
 * Adversarial review of the exact monthly rollups (docs/rollups.md): every case here compares the
 * answer with rollups to the answer from the facts alone (`rollups: false`).
 */
import { expect } from 'chai';
import type pg from 'pg';
import { testServer, type TestServer } from '../helpers/server.js';
import { buildTenant, dbFor } from '../helpers/factories.js';
import { loadCube } from '../../src/cube/compiler.js';
import { validateQuery } from '../../src/cube/query.js';
import { runQuery } from '../../src/cube/run.js';
import { ROLLUPS } from '../../src/cube/rollups.js';
import { refreshRollups } from '../../src/cube/rollupRefresh.js';
import { insertMergedPr, rollupShapes } from './rollupHelpers.js';
import { buildFixture } from './fixture.js';

const NOW = new Date('2025-06-15T12:00:00Z');

describe('cube rollups: review (rollups answer exactly as the facts do)', function () {
  this.timeout(120_000);
  let api: TestServer;
  let pool: pg.Pool;
  const one = async (sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows[0] as Record<string, string>;

  /** A tenant with the fixture and every month rolled up. */
  async function rolledUpTenant(): Promise<string> {
    const t = (await buildTenant(api.databaseUrl)).tenantId;
    await buildFixture(pool, t);
    await refreshRollups(pool, t, NOW);
    return t;
  }

  /** The query with and without rollups. */
  async function both(t: string, input: Record<string, unknown>, db: pg.Pool = pool) {
    const cube = await loadCube();
    const q = validateQuery(cube, input);
    const facts = await runQuery(pool, cube, t, q, { rollups: false });
    const rolled = await runQuery(db, cube, t, q);
    return { facts, rolled };
  }

  const allShapes = (t: string, range: [string, string], rollups: boolean) => rollupShapes(pool, t, range, rollups);

  // Every measure of the pull_requests rollup, so that only the point under test can differ.
  const prQuery = (extra: Record<string, unknown> = {}) => ({
    measures: [...(ROLLUPS.find((r) => r.cube === 'pull_requests')?.measures ?? [])],
    dimensions: ['pull_requests.team_id'],
    timeDimensions: [{ dimension: 'pull_requests.merged_at', granularity: 'month', dateRange: ['2025-02-01', '2025-06-30'] }],
    order: [['pull_requests.merged_at', 'asc'], ['pull_requests.team_id', 'asc']],
    ...extra,
  });

  before(async () => {
    // No job worker: the minute schedule must not refresh rollups behind the test's back.
    api = await testServer({ env: { JOBS_WORKER_ENABLED: 'false' } });
    pool = dbFor(api.databaseUrl).pool;
  });
  after(() => api.close());

  describe('combining stored and computed rows', () => {
    it('returns only the measures asked for (a stored month holds every measure of its rollup)', async () => {
      const t = await rolledUpTenant();
      const { facts, rolled } = await both(t, prQuery({ measures: ['pull_requests.prs_merged'] }));
      expect(facts).to.have.length.above(0);
      expect(rolled).to.deep.equal(facts);
      expect(rolled.map((r) => Object.keys(r))).to.deep.equal(facts.map((r) => Object.keys(r)));
    });

    it('orders a NULL team as PostgreSQL does (last ascending, first descending)', async () => {
      const t = await rolledUpTenant();
      for (const dir of ['asc', 'desc']) {
        const { facts, rolled } = await both(t, prQuery({ order: [['pull_requests.team_id', dir], ['pull_requests.merged_at', 'asc']] }));
        expect(facts.some((r) => r['pull_requests.team_id'] === null), 'the fixture has an unowned project').to.equal(true);
        expect(rolled, dir).to.deep.equal(facts);
      }
    });

    it("applies the query's limit and offset the same way with or without rollups", async () => {
      const t = await rolledUpTenant();
      for (const page of [{ limit: 2 }, { limit: 2, offset: 1 }, { limit: 50, offset: 3 }]) {
        const { facts, rolled } = await both(t, prQuery(page));
        expect(facts.length, `facts ${JSON.stringify(page)}`).to.be.at.most(page.limit);
        expect(rolled, JSON.stringify(page)).to.deep.equal(facts);
      }
    });

    it('breaks ties on the order by the other dimensions, ascending, with or without rollups', async () => {
      const t = await rolledUpTenant();
      // Eight more teams with one pull request merged in April each: eight rows tie on the month.
      await pool.query(
        `with t as (insert into teams (tenant_id, slug, name) select $1, 'tie-' || i, 'Tie ' || i from generate_series(1, 8) i returning id, slug),
              p as (insert into projects (tenant_id, provider, project_key, source_type, owning_team_id) select $1, 'manual', 'acme/' || slug, 'manual', id from t returning id)
         insert into pull_requests (tenant_id, project_id, external_id, number, title, state, created_at, merged_at)
         select $1, p.id, 'tie', 1, 'x', 'merged', '2025-04-01Z', '2025-04-02Z' from p`,
        [t],
      );
      await refreshRollups(pool, t, NOW);
      for (const extra of [{ order: undefined }, { order: [['pull_requests.prs_merged', 'desc']] }, { order: [['pull_requests.prs_merged', 'desc']], limit: 4, offset: 2 }]) {
        const { facts, rolled } = await both(t, prQuery(extra));
        const april = facts.filter((r) => r['pull_requests.merged_at.month'] === '2025-04-01T00:00:00.000').map((r) => r['pull_requests.team_id'] as string);
        expect(april, JSON.stringify(extra)).to.deep.equal([...april].sort());
        expect(rolled, JSON.stringify(extra)).to.deep.equal(facts);
      }
    });

    it('without an order, sorts by the month with or without rollups (Cube\'s default order)', async () => {
      const t = await rolledUpTenant();
      const { facts, rolled } = await both(t, prQuery({ order: undefined, measures: ['pull_requests.prs_merged'], dimensions: ['pull_requests.team_id'] }));
      const months = (rows: typeof facts) => rows.map((r) => r['pull_requests.merged_at.month']);
      expect(months(facts)).to.deep.equal([...months(facts)].sort());
      expect(months(rolled)).to.deep.equal(months(facts));
    });
  });

  describe('month boundaries', () => {
    // Cube ends a date range at 23:59:59.999 of its last day; timestamps have microseconds.
    const lastMicros = async (t: string) => {
      await pool.query(
        `insert into pull_requests (tenant_id, project_id, external_id, number, title, author_username, state, additions, deletions, created_at, merged_at)
         select tenant_id, id, 'edge', 900, 'x', 'edgar', 'merged', 7, 0, '2025-03-30Z', '2025-03-31T23:59:59.9995Z' from projects where tenant_id = $1 and project_key = 'acme/api'`,
        [t],
      );
    };

    it('counts a fact in the last microseconds of a month exactly as the facts do, whatever the range', async () => {
      const t = (await buildTenant(api.databaseUrl)).tenantId;
      await buildFixture(pool, t);
      await lastMicros(t);
      await refreshRollups(pool, t, NOW);
      for (const range of [['2025-03-01', '2025-03-31'], ['2025-02-01', '2025-06-30'], ['2025-02-01', '2025-03-31'], ['2025-03-01', '2025-04-30']] as [string, string][]) {
        expect(await allShapes(t, range, true), range.join('..')).to.deep.equal(await allShapes(t, range, false));
      }
    });

    it('stays exact when the month with such a fact is rebuilt alone, or read from the facts between stored months', async () => {
      const t = (await buildTenant(api.databaseUrl)).tenantId;
      await buildFixture(pool, t);
      await lastMicros(t);
      await refreshRollups(pool, t, NOW);
      // A write to March: March is read from the facts between stored February and April.
      await pool.query(`update pull_requests set additions = additions + 1 where tenant_id = $1 and external_id = 'pr-1'`, [t]);
      expect(await allShapes(t, ['2025-02-01', '2025-06-30'], true)).to.deep.equal(await allShapes(t, ['2025-02-01', '2025-06-30'], false));
      // The refresh rebuilds March alone.
      await refreshRollups(pool, t, NOW);
      for (const range of [['2025-02-01', '2025-06-30'], ['2025-03-01', '2025-03-31']] as [string, string][]) {
        expect(await allShapes(t, range, true), range.join('..')).to.deep.equal(await allShapes(t, range, false));
      }
    });
  });

  describe('stored values', () => {
    it('keeps a month exact whose median is infinite (a pull request opened at -infinity)', async () => {
      const t = await rolledUpTenant();
      // With the unowned project's other March merge, the median lies halfway to +infinity.
      await insertMergedPr(pool, t, { externalId: 'inf', number: 904, created: '-infinity', merged: '2025-03-20Z', projectKey: 'acme/unowned' });
      const facts = await allShapes(t, ['2025-02-01', '2025-06-30'], false);
      expect((facts.pull_requests as Record<string, unknown>[]).some((r) => r['pull_requests.pr_cycle_time_p50_seconds'] === Infinity)).to.equal(true);
      expect(await allShapes(t, ['2025-02-01', '2025-06-30'], true)).to.deep.equal(facts);
      await refreshRollups(pool, t, NOW);
      expect(await allShapes(t, ['2025-02-01', '2025-06-30'], true)).to.deep.equal(facts);
      expect((await pool.query(`select 1 from cube_rollups where tenant_id = $1 and cube = 'pull_requests' and month = '2025-03-01'`, [t])).rowCount, 'March is not stored').to.equal(0);
    });
  });

  describe('snapshots', () => {
    /** A pool whose first read of cube_rollups is followed, before it returns, by `write` on another connection. */
    function writeAfterRollupRead(real: pg.Pool, write: () => Promise<unknown>): pg.Pool {
      let fired = false;
      const wrap = (target: { query: (...a: unknown[]) => Promise<unknown> }) => async (...args: unknown[]) => {
        const result = await target.query(...args);
        const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
        if (!fired && /from cube_rollups/.test(text ?? '')) {
          fired = true;
          await write();
        }
        return result;
      };
      const bindAll = <T extends object>(target: T, overrides: Record<string | symbol, unknown>): T =>
        new Proxy(target, {
          get(obj, prop) {
            if (Object.hasOwn(overrides, prop)) return overrides[prop as string];
            const value = Reflect.get(obj, prop, obj) as unknown;
            return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(obj) : value;
          },
        });
      return bindAll(real, {
        query: wrap(real as never),
        connect: async () => {
          const client = await real.connect();
          return bindAll(client, { query: wrap(client as never) });
        },
      });
    }

    it('answers from one snapshot when a write commits between reading the stored months and the facts', async () => {
      const t = await rolledUpTenant();
      // April is read from the facts (written since the refresh), March from the rollup.
      await insertMergedPr(pool, t, { externalId: 'apr', number: 901, created: '2025-04-01Z', merged: '2025-04-02Z' });
      const cube = await loadCube();
      const q = validateQuery(cube, prQuery());
      const before = await runQuery(pool, cube, t, q, { rollups: false });
      // While the query runs, a pull request merged in March is moved to April.
      const moving = writeAfterRollupRead(pool, () =>
        pool.query(`update pull_requests set merged_at = '2025-04-03Z' where tenant_id = $1 and external_id = 'pr-1'`, [t]));
      const answer = await runQuery(moving, cube, t, q);
      const after = await runQuery(pool, cube, t, q, { rollups: false });
      expect(after).to.not.deep.equal(before);
      expect([before, after], 'the answer is the facts before or after the write').to.deep.include(answer);
    });

    it('ignores a month computed while a write in a released savepoint was still open', async () => {
      const t = await rolledUpTenant();
      const facts = await allShapes(t, ['2025-02-01', '2025-06-30'], false);
      const writer = await pool.connect();
      try {
        await writer.query('begin');
        await writer.query('savepoint a');
        await insertMergedPr(writer, t, { externalId: 'sp', number: 902, created: '2025-04-05Z', merged: '2025-04-06Z' });
        await writer.query('release savepoint a');
        await pool.query(`delete from cube_rollups where tenant_id = $1 and month = '2025-04-01'`, [t]);
        await refreshRollups(pool, t, NOW);
        expect(await allShapes(t, ['2025-02-01', '2025-06-30'], true)).to.deep.equal(facts);
        await writer.query('commit');
      } finally {
        writer.release();
      }
      const now = await allShapes(t, ['2025-02-01', '2025-06-30'], false);
      expect(now).to.not.deep.equal(facts);
      expect(await allShapes(t, ['2025-02-01', '2025-06-30'], true)).to.deep.equal(now);
    });
  });

  describe('snapshots from another cluster', () => {
    it('does not trust a month whose snapshot lies ahead of this cluster (restored from a dump of a busier one)', async () => {
      const t = await rolledUpTenant();
      // pg_dump keeps the stored snapshots; a restored cluster starts its transaction ids lower.
      const ahead = (await one(`select (pg_snapshot_xmax(pg_current_snapshot())::text::bigint + 1000000)::text as x`)).x;
      await pool.query(`update cube_rollups set snapshot = ($2 || ':' || $2 || ':')::pg_snapshot where tenant_id = $1`, [t, ahead]);
      await insertMergedPr(pool, t, { externalId: 'restored', number: 903, created: '2025-03-05Z', merged: '2025-03-06Z' });
      expect(await allShapes(t, ['2025-02-01', '2025-06-30'], true)).to.deep.equal(await allShapes(t, ['2025-02-01', '2025-06-30'], false));
      await refreshRollups(pool, t, NOW);
      expect((await one(`select count(*)::int as n from cube_rollups where tenant_id = $1 and pg_snapshot_xmax(snapshot) > pg_snapshot_xmax(pg_current_snapshot())`, [t])).n).to.equal(0);
      expect(await allShapes(t, ['2025-02-01', '2025-06-30'], true)).to.deep.equal(await allShapes(t, ['2025-02-01', '2025-06-30'], false));
    });
  });

  describe('writes the triggers must see', () => {
    const writes: [string, (t: string) => Promise<unknown>][] = [
      ['a pull request upserted (insert … on conflict do update) into another month', (t) => pool.query(
        `insert into pull_requests (tenant_id, project_id, external_id, number, title, state, created_at, merged_at)
         select tenant_id, project_id, 'x', number, 'x', 'merged', created_at, '2025-05-20Z' from pull_requests where tenant_id = $1 and external_id = 'pr-1'
         on conflict (project_id, number) do update set merged_at = excluded.merged_at`, [t])],
      ['a MERGE moving a pull request to another month', (t) => pool.query(
        `merge into pull_requests pr using (select id from pull_requests where tenant_id = $1 and external_id = 'pr-1') s on pr.id = s.id
         when matched then update set merged_at = '2025-05-21Z'`, [t])],
      ["a commit's AI co-author trailer added by UPDATE", (t) => pool.query(
        `insert into pull_request_commits (pull_request_id, commit_id, tenant_id)
         select pr.id, c.id, $1 from pull_requests pr, commits c where pr.tenant_id = $1 and pr.external_id = 'pr-2' and c.tenant_id = $1 and c.sha = 'c3c3c3c3'`, [t])
        .then(() => refreshRollups(pool, t, NOW))
        .then(() => pool.query(`update commits set ai_coauthors = array['Claude'] where tenant_id = $1 and sha = 'c3c3c3c3'`, [t]))],
      ['a pull request moved to another tenant', async (t) => {
        const other = (await buildTenant(api.databaseUrl)).tenantId;
        await pool.query(`update pull_requests set tenant_id = $2 where tenant_id = $1 and external_id = 'pr-2'`, [t, other]);
      }],
      ['a person deleted (identities and memberships cascade)', (t) => pool.query(`delete from people where tenant_id = $1 and external_ref = 'p1'`, [t])],
      ['a commit deleted (its session link cascades)', (t) => pool.query(`delete from commits where tenant_id = $1 and sha = 'c1c1c1c1'`, [t])],
      ['an AI session moved to another user', async (t) => {
        const u = await one(`select s.user_id from ai_sessions s join users u on u.id = s.user_id where s.tenant_id = $1 and u.email like 'eve-%' limit 1`, [t]);
        await pool.query(`update ai_sessions set user_id = $2 where tenant_id = $1 and user_id <> $2`, [t, u.user_id]);
      }],
      ['a label added to a merged pull request', (t) => pool.query(`update pull_requests set labels = array['ai-assisted'] where tenant_id = $1 and external_id = 'pr-2'`, [t])],
    ];
    for (const [name, write] of writes) {
      it(`stays exact after ${name}`, async () => {
        const t = await rolledUpTenant();
        const before = await allShapes(t, ['2025-02-01', '2025-06-30'], false);
        await write(t);
        const facts = await allShapes(t, ['2025-02-01', '2025-06-30'], false);
        expect(facts, 'the write changes a rolled-up value').to.not.deep.equal(before);
        expect(await allShapes(t, ['2025-02-01', '2025-06-30'], true)).to.deep.equal(facts);
      });
    }
  });

  describe('upgrades and maintenance', () => {
    it('ignores months stored before a migration this server does not know (a newer instance changed a view)', async () => {
      const t = await rolledUpTenant();
      const original = (await one(`select pg_get_viewdef('cube_pull_requests'::regclass) as def`)).def as string;
      const changed = original.replace(/\(pr\.additions \+ pr\.deletions\) AS change_volume/, '(pr.additions + pr.deletions + 1) AS change_volume');
      expect(changed).to.not.equal(original);
      const stamp = Number((await one(`select max(created_at)::text as m from drizzle.__drizzle_migrations`)).m) + 1;
      await pool.query(`create or replace view cube_pull_requests as ${changed}`);
      await pool.query(`insert into drizzle.__drizzle_migrations (hash, created_at) values ('review-test', $1)`, [stamp]);
      try {
        const facts = await allShapes(t, ['2025-02-01', '2025-06-30'], false);
        expect(await allShapes(t, ['2025-02-01', '2025-06-30'], true)).to.deep.equal(facts);
      } finally {
        await pool.query(`create or replace view cube_pull_requests as ${original}`);
        await pool.query(`delete from drizzle.__drizzle_migrations where hash = 'review-test'`);
      }
      expect(await allShapes(t, ['2025-02-01', '2025-06-30'], true)).to.deep.equal(await allShapes(t, ['2025-02-01', '2025-06-30'], false));
    });

    // Last: a TRUNCATE empties the table for every tenant of this file's database.
    it('stays exact after a TRUNCATE of a table the views read', async () => {
      const t = await rolledUpTenant();
      const before = await allShapes(t, ['2025-02-01', '2025-06-30'], false);
      await pool.query('truncate team_memberships');
      const facts = await allShapes(t, ['2025-02-01', '2025-06-30'], false);
      expect(facts, 'the truncate changes a rolled-up value').to.not.deep.equal(before);
      expect(await allShapes(t, ['2025-02-01', '2025-06-30'], true)).to.deep.equal(facts);
    });
  });
});
