/**
 * Pull requests merged on either side of day boundaries (UTC and Europe/Amsterdam, UTC+1 in
 * March), for the operator, date range and time zone tests of the Cube REST protocol.
 *
 * | pr  | team  | author  | merged (UTC)          | note                                  |
 * |-----|-------|---------|-----------------------|---------------------------------------|
 * | p1  | alpha | alice   | 2025-02-28 23:30      | 1 March 00:30 in Amsterdam            |
 * | p2  | alpha | alice   | 2025-03-01 00:00      |                                       |
 * | p3  | alpha | bob     | 2025-03-01 23:30      | 2 March 00:30 in Amsterdam            |
 * | p4  | alpha | Carol-X | 2025-03-02 00:00      |                                       |
 * | p5  | beta  | dave    | 2025-03-02 12:00      |                                       |
 * | p6  | beta  | alice   | 2025-04-15 10:00      |                                       |
 * | p7  | alpha | erin    | open                  | never merged                          |
 * | p8–10 | alpha | frank | 2025-05-01, 05-10, 05-20 00:00 |                              |
 * | p11 | none  | zed     | 2025-03-03 00:00      | a project without a team              |
 */
import type pg from 'pg';

export interface RestFixture {
  alpha: string;
  beta: string;
}

export const MERGED = 10;

export async function buildRestFixture(pool: pg.Pool, tenantId: string): Promise<RestFixture> {
  const one = async (sql: string, params: unknown[]) => (await pool.query(sql, params)).rows[0] as { id: string };
  const alpha = (await one(`insert into teams (tenant_id, slug, name) values ($1, 'alpha', 'Alpha') returning id`, [tenantId])).id;
  const beta = (await one(`insert into teams (tenant_id, slug, name) values ($1, 'beta', 'Beta') returning id`, [tenantId])).id;
  const project = async (key: string, team: string | null) =>
    (await one(`insert into projects (tenant_id, provider, project_key, source_type, owning_team_id) values ($1, 'manual', $2, 'manual', $3) returning id`, [tenantId, key, team])).id;
  const api = await project('acme/api', alpha);
  const web = await project('acme/web', beta);
  const lost = await project('acme/lost', null);
  let n = 0;
  const pr = (projectId: string, author: string, merged: string | null, created = '2025-02-01T00:00:00Z') =>
    pool.query(
      `insert into pull_requests (tenant_id, project_id, external_id, number, title, author_username, state, additions, deletions, created_at, merged_at)
       values ($1, $2, $3, $4, 'pr', $5, $6, 1, 1, $7, $8)`,
      [tenantId, projectId, `rest-${++n}`, n, author, merged ? 'merged' : 'open', created, merged],
    );
  await pr(api, 'alice', '2025-02-28T23:30:00Z');
  await pr(api, 'alice', '2025-03-01T00:00:00Z');
  await pr(api, 'bob', '2025-03-01T23:30:00Z');
  await pr(api, 'Carol-X', '2025-03-02T00:00:00Z');
  await pr(web, 'dave', '2025-03-02T12:00:00Z');
  await pr(web, 'alice', '2025-04-15T10:00:00Z');
  await pr(api, 'erin', null, '2025-03-05T00:00:00Z');
  for (const day of ['01', '10', '20']) await pr(api, 'frank', `2025-05-${day}T00:00:00Z`);
  await pr(lost, 'zed', '2025-03-03T00:00:00Z');
  return { alpha, beta };
}
