import pg from 'pg';
import { cubeSql } from '../src/cube/service.js';
const T = '96bc3798-c716-448f-bf67-7ade33b28835';
const pool = new pg.Pool({ connectionString: 'postgresql://postgres:bench@127.0.0.1:55481/postgres' });
const range = ['2025-01-01', '2025-12-31'];
const mq = (cube: string) => ({
  pull_requests: ['pull_requests.pr_cycle_time_p50_seconds','pull_requests.prs_merged','pull_requests.coding_time_p50_seconds','pull_requests.coding_time_count','pull_requests.pickup_time_p50_seconds','pull_requests.pickup_time_count','pull_requests.review_time_p50_seconds','pull_requests.review_time_count','pull_requests.deploy_time_p50_seconds','pull_requests.deploy_time_count','pull_requests.pr_size_p50','pull_requests.merged_without_review_share','pull_requests.merged_without_review_prs','pull_requests.reverted_prs'],
  change_lead_times: ['change_lead_times.shipping_change_failure_rate','change_lead_times.shipping_deploys','change_lead_times.failed_shipping_deploys'],
} as Record<string,string[]>)[cube];
const which = process.argv[2] ?? 'pull_requests';
const dim = process.argv[3] ?? 'ai_side';
const q = { measures: mq(which), dimensions: [`${which}.${dim}`], timeDimensions: [{ dimension: `${which}.merged_at`, dateRange: range }] };
const s = await cubeSql({ tenantId: T }, q);
for (const st of s.statements) {
  console.log(st.sql, st.params);
  const c = await pool.connect();
  await c.query('set max_parallel_workers_per_gather = 0');
  const r = await c.query('explain (analyze, buffers) ' + st.sql, st.params);
  console.log(r.rows.map((x: any) => x['QUERY PLAN']).join('\n'));
  c.release();
}
await pool.end();
