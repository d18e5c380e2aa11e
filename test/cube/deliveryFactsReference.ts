/**
 * The DORA window rules computed from the facts on every read, as migrations 0019 and 0020 did in
 * their views: the reference the stored facts of migration 0021 (deployment_facts,
 * change_lead_times) must equal after any sequence of writes. Same columns as cube_deployments and
 * cube_change_lead_times, one tenant, ordered by id.
 */
import type pg from 'pg';

const PRODUCTION = (d: string) => `COALESCE(${d}.is_production, ${d}.environment = 'production')`;

export const REFERENCE_DEPLOYMENTS = `
WITH flags AS (
  SELECT d.*, ${PRODUCTION('d')} AS production,
    EXISTS (
      SELECT 1 FROM deployments r
      WHERE r.project_id = d.project_id AND r.is_rollback AND r.created_at > d.created_at
        AND left(lower(r.rollback_from_sha), 7) = left(lower(d.sha), 7)
        AND (starts_with(lower(d.sha), lower(r.rollback_from_sha)) OR starts_with(lower(r.rollback_from_sha), lower(d.sha)))
    ) AS rolled_back,
    EXISTS (SELECT 1 FROM cube_incidents ci WHERE ci.caused_by_deployment_id = d.id) AS caused_incident
  FROM deployments d WHERE d.tenant_id = $1
)
SELECT f.tenant_id, f.id, f.project_id, p.owning_team_id AS team_id, f.environment, f.status, f.sha, f.is_rollback, f.created_at,
       f.production AS is_production, f.status IN ('success', 'failure', 'error') AS is_finished, f.rolled_back, f.caused_incident,
       f.production AND (f.status IN ('failure', 'error') OR f.rolled_back OR f.caused_incident) AS is_failed,
       CASE WHEN f.production AND (f.status IN ('failure', 'error') OR f.rolled_back OR f.caused_incident) THEN (
         SELECT min(n.created_at) FROM deployments n
         WHERE n.project_id = f.project_id AND n.created_at > f.created_at AND n.status = 'success' AND ${PRODUCTION('n')}
           AND NOT EXISTS (
             SELECT 1 FROM deployments r
             WHERE r.project_id = n.project_id AND r.is_rollback AND r.created_at > n.created_at
               AND left(lower(r.rollback_from_sha), 7) = left(lower(n.sha), 7)
               AND (starts_with(lower(n.sha), lower(r.rollback_from_sha)) OR starts_with(lower(r.rollback_from_sha), lower(n.sha))))
       ) END AS recovered_at
FROM flags f LEFT JOIN projects p ON p.id = f.project_id
ORDER BY f.id`;

export const REFERENCE_LEAD_TIMES = `
SELECT pr.tenant_id, pr.id, pr.project_id, p.owning_team_id AS team_id, pr.merged_at,
       COALESCE(fc.first_commit_at, pr.created_at) AS first_commit_at, fc.first_commit_at IS NOT NULL AS first_commit_known,
       dep.id AS deployment_id, dep.created_at AS deployed_at,
       extract(epoch FROM dep.created_at - COALESCE(fc.first_commit_at, pr.created_at))::float8 AS lead_time_seconds
FROM pull_requests pr
LEFT JOIN projects p ON p.id = pr.project_id
LEFT JOIN LATERAL (
  SELECT min(c.committed_at) AS first_commit_at FROM pull_request_commits prc JOIN commits c ON c.id = prc.commit_id WHERE prc.pull_request_id = pr.id
) fc ON true
LEFT JOIN LATERAL (
  SELECT d.id, d.created_at FROM deployments d
  WHERE d.project_id = pr.project_id AND d.status = 'success' AND ${PRODUCTION('d')} AND d.created_at >= pr.merged_at
  ORDER BY d.created_at, d.id LIMIT 1
) dep ON true
WHERE pr.tenant_id = $1 AND pr.merged_at IS NOT NULL
ORDER BY pr.id`;

const STORED_DEPLOYMENTS = `SELECT tenant_id, id, project_id, team_id, environment, status, sha, is_rollback, created_at, is_production, is_finished,
  rolled_back, caused_incident, is_failed, recovered_at FROM cube_deployments WHERE tenant_id = $1 ORDER BY id`;
const STORED_LEAD_TIMES = `SELECT tenant_id, id, project_id, team_id, merged_at, first_commit_at, first_commit_known, deployment_id, deployed_at,
  lead_time_seconds FROM cube_change_lead_times WHERE tenant_id = $1 ORDER BY id`;

/**
 * The stored rows of the tenant and the rows computed from its facts, side by side. The stored
 * rows are read as every reader does (migration 0055): after catching up on the noted writes.
 */
export async function storedAndReference(pool: Pick<pg.Pool, 'query'>, tenantId: string) {
  // Chunk after chunk (migration 0058) until one finds no note left.
  while ((await pool.query('select delivery_facts_catch_up($1) as taken', [tenantId])).rows[0].taken > 0) { /* the next chunk */ }
  const [stored, reference, storedLt, referenceLt] = await Promise.all(
    [STORED_DEPLOYMENTS, REFERENCE_DEPLOYMENTS, STORED_LEAD_TIMES, REFERENCE_LEAD_TIMES].map(async (sql) => (await pool.query(sql, [tenantId])).rows),
  );
  return { deployments: { stored, reference }, leadTimes: { stored: storedLt, reference: referenceLt } };
}
