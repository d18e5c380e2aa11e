import type pg from 'pg';

/**
 * A seeded random sequence of writes to one tenant over three projects, touching every rule of the
 * stored delivery facts: deployments (rollbacks, moves between projects, status and time changes,
 * deletes), incidents (named or in the 24-hour window), merged PRs, their commits and commit times.
 * `write()` makes one write and returns its kind; `rand` is the sequence's own generator (a failure
 * must replay, so nothing here calls Math.random()).
 */
export async function randomWrites(pool: Pick<pg.Pool, 'query'>, t: { tenantId: string }, start = 20251124) {
  let seed = start;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const projects: string[] = [];
  for (const key of ['r/one', 'r/two', 'r/three']) {
    projects.push((await pool.query(`insert into projects (tenant_id, provider, project_key, source_type) values ($1, 'manual', $2, 'manual') returning id`, [t.tenantId, key])).rows[0].id);
  }
  const shas = ['a1b2c3d4e5f6', 'a1b2c3d9999', 'b7b7b7b7b7', 'c0ffee00c0ffee', 'deadbeef0001'];
  // Times on a coarse grid of hours, so that equal times, the 24-hour edge and ties by id all occur.
  const at = () => new Date(Date.UTC(2025, 0, 1) + Math.floor(rand() * 24) * 6 * 3600_000).toISOString();
  // One row of the tenant, chosen by the seeded sequence (not by random(): a failure must replay).
  const any = async (table: string, order: string) =>
    (await pool.query(`select id from (select ${table === 'pull_request_commits' ? 'x.commit_id' : 'x.id'} as id, ${order} as k from ${table} x
      where x.tenant_id = $1) s order by k offset floor($2::float8 * (select count(*) from ${table} where tenant_id = $1)) limit 1`, [t.tenantId, rand()])).rows[0]?.id as string | undefined;
  let n = 0;
  const steps: (() => Promise<unknown>)[] = [
    () => pool.query(
      `insert into deployments (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task, is_production, is_rollback, rollback_from_sha, created_at)
       values ($1, $2, 'manual', $3, 'main', $4, $5, $6, 'deploy', $7, $8, $9, $10)`,
      [t.tenantId, pick(projects), `d${++n}`, pick(shas), pick(['production', 'staging']), pick(['success', 'success', 'failure', 'error', 'pending']),
        pick([null, null, true, false]), ...(rand() < 0.3 ? [true, pick(shas).slice(0, 7 + Math.floor(rand() * 4))] : [false, null]), at()]),
    async () => { const id = await any('deployments', 'x.external_id'); if (id) await pool.query(`update deployments set created_at = $2, status = $3 where id = $1`, [id, at(), pick(['success', 'failure'])]); },
    async () => { const id = await any('deployments', 'x.external_id'); if (id) await pool.query(`update deployments set project_id = $2, sha = $3 where id = $1`, [id, pick(projects), pick(shas)]); },
    async () => { const id = await any('deployments', 'x.external_id'); if (id) await pool.query(`delete from deployments where id = $1`, [id]); },
    () => pool.query(
      `insert into issues (tenant_id, project_id, provider, external_id, number, title, type, state, metadata, created_at)
       values ($1, $2, 'manual', $3, 1, 'i', 'incident', 'open', $4, $5)`,
      [t.tenantId, pick(projects), `i${++n}`, rand() < 0.4 ? { causedByDeployment: `d${1 + Math.floor(rand() * n)}` } : null, at()]),
    async () => { const id = await any('issues', 'x.external_id'); if (id) await pool.query(`update issues set created_at = $2, type = $3 where id = $1`, [id, at(), pick(['incident', 'incident', 'bug'])]); },
    async () => { const id = await any('issues', 'x.external_id'); if (id) await pool.query(`delete from issues where id = $1`, [id]); },
    () => pool.query(
      `insert into pull_requests (tenant_id, project_id, external_id, number, title, state, created_at, merged_at) values ($1, $2, $3, $4, 'p', 'merged', $5, $6)`,
      [t.tenantId, pick(projects), `p${++n}`, n, '2024-12-01T00:00:00Z', rand() < 0.8 ? at() : null]),
    async () => { const id = await any('pull_requests', 'x.external_id'); if (id) await pool.query(`update pull_requests set merged_at = $2 where id = $1`, [id, rand() < 0.8 ? at() : null]); },
    async () => {
      const id = await any('pull_requests', 'x.external_id');
      if (!id) return;
      const pr = (await pool.query(`select id, project_id from pull_requests where id = $1`, [id])).rows[0];
      const c = (await pool.query(`insert into commits (tenant_id, project_id, sha, committed_at, message) values ($1, $2, md5($3), $4, 'm') returning id`, [t.tenantId, pr.project_id, `c${++n}`, at()])).rows[0].id;
      await pool.query(`insert into pull_request_commits (pull_request_id, commit_id, tenant_id) values ($1, $2, $3)`, [pr.id, c, t.tenantId]);
    },
    async () => { const id = await any('commits', 'x.sha'); if (id) await pool.query(`update commits set committed_at = $2 where id = $1`, [id, at()]); },
    async () => { const id = await any('pull_request_commits', '(select c.sha from commits c where c.id = x.commit_id)'); if (id) await pool.query(`delete from pull_request_commits where commit_id = $1`, [id]); },
  ];
  // Inserts more often than the rest, so that the tenant grows.
  const weighted = [0, 0, 0, 0, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 9, 10, 11];
  return {
    rand,
    async write(): Promise<number> {
      const step = pick(weighted);
      await steps[step]!();
      return step;
    },
  };
}
