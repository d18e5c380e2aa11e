import { transactionOn } from "../db/transaction.js";
import { loadCube } from "./compiler.js";
import { monthIndex, monthOf, monthRange } from "./months.js";
import { currentMonths, monthRuns, ROLLUP_MONTHS, ROLLUPS, rollupModel, rollupQuery, rowMonth, storedModel } from "./rollups.js";
import { execute, plan } from "./plan.js";
async function wantedMonths(client, tenantId, now) {
  const { rows } = await client.query(
    `select to_char(least(
       (select min(merged_at) from pull_requests where tenant_id = $1),
       (select min(committed_at) from commits where tenant_id = $1),
       (select min(started_at) from ai_sessions where tenant_id = $1)) at time zone 'UTC', 'YYYY-MM') as first`,
    [tenantId]
  );
  const current = now.toISOString().slice(0, 7);
  const first = rows[0]?.first;
  if (!first) return [];
  const earliest = monthOf(Math.max(monthIndex(first), monthIndex(current) - (ROLLUP_MONTHS - 1)));
  return earliest > current ? [] : monthRange(earliest, current);
}
async function build(client, tenantId, months) {
  const cube = await loadCube();
  const built = {};
  await transactionOn(client, async () => {
    const { rows } = await client.query("select pg_current_snapshot()::text as snapshot");
    const snapshot = rows[0].snapshot;
    for (const rollup of ROLLUPS) {
      const current = await currentMonths(client, tenantId, rollup.cube, months);
      const stale = months.filter((m) => !current.has(m));
      for (const run of monthRuns(stale)) {
        const byMonth = new Map(run.map((m) => [m, []]));
        const result = await execute(client, plan(cube, tenantId, rollupQuery(rollup, run), rollup.cube, []));
        for (const row of result) byMonth.get(rowMonth(rollup, row))?.push(row);
        const unstorable = [...byMonth].filter(([, rows2]) => rows2.some((row) => Object.values(row).some((v) => typeof v === "number" && !Number.isFinite(v)))).map(([m]) => m);
        if (unstorable.length > 0) {
          for (const m of unstorable) byMonth.delete(m);
          await client.query(`delete from cube_rollups where tenant_id = $1 and cube = $2 and month = any($3::date[])`, [tenantId, rollup.cube, unstorable.map((m) => `${m}-01`)]);
        }
        await client.query(
          `insert into cube_rollups (tenant_id, cube, month, model, snapshot, rows)
           select $1, $2, (m.month || '-01')::date, ${storedModel("$3")}, $4::pg_snapshot, m.rows
           from jsonb_to_recordset($5::jsonb) as m(month text, rows jsonb)
           on conflict (tenant_id, cube, month) do update
             set model = excluded.model, snapshot = excluded.snapshot, rows = excluded.rows, built_at = now()`,
          [tenantId, rollup.cube, rollupModel(), snapshot, JSON.stringify([...byMonth].map(([month, rows2]) => ({ month, rows: rows2 })))]
        );
        if (byMonth.size > 0) built[rollup.cube] = (built[rollup.cube] ?? 0) + byMonth.size;
      }
    }
  }, "begin isolation level repeatable read");
  return built;
}
async function compact(client, tenantId, months) {
  await client.query(`delete from cube_rollups where tenant_id = $1 and (model <> ${storedModel("$2")} or not (month = any($3::date[])))`, [
    tenantId,
    rollupModel(),
    months.map((m) => `${m}-01`)
  ]);
  const { rowCount } = await client.query(
    `delete from cube_rollup_changes c
     where c.tenant_id = $1 and pg_visible_in_snapshot(c.xid, pg_current_snapshot())
       and not exists (
         select 1 from cube_rollups p
         where p.tenant_id = c.tenant_id and (c.cube = '*' or (p.cube = c.cube and p.month = c.month))
           and not pg_visible_in_snapshot(c.xid, p.snapshot))`,
    [tenantId]
  );
  return rowCount ?? 0;
}
async function refreshRollups(pool, tenantId, now = /* @__PURE__ */ new Date()) {
  const client = await pool.connect();
  try {
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
async function tenantsToRefresh(pool, now, everyTenant) {
  if (everyTenant) return (await pool.query("select id from tenants order by id")).rows.map((r) => r.id);
  const { rows } = await pool.query(
    `select t.id from tenants t
     where exists (select 1 from cube_rollup_changes c where c.tenant_id = t.id)
        or exists (select 1 from cube_rollups p where p.tenant_id = t.id
                   and pg_snapshot_xmax(p.snapshot) > pg_snapshot_xmax(pg_current_snapshot()))
        or (not exists (select 1 from cube_rollups p where p.tenant_id = t.id and p.month = $1::date and p.model = ${storedModel("$2")})
            and (exists (select 1 from pull_requests f where f.tenant_id = t.id)
                 or exists (select 1 from commits f where f.tenant_id = t.id)
                 or exists (select 1 from ai_sessions f where f.tenant_id = t.id)))
     order by t.id`,
    [`${now.toISOString().slice(0, 7)}-01`, rollupModel()]
  );
  return rows.map((r) => r.id);
}
async function refreshAllRollups(pool, now = /* @__PURE__ */ new Date(), options = {}) {
  await pool.query("delete from cube_rollups p where not exists (select 1 from tenants t where t.id = p.tenant_id)");
  await pool.query("delete from cube_rollup_changes c where not exists (select 1 from tenants t where t.id = c.tenant_id)");
  const tenants = await tenantsToRefresh(pool, now, options.everyTenant ?? false);
  let built = 0;
  for (const id of tenants) {
    const result = await refreshRollups(pool, id, now);
    built += Object.values(result.built).reduce((a, b) => a + b, 0);
  }
  return { tenants: tenants.length, built };
}
export {
  refreshAllRollups,
  refreshRollups
};
