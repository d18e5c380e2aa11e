import pg from 'pg';
import { aiImpact } from '../src/aiImpact/service.js';
const pool = new pg.Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: 10 });
const tenant = process.env.BENCH_TENANT!;
for (const team of [undefined, 'team-0001', undefined, 'team-0001']) {
  const t = performance.now();
  const r = await aiImpact(pool, tenant, { from: '2025-01', to: '2025-12', ...(team ? { team } : {}) });
  console.log(team ?? 'org', (performance.now() - t).toFixed(0), 'ms', r.comparisons[0].a.n, r.comparisons[0].b.n);
}
await pool.end();
process.exit(0);
