/**
 * How long linking takes on a large tenant: 200,000 commits, 20,000 pull requests and 20,000
 * sessions, then the three writes that trigger linking (session upload, push, PR event), each
 * timed over real HTTP. Run: npx mocha bench/activityLinks.bench.ts
 */
import { performance } from 'node:perf_hooks';
import { buildTenant, dbFor } from '../test/helpers/factories.js';
import { testServer } from '../test/helpers/server.js';
import { codehostEnv, deliver, fixture, FIXTURE_INSTALLATION } from '../test/activity/helpers.js';
import { median } from './support.js';

describe('bench: session linking on a large tenant', function () {
  this.timeout(600_000);
  it('prints timings', async () => {
    const api = await testServer({ env: codehostEnv() });
    try {
      const tenant = await buildTenant(api.databaseUrl);
      await api.as(tenant.owner.apiKey).post('/api/integrations/codehost/installations', { installationId: FIXTURE_INSTALLATION });
      const pool = dbFor(api.databaseUrl).pool;
      await deliver(api, 'pull_request', 'pull_request.opened');
      const [{ id: projectId }] = (await pool.query("select id from projects where project_key = 'acme-corp/checkout-service'")).rows;
      const t0 = performance.now();
      await pool.query(`insert into commits (tenant_id, project_id, sha, branch, committed_at, message)
        select $1, $2, md5(i::text) || substr(md5((i * 7)::text), 1, 8), 'branch-' || (i % 20000), now(), 'm'
        from generate_series(1, 200000) i`, [tenant.tenantId, projectId]);
      await pool.query(`insert into pull_requests (tenant_id, project_id, external_id, number, title, state, head_branch, created_at)
        select $1, $2, 'x' || i, 1000 + i, 't', 'open', 'branch-' || i, now() from generate_series(1, 20000) i`, [tenant.tenantId, projectId]);
      await pool.query(`insert into ai_sessions (id, tenant_id, user_id, tool, started_at, project_key, branch, commit_shas)
        select gen_random_uuid(), $1, $2, 'claude-code', now(), 'acme-corp/checkout-service', 'branch-' || i, array[substr(md5((i * 13)::text), 1, 10)]
        from generate_series(1, 20000) i`, [tenant.tenantId, tenant.owner.userId]);
      await pool.query('insert into ai_session_shas (session_id, tenant_id, sha) select id, tenant_id, unnest(commit_shas) from ai_sessions');
      await pool.query('analyze');
      console.log(`      seeded in ${Math.round(performance.now() - t0)} ms`);

      const uploads: number[] = [];
      for (let i = 0; i < 10; i += 1) {
        const start = performance.now();
        const res = await api.as(tenant.owner.apiKey).post('/api/sessions', {
          tool: 'claude-code', startedAt: '2026-11-02T09:00:00Z', projectKey: 'acme-corp/checkout-service', branch: `branch-${i}`, prNumber: 1000 + i,
          commitShas: [`${i}abcdef0`, `${i}0123456`, `${i}fedcba9`],
        });
        if (res.status !== 201) throw new Error(`upload ${res.status}`);
        uploads.push(performance.now() - start);
      }
      const pushes: number[] = [];
      for (let i = 0; i < 10; i += 1) {
        const payload = fixture('push');
        payload.ref = `refs/heads/branch-${i}`;
        payload.commits = Array.from({ length: 20 }, (_, n) => ({ ...payload.commits[1], id: `${String(i).padStart(2, '0')}${String(n).padStart(2, '0')}${'e'.repeat(36)}` }));
        const start = performance.now();
        const res = await deliver(api, 'push', payload);
        if (res.status !== 200) throw new Error(`push ${res.status}`);
        pushes.push(performance.now() - start);
      }
      const prs: number[] = [];
      for (let i = 0; i < 10; i += 1) {
        const payload = fixture('pull_request.opened');
        payload.pull_request.number = 90000 + i;
        payload.pull_request.id = 90000 + i;
        payload.pull_request.head.ref = `branch-${i + 100}`;
        const start = performance.now();
        const res = await deliver(api, 'pull_request', payload);
        if (res.status !== 200) throw new Error(`pr ${res.status}`);
        prs.push(performance.now() - start);
      }
      console.log(`      session upload with linking: median ${median(uploads).toFixed(1)} ms`);
      console.log(`      push of 20 commits with linking: median ${median(pushes).toFixed(1)} ms`);
      console.log(`      pull_request event with linking: median ${median(prs).toFixed(1)} ms`);
    } finally {
      await api.close();
    }
  });
});
