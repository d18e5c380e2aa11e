/**
 * Builds the rollup months a tenant is missing (or whose facts changed), then forgets the change
 * records every stored month has seen. Run by the `cube.rollups-refresh` schedule; safe to run
 * twice or on two instances at once (a per-tenant advisory lock serialises them).
 */
import { transactionOn } from '../db/transaction.js';
import type pg from 'pg';
import { loadCube } from './compiler.js';
import { monthIndex, monthOf, monthRange } from '../shared/monthWindow.js';
import { currentMonths, monthRuns, ROLLUP_MONTHS, ROLLUPS, rollupModel, rollupQuery, rowMonth, storedModel } from './rollups.js';
import { execute, plan, type Row } from './plan.js';

export interface RefreshResult {
  /** Months (re)computed, per cube. */
  built: Record<string, number>;
  /** Change records forgotten. */
  forgotten: number;
}

/** The months to keep rolled up: from the tenant's first fact (at most ROLLUP_MONTHS back) to now. */
async function wantedMonths(client: pg.PoolClient, tenantId: string, now: Date): Promise<string[]> {
  const { rows } = await client.query<{ first: string | null }>(
    `select to_char(least(
       (select min(merged_at) from pull_requests where tenant_id = $1),
       (select min(committed_at) from commits where tenant_id = $1),
       (select min(started_at) from ai_sessions where tenant_id = $1)) at time zone 'UTC', 'YYYY-MM') as first`,
    [tenantId],
  );
  const current = now.toISOString().slice(0, 7);
  const first = rows[0]?.first;
  if (!first) return [];
  const earliest = monthOf(Math.max(monthIndex(first), monthIndex(current) - (ROLLUP_MONTHS - 1)));
  return earliest > current ? [] : monthRange(earliest, current);
}

/** Computes, in one snapshot, every month of `months` not currently stored, and stores them. */
async function build(client: pg.PoolClient, tenantId: string, months: string[]): Promise<Record<string, number>> {
  const cube = await loadCube();
  const built: Record<string, number> = {};
  await transactionOn(client, async () => {
    // The first statement fixes the transaction's snapshot: the facts below are read in it.
    const { rows } = await client.query<{ snapshot: string }>('select pg_current_snapshot()::text as snapshot');
    const snapshot = (rows[0] as { snapshot: string }).snapshot;
    for (const rollup of ROLLUPS) {
      const current = await currentMonths(client, tenantId, rollup.cube, months);
      const stale = months.filter((m) => !current.has(m));
      for (const run of monthRuns(stale)) {
        const byMonth = new Map<string, Row[]>(run.map((m) => [m, []]));
        const result = await execute(client, plan(cube, tenantId, rollupQuery(rollup, run), rollup.cube, []));
        for (const row of result) byMonth.get(rowMonth(rollup, row))?.push(row);
        // JSON has no Infinity or NaN (they would come back as null): such a month is not stored
        // (an older row of it goes), so it is read from the facts.
        const unstorable = [...byMonth].filter(([, rows]) => rows.some((row) => Object.values(row).some((v) => typeof v === 'number' && !Number.isFinite(v)))).map(([m]) => m);
        if (unstorable.length > 0) {
          for (const m of unstorable) byMonth.delete(m);
          await client.query(`delete from cube_rollups where tenant_id = $1 and cube = $2 and month = any($3::date[])`, [tenantId, rollup.cube, unstorable.map((m) => `${m}-01`)]);
        }
        await client.query(
          `insert into cube_rollups (tenant_id, cube, month, model, snapshot, rows)
           select $1, $2, (m.month || '-01')::date, ${storedModel('$3')}, $4::pg_snapshot, m.rows
           from jsonb_to_recordset($5::jsonb) as m(month text, rows jsonb)
           on conflict (tenant_id, cube, month) do update
             set model = excluded.model, snapshot = excluded.snapshot, rows = excluded.rows, built_at = now()`,
          [tenantId, rollup.cube, rollupModel(), snapshot, JSON.stringify([...byMonth].map(([month, rows]) => ({ month, rows })))],
        );
        if (byMonth.size > 0) built[rollup.cube] = (built[rollup.cube] ?? 0) + byMonth.size;
      }
    }
  }, 'begin isolation level repeatable read');
  return built;
}

/**
 * Drops months outside the kept range or built with other models, and the change records that
 * every stored month of the tenant has seen (a record is needed only while some stored month's
 * snapshot predates it; any month built later sees it, since it is committed).
 */
async function compact(client: pg.PoolClient, tenantId: string, months: string[]): Promise<number> {
  await client.query(`delete from cube_rollups where tenant_id = $1 and (model <> ${storedModel('$2')} or not (month = any($3::date[])))`, [
    tenantId, rollupModel(), months.map((m) => `${m}-01`),
  ]);
  const { rowCount } = await client.query(
    `delete from cube_rollup_changes c
     where c.tenant_id = $1 and pg_visible_in_snapshot(c.xid, pg_current_snapshot())
       and not exists (
         select 1 from cube_rollups p
         where p.tenant_id = c.tenant_id and (c.cube = '*' or (p.cube = c.cube and p.month = c.month))
           and not pg_visible_in_snapshot(c.xid, p.snapshot))`,
    [tenantId],
  );
  return rowCount ?? 0;
}

/** Brings one tenant's rollups up to date. */
export async function refreshRollups(pool: pg.Pool, tenantId: string, now = new Date()): Promise<RefreshResult> {
  const client = await pool.connect();
  try {
    // Session-level, taken before the build's snapshot: a compaction never runs between a build's
    // snapshot and its insert (which would forget a change the build did not see).
    await client.query(`select pg_advisory_lock(hashtext('cube_rollups'), hashtext($1))`, [tenantId]);
    try {
      const months = await wantedMonths(client, tenantId, now);
      const built = months.length > 0 ? await build(client, tenantId, months) : {};
      const forgotten = await compact(client, tenantId, months);
      return { built, forgotten };
    } finally {
      await client.query(`select pg_advisory_unlock(hashtext('cube_rollups'), hashtext($1))`, [tenantId]);
    }
  } finally {
    client.release();
  }
}

/**
 * The tenants whose rollups may need work: a change recorded since, no current row for this month
 * (a new month, an upgrade, a first build) while it has facts, or a month stored in a snapshot
 * ahead of this cluster (a restored dump). The hourly sweep (a schedule window of its own, so a
 * late tick still runs it) visits every tenant, whatever else may have happened to its months.
 */
async function tenantsToRefresh(pool: pg.Pool, now: Date, everyTenant: boolean): Promise<string[]> {
  if (everyTenant) return (await pool.query<{ id: string }>('select id from tenants order by id')).rows.map((r) => r.id);
  const { rows } = await pool.query<{ id: string }>(
    `select t.id from tenants t
     where exists (select 1 from cube_rollup_changes c where c.tenant_id = t.id)
        or exists (select 1 from cube_rollups p where p.tenant_id = t.id
                   and pg_snapshot_xmax(p.snapshot) > pg_snapshot_xmax(pg_current_snapshot()))
        or (not exists (select 1 from cube_rollups p where p.tenant_id = t.id and p.month = $1::date and p.model = ${storedModel('$2')})
            and (exists (select 1 from pull_requests f where f.tenant_id = t.id)
                 or exists (select 1 from commits f where f.tenant_id = t.id)
                 or exists (select 1 from ai_sessions f where f.tenant_id = t.id)))
     order by t.id`,
    [`${now.toISOString().slice(0, 7)}-01`, rollupModel()],
  );
  return rows.map((r) => r.id);
}

/** The rollups of every tenant that may need work (tenantsToRefresh); rows of deleted tenants go. */
export async function refreshAllRollups(pool: pg.Pool, now = new Date(), options: { everyTenant?: boolean } = {}): Promise<{ tenants: number; built: number }> {
  await pool.query('delete from cube_rollups p where not exists (select 1 from tenants t where t.id = p.tenant_id)');
  await pool.query('delete from cube_rollup_changes c where not exists (select 1 from tenants t where t.id = c.tenant_id)');
  const tenants = await tenantsToRefresh(pool, now, options.everyTenant ?? false);
  let built = 0;
  for (const id of tenants) {
    const result = await refreshRollups(pool, id, now);
    built += Object.values(result.built).reduce((a, b) => a + b, 0);
  }
  return { tenants: tenants.length, built };
}
