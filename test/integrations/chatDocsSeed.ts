/**
 * A tenant with two teams and hand-checkable March 2025 figures for team alpha (stored rows, as
 * the webhook and register services write them):
 * - PRs merged 3, cycle times 1 h, 2 h, 4 h: p50 2.0 h (n = 3);
 * - production deployments: success 03-05, failure 03-06, success 03-07: 2 successful, change
 *   failure rate 1/3 = 33% (n = 3); every PR ships with the 03-05 deployment, lead times 4, 3 and
 *   2 days: p50 3.0 d (n = 3);
 * - no incident, no issue. In February: one PR merged (cycle 1 h), shipped by the one successful
 *   deployment two days later (lead time 2.0 d, n = 1).
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';

export interface Seed {
  alpha: string;
  beta: string;
  /** E-mail of a person of the register in team alpha only. */
  alphaEmail: string;
  /** E-mail of a person in both teams. */
  bothEmail: string;
}

export async function seedFigures(pool: pg.Pool, tenantId: string): Promise<Seed> {
  const tag = randomBytes(3).toString('hex');
  const one = async (sql: string, params: unknown[]) => (await pool.query(sql, params)).rows[0] as Record<string, string>;
  const team = async (slug: string) => (await one(`insert into teams (tenant_id, slug, name, enabled) values ($1, $2, $3, true) returning id`, [tenantId, slug, `Team ${slug}`])).id as string;
  const alpha = await team('alpha');
  const beta = await team('beta');
  const person = async (ref: string) => (await one(`insert into people (tenant_id, external_ref, email, display_name, employment_type) values ($1, $2, $3, $2, 'employee') returning id`, [tenantId, ref, `${ref}-${tag}@Example.com`])).id as string;
  const p1 = await person('ada');
  const p2 = await person('bo');
  const member = (teamId: string, personId: string) => pool.query(`insert into team_memberships (tenant_id, team_id, person_id, membership_source) values ($1, $2, $3, 'register')`, [tenantId, teamId, personId]);
  await member(alpha, p1);
  await member(alpha, p2);
  await member(beta, p2);
  const project = (await one(`insert into projects (tenant_id, provider, project_key, source_type, owning_team_id) values ($1, 'manual', $2, 'manual', $3) returning id`, [tenantId, `acme/api-${tag}`, alpha])).id as string;
  let n = 0;
  const pr = (created: string, merged: string) =>
    pool.query(
      `insert into pull_requests (tenant_id, project_id, external_id, number, title, author_username, state, additions, deletions, labels, created_at, merged_at)
       values ($1, $2, $3, $4, 'pr', 'ada', 'merged', 1, 1, '{}', $5, $6)`,
      [tenantId, project, `pr-${++n}`, n, `${created}Z`, `${merged}Z`],
    );
  await pr('2025-02-10T00:00:00', '2025-02-10T01:00:00');
  await pr('2025-03-01T00:00:00', '2025-03-01T01:00:00');
  await pr('2025-03-02T00:00:00', '2025-03-02T02:00:00');
  await pr('2025-03-03T00:00:00', '2025-03-03T04:00:00');
  const deploy = (status: string, at: string) =>
    pool.query(
      `insert into deployments (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task, is_production, is_rollback, created_at)
       values ($1, $2, 'manual', $3, 'main', $4, 'production', $5, 'deploy', true, false, $6)`,
      [tenantId, project, `d-${++n}`, randomBytes(6).toString('hex'), status, `${at}Z`],
    );
  await deploy('success', '2025-02-12T00:00:00');
  await deploy('success', '2025-03-05T00:00:00');
  await deploy('failure', '2025-03-06T00:00:00');
  await deploy('success', '2025-03-07T00:00:00');
  return { alpha, beta, alphaEmail: `ada-${tag}@example.com`, bothEmail: `bo-${tag}@example.com` };
}
