import pg from 'pg';
import { readFileSync, readdirSync } from 'node:fs';
import { aiImpact } from '../src/aiImpact/service.js';
import { refreshRollups } from '../src/cube/rollupRefresh.js';
const pool = new pg.Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: 10 });
const tenant = process.env.BENCH_TENANT!;
const master = Number(readFileSync('/tmp/impact-stored-pgdata/postmaster.pid', 'utf8').split('\n')[0]);
const pgCpu = () => {
  let t = 0;
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const st = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (Number(st[1]) === master || Number(p) === master) t += Number(st[11]) + Number(st[12]);
    } catch {}
  }
  return t / 100;
};
if (process.env.REFRESH) { const t = performance.now(); await refreshRollups(pool, tenant); console.log('rollups', (performance.now() - t).toFixed(0), 'ms'); }
for (const team of [undefined, 'team-0001', undefined, 'team-0001', undefined, 'team-0001']) {
  const c0 = pgCpu(); const u0 = process.cpuUsage();
  const t = performance.now();
  const r = await aiImpact(pool, tenant, { from: '2025-01', to: '2025-12', ...(team ? { team } : {}) });
  const u = process.cpuUsage(u0);
  console.log(team ?? 'org', 'wall', (performance.now() - t).toFixed(0), 'ms; PostgreSQL CPU', (pgCpu() - c0).toFixed(2), 's; node CPU', ((u.user + u.system) / 1e6).toFixed(2), 's', r.comparisons[0].a.n, r.comparisons[0].b.n, r.beforeAfter.status);
}
await pool.end();
process.exit(0);
