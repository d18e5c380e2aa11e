import pg from 'pg';
import { cubeSql } from '../src/cube/service.js';
import { readAs } from '../src/aiImpact/service.js';
const T = '96bc3798-c716-448f-bf67-7ade33b28835';
const pool = new pg.Pool({ connectionString: 'postgresql://postgres:bench@127.0.0.1:55481/postgres' });
const team = (await pool.query("select id from teams where tenant_id = $1 and slug = 'team-0001'", [T])).rows[0].id;
const ms = ['prs_merged','pr_cycle_time_p50_seconds','coding_time_p50_seconds','coding_time_count','pickup_time_p50_seconds','pickup_time_count','review_time_p50_seconds','review_time_count','deploy_time_p50_seconds','deploy_time_count','pr_size_p50','merged_without_review_share','merged_without_review_prs','reverted_prs'].map((m) => readAs('pull_requests.' + m)).concat(['change_lead_times.shipping_change_failure_rate','change_lead_times.shipping_deploys','change_lead_times.failed_shipping_deploys']);
const q = { measures: ms, dimensions: ['change_lead_times.ai_side'], timeDimensions: [{ dimension: 'change_lead_times.merged_at', dateRange: ['2025-01-01', '2025-12-31'] }], filters: process.argv[2] === 'team' ? [{ member: 'change_lead_times.team_id', operator: 'equals', values: [team] }] : [] };
const s = await cubeSql({ tenantId: T }, q);
for (const st of s.statements) {
  const c = await pool.connect();
  await c.query('set max_parallel_workers_per_gather = 0'); if (process.env.WM) await c.query(`set work_mem = '${process.env.WM}'`);
  for (let i = 0; i < 2; i++) {
    const r = await c.query('explain (analyze) ' + st.sql, st.params);
    if (i === 1) console.log(r.rows.map((x: any) => x['QUERY PLAN']).join('\n'));
  }
  c.release();
}
await pool.end();
