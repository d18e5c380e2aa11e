import pg from 'pg';
import { aiImpact } from '../src/aiImpact/service.js';
const T = '96bc3798-c716-448f-bf67-7ade33b28835';
const pool = new pg.Pool({ connectionString: 'postgresql://postgres:bench@127.0.0.1:55481/postgres', max: 10 });
const team = process.argv[2];
for (let i = 0; i < 4; i++) {
  const t0 = performance.now();
  const r = await aiImpact(pool, T, { from: '2025-01', to: '2025-12', ...(team ? { team } : {}) });
  console.log(`${team ?? 'org'} run ${i}: ${(performance.now() - t0).toFixed(0)} ms; n ai ${r.comparisons[0]!.a.n} other ${r.comparisons[0]!.b.n}; cycle ${r.comparisons[0]!.a.value} / ${r.comparisons[0]!.b.value}`);
}
await pool.end();
