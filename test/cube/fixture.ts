/**
 * A small tenant whose every baseline value for 2025-02..2025-04 is worked out by hand in
 * baseline.test.ts. Facts are inserted as stored rows (what the webhook, code-host, session and
 * register services write), so the window rules are exercised in the views and cubes.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { dbFor, type BuiltTenant } from '../helpers/factories.js';
import type { TestServer } from '../helpers/server.js';
import { serverWithTwoTenants } from '../helpers/suites.js';

export interface Fixture {
  teams: { alpha: string; beta: string; gamma: string };
  orgUnit: string;
}

const ts = (s: string) => `${s}Z`;

export async function buildFixture(pool: pg.Pool, tenantId: string): Promise<Fixture> {
  const tag = randomBytes(3).toString('hex');
  const one = async (sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows[0] as Record<string, string>;
  const t = tenantId;
  const orgUnit = (await one(`insert into org_units (tenant_id, slug, name) values ($1, 'eng', 'Engineering') returning id`, [t])).id as string;
  const team = async (slug: string, enabled: boolean, extra: string[] = [null, null, null, null, null] as unknown as string[]) =>
    (await one(
      `insert into teams (tenant_id, slug, name, external_ref, cost_centre_code, org_unit_id, supplier_name, delivery_model, location_country, enabled)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning id`,
      [t, slug, `Team ${slug}`, extra[0], extra[1], orgUnit, extra[2], extra[3], extra[4], enabled],
    )).id as string;
  const alpha = await team('alpha', true, ['EXT-A', 'CC-1', 'Acme', 'mixed', 'NL']);
  const beta = await team('beta', true);
  const gamma = await team('gamma', false);

  const person = async (ref: string, type: string, supplier: string | null) =>
    (await one(`insert into people (tenant_id, external_ref, email, display_name, employment_type, supplier_name) values ($1, $2, $3, $2, $4, $5) returning id`,
      [t, ref, `${ref}-${tag}@example.com`, type, supplier])).id as string;
  const p1 = await person('p1', 'employee', null);
  const p2 = await person('p2', 'supplier', 'Acme');
  const p3 = await person('p3', 'contractor', null);
  const p4 = await person('p4', 'supplier', 'Bolt');
  const p5 = await person('p5', 'employee', null);
  const member = (teamId: string, personId: string) =>
    pool.query(`insert into team_memberships (tenant_id, team_id, person_id, membership_source) values ($1, $2, $3, 'register')`, [t, teamId, personId]);
  await member(alpha, p1);
  await member(beta, p1);
  await member(alpha, p2);
  await member(alpha, p3);
  await member(beta, p4);
  await member(gamma, p5);
  await pool.query(`insert into register_imports (tenant_id, row_count, imported_by, file_sha256) values ($1, 6, 'cli', 'x')`, [t]);
  const identity = (personId: string, kind: string, value: string) =>
    pool.query(`insert into person_identities (tenant_id, person_id, kind, value) values ($1, $2, $3, $4)`, [t, personId, kind, value]);
  await identity(p1, 'codehost_username', 'alice');
  await identity(p1, 'email', `alice-${tag}@example.com`);
  await identity(p2, 'codehost_username', 'bob');
  await identity(p4, 'email', `dora-${tag}@example.com`);
  await identity(p5, 'email', `eve-${tag}@example.com`);
  const user = async (email: string) => (await one(`insert into users (email) values ($1) returning id`, [email])).id as string;
  const alice = await user(`alice-${tag}@example.com`);
  const dora = await user(`dora-${tag}@example.com`);
  const eve = await user(`eve-${tag}@example.com`);

  const project = async (key: string, owner: string | null) =>
    (await one(`insert into projects (tenant_id, provider, project_key, source_type, owning_team_id) values ($1, 'manual', $2, 'manual', $3) returning id`, [t, key, owner])).id as string;
  const api = await project('acme/api', alpha);
  await project('acme/web', beta);
  const unowned = await project('acme/unowned', null);
  const old = await project('acme/old', gamma);

  let n = 0;
  const pr = async (projectId: string, author: string, created: string, merged: string | null, add: number, del: number, labels: string[] = []) =>
    (await one(
      `insert into pull_requests (tenant_id, project_id, external_id, number, title, author_username, state, additions, deletions, labels, created_at, merged_at)
       values ($1, $2, $3, $4, 'pr', $5, $6, $7, $8, $9, $10, $11) returning id`,
      [t, projectId, `pr-${++n}`, n, author, merged ? 'merged' : 'open', add, del, labels, ts(created), merged ? ts(merged) : null],
    )).id as string;
  await pr(api, 'alice', '2025-03-01T00:00:00', '2025-03-01T10:00:00', 5, 3, ['AI-Assisted']);
  await pr(api, 'carol', '2025-02-28T00:00:00', '2025-03-02T00:00:00', 100, 100);
  const pr3 = await pr(api, 'alice', '2025-03-10T00:00:00', '2025-03-10T01:00:00', 2000, 0);
  await pr(api, 'alice', '2025-03-11T00:00:00', null, 1, 1);
  await pr(unowned, 'zed', '2025-03-11T00:00:00', '2025-03-12T00:00:00', 1, 1);
  await pr(old, 'eve', '2025-03-11T00:00:00', '2025-03-12T00:00:00', 1, 1);
  // A review of PR 3 (the pull_request_reviews cube and its bi view have a row).
  await pool.query(`insert into pull_request_reviews (tenant_id, project_id, pull_request_number, review_id, reviewer, state, submitted_at) values ($1, $2, 3, 1, 'bob', 'approved', $3)`, [t, api, ts('2025-03-10T00:30:00')]);

  const commit = async (projectId: string, sha: string, author: string, at: string) =>
    (await one(`insert into commits (tenant_id, project_id, sha, author_username, committed_at, message) values ($1, $2, $3, $4, $5, 'm') returning id`,
      [t, projectId, sha, author, ts(at)])).id as string;
  const c1 = await commit(api, 'c1c1c1c1', 'ALICE', '2025-03-05T00:00:00');
  await commit(api, 'c2c2c2c2', 'dave', '2025-03-06T00:00:00');
  await commit(api, 'c3c3c3c3', 'dave', '2025-02-10T00:00:00');

  const issue = async (projectId: string, type: string, created: string, closed: string | null, metadata: object | null = null) =>
    pool.query(
      `insert into issues (tenant_id, project_id, provider, external_id, number, title, type, state, metadata, created_at, closed_at)
       values ($1, $2, 'manual', $3, $4, 'i', $5, $6, $7, $8, $9)`,
      [t, projectId, `iss-${++n}`, n, type, closed ? 'closed' : 'open', metadata, ts(created), closed ? ts(closed) : null],
    );
  await issue(api, 'bug', '2025-03-01T00:00:00', '2025-03-03T00:00:00');
  await issue(api, 'bug', '2025-03-04T12:00:00', '2025-03-05T06:00:00');
  await issue(api, 'bug', '2025-03-04T12:00:00', null);

  const deploy = async (ext: string, env: string, status: string, at: string, sha: string, o: { prod?: boolean; rollbackFrom?: string } = {}) =>
    pool.query(
      `insert into deployments (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task, is_production, is_rollback, rollback_from_sha, created_at)
       values ($1, $2, 'manual', $3, 'main', $4, $5, $6, $7, $8, $9, $10, $11)`,
      [t, api, ext, sha, env, status, o.rollbackFrom ? 'rollback' : 'deploy', o.prod ?? null, Boolean(o.rollbackFrom), o.rollbackFrom ?? null, ts(at)],
    );
  await deploy('d1-ext', 'production', 'success', '2025-03-01T00:00:00', 'aaaaaaa1111');
  await deploy('d2', 'production', 'failure', '2025-03-02T00:00:00', 'aaaaaaa2222');
  await deploy('d3', 'staging', 'success', '2025-03-03T00:00:00', 'bbbbbbb2222', { prod: true });
  await deploy('d4', 'staging', 'success', '2025-03-03T06:00:00', 'bbbbbbb3333');
  await deploy('d5', 'production', 'success', '2025-03-04T00:00:00', 'bbbbbbb4444', { rollbackFrom: 'BBBBBBB2' });
  await deploy('d6', 'production', 'success', '2025-03-20T00:00:00', 'ccccccc1111');
  await deploy('d7', 'production', 'in_progress', '2025-03-21T00:00:00', 'ccccccc2222');
  await deploy('d8', 'production', 'failure', '2025-03-22T00:00:00', 'ccccccc3333', { prod: false });
  await deploy('d9', 'production', 'success', '2025-04-05T00:00:00', 'ddddddd1111', { rollbackFrom: 'ddddddd4444' });
  await deploy('d10', 'production', 'success', '2025-04-10T00:00:00', 'ddddddd4444');
  await issue(api, 'incident', '2025-03-20T05:00:00', '2025-03-20T07:00:00');
  await issue(api, 'incident', '2025-03-25T00:00:00', '2025-04-02T00:00:00', { causedByDeployment: 'd1-ext' });
  await issue(api, 'incident', '2025-04-20T00:00:00', '2025-04-21T00:00:00');

  const session = async (userId: string, at: string) =>
    (await one(`insert into ai_sessions (id, tenant_id, user_id, tool, started_at) values (gen_random_uuid(), $1, $2, 'claude-code', $3) returning id`, [t, userId, ts(at)])).id as string;
  const s1 = await session(alice, '2025-03-05T00:00:00');
  await session(alice, '2025-03-06T00:00:00');
  await session(dora, '2025-03-07T00:00:00');
  await session(eve, '2025-03-07T00:00:00');
  await pool.query(`insert into ai_session_links (tenant_id, session_id, pull_request_id, linked_by) values ($1, $2, $3, 'pr_number')`, [t, s1, pr3]);
  await pool.query(`insert into ai_session_links (tenant_id, session_id, commit_id, linked_by) values ($1, $2, $3, 'commit_sha')`, [t, s1, c1]);
  // The AI features' cubes (issue 25): one assessed session, one model call.
  await pool.query(`insert into session_assessments (session_id, tenant_id, model, task_completed, tests_run, rework_needed, risky_actions, score, rationale) values ($1, $2, 'gpt-a', true, true, false, false, 100, 'ok')`, [s1, t]);
  await pool.query(`insert into ai_calls (tenant_id, feature, provider, model, outcome, input_tokens, output_tokens, duration_ms, created_at) values ($1, 'summary', 'openai', 'gpt-a', 'ok', 10, 5, 100, '2025-03-05T01:00:00Z')`, [t]);

  await pool.query(`insert into seats (tenant_id, person_id, tool, assigned_on, revoked_on) values ($1, $2, 'copilot', '2025-02-15', '2025-03-10'), ($1, $3, 'copilot', '2025-04-01', null)`, [t, p1, p2]);

  const survey = async (teamId: string, people: string[], answers: number[]) => {
    const s = (await one(`insert into surveys (tenant_id, title, opens_on, closes_on, status) values ($1, 'Pulse', '2025-03-01', '2025-03-15', 'closed') returning id`, [t])).id;
    await pool.query(`insert into survey_teams (survey_id, team_id, tenant_id) values ($1, $2, $3)`, [s, teamId, t]);
    for (const p of people) await pool.query(`insert into survey_invitations (tenant_id, survey_id, team_id, person_id) values ($1, $2, $3, $4)`, [t, s, teamId, p]);
    for (const a of answers) {
      await pool.query(`insert into survey_responses (tenant_id, survey_id, team_id, response_key, q1, q2, q3, q4, q5) values ($1, $2, $3, $4, $5, $5, $5, $5, $5)`,
        [t, s, teamId, randomBytes(8).toString('hex'), a]);
    }
  };
  await survey(alpha, [p1, p2, p3], [5, 3, 1]);
  await survey(beta, [p1, p4], [4]);
  // What the catch-up schedule does within seconds of these writes: readers that are not cube
  // queries (BI views, SQL in tests) read the stored delivery facts as they are (docs/write-path.md).
  await pool.query('select delivery_facts_catch_up($1)', [t]);
  return { teams: { alpha, beta, gamma }, orgUnit };
}

/** Suite preamble: a server with tenants A and B, each holding this fixture (A's returned as `fa`). */
export async function serverWithTwoFixtures(): Promise<{ api: TestServer; a: BuiltTenant; b: BuiltTenant; fa: Fixture }> {
  const { api, a, b } = await serverWithTwoTenants();
  const { pool } = dbFor(api.databaseUrl);
  const fa = await buildFixture(pool, a.tenantId);
  await buildFixture(pool, b.tenantId);
  return { api, a, b, fa };
}
