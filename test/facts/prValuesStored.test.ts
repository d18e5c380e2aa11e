/**
 * A merged PR's values stored beside its lead time (migration 0084, docs/ai-impact.md "Queries"):
 * change_lead_times keeps each merged PR's cycle time, phases, size and AI attribution level, which
 * the AI impact page reads instead of joining the PRs. They must stay equal to pull_requests' own
 * per-PR values after every write that changes them, including writes after the merge:
 *
 *   #1 merged 06-10 12:00, opened 06-08 12:00, ready 06-09 00:00, first commit 06-07 12:00,
 *      reviewed 06-09 06:00, deployed 06-11 12:00, 30 + 10 lines
 *   #2 merged 06-12 12:00 without a review; then a review dated before the merge arrives late,
 *      its ready time moves, its size changes, a label makes it AI-assisted (level medium)
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type pg from 'pg';
import { readAs } from '../../src/aiImpact/service.js';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';

const VALUES = ['cycle_time_seconds', 'coding_time_seconds', 'pickup_time_seconds', 'review_time_seconds', 'deploy_time_seconds', 'pr_size',
  'has_coding_time', 'is_reviewed', 'merged_without_review', 'is_deployed', 'is_reverted', 'ai_attribution'] as const;
type Values = Record<(typeof VALUES)[number], unknown>;
/** The number-typed dimensions (Cube answers a dimension's number as a string). */
const NUMBERS = new Set<string>(VALUES.filter((v) => v.endsWith('_seconds') || v === 'pr_size'));
const HOUR = 3600;

describe('A merged PR\'s values stored for the AI impact page follow every write, also after the merge', function () {
  this.timeout(120_000);
  let api: TestServer;
  let tenant: BuiltTenant;
  let pool: pg.Pool;
  let project: string;
  const pr: Record<number, string> = {};

  /** Each merged PR's values as `cube` answers them (through /cubejs-api/v1/load, which catches up first). */
  const valuesOf = async (cube: 'pull_requests' | 'change_lead_times'): Promise<Record<number, Values>> => {
    const member = (name: string) => (cube === 'pull_requests' ? `pull_requests.${name}` : readAs(`pull_requests.${name}`));
    const res = await api.as(tenant.owner.apiKey).post('/cubejs-api/v1/load', {
      query: {
        dimensions: [member('id'), ...VALUES.map(member)],
        timeDimensions: [{ dimension: `${cube}.merged_at`, dateRange: ['2026-06-01', '2026-06-30'] }],
        ...(cube === 'pull_requests' ? { filters: [{ member: 'pull_requests.is_merged', operator: 'equals', values: ['true'] }] } : {}),
        ungrouped: true,
      },
    });
    expect(res.status, res.text).to.equal(200);
    const number = Object.fromEntries(Object.entries(pr).map(([n, id]) => [id, Number(n)]));
    return Object.fromEntries((res.body.data as Record<string, unknown>[]).map((r) =>
      [number[r[member('id')] as string], Object.fromEntries(VALUES.map((v) => [v, NUMBERS.has(v) && r[member(v)] !== null ? Number(r[member(v)]) : r[member(v)]])) as Values]));
  };

  /** The stored values equal the PRs' own, and are returned. */
  const stored = async (): Promise<Record<number, Values>> => {
    const [own, copy] = await Promise.all([valuesOf('pull_requests'), valuesOf('change_lead_times')]);
    expect(copy).to.deep.equal(own);
    return copy;
  };

  const addPr = async (n: number, opened: string, ready: string, merged: string, reviewed: string | null) => {
    pr[n] = (await pool.query(
      `insert into pull_requests (tenant_id, project_id, external_id, number, title, state, additions, deletions, created_at, ready_at, merged_at, first_review_at)
       values ($1, $2, $3, $4, $5, 'merged', 30, 10, $6, $7, $8, $9) returning id`,
      [tenant.tenantId, project, `pr-${n}`, n, `Change ${n}`, opened, ready, merged, reviewed],
    )).rows[0].id;
  };

  before(async () => {
    api = await testServer();
    tenant = await buildTenant(api.databaseUrl);
    pool = dbFor(api.databaseUrl).pool;
    const team = (await pool.query(`insert into teams (tenant_id, slug, name) values ($1, 'stored', 'Stored') returning id`, [tenant.tenantId])).rows[0].id;
    project = (await pool.query(`insert into projects (tenant_id, provider, project_key, source_type, owning_team_id) values ($1, 'manual', 'acme/stored', 'manual', $2) returning id`, [tenant.tenantId, team])).rows[0].id;
    await addPr(1, '2026-06-08T12:00:00Z', '2026-06-09T00:00:00Z', '2026-06-10T12:00:00Z', '2026-06-09T06:00:00Z');
    const commit = (await pool.query(`insert into commits (tenant_id, project_id, sha, committed_at, message) values ($1, $2, $3, '2026-06-07T12:00:00Z', 'Start') returning id`,
      [tenant.tenantId, project, '1'.repeat(40)])).rows[0].id;
    await pool.query(`insert into pull_request_commits (tenant_id, pull_request_id, commit_id) values ($1, $2, $3)`, [tenant.tenantId, pr[1], commit]);
    await pool.query(`insert into deployments (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task, is_production, created_at, metadata)
       values ($1, $2, 'api', 'd-1', 'main', $3, 'production', 'success', 'deploy', true, '2026-06-11T12:00:00Z', '{}')`,
      [tenant.tenantId, project, 'a'.repeat(40)]);
    await addPr(2, '2026-06-11T12:00:00Z', '2026-06-11T12:00:00Z', '2026-06-12T12:00:00Z', null);
  });

  after(async () => {
    await api?.close();
  });

  it('stores a merged PR\'s cycle time, phases, size and level as pull_requests computes them', async () => {
    const values = await stored();
    expect(values[1]).to.deep.equal({
      cycle_time_seconds: 48 * HOUR, coding_time_seconds: 36 * HOUR, pickup_time_seconds: 6 * HOUR, review_time_seconds: 30 * HOUR,
      deploy_time_seconds: 24 * HOUR, pr_size: 40, has_coding_time: true, is_reviewed: true, merged_without_review: false, is_deployed: true,
      is_reverted: false, ai_attribution: 'none',
    });
    expect(values[2]).to.include({ pickup_time_seconds: null, review_time_seconds: null, merged_without_review: true, is_deployed: false, pr_size: 40 });
  });

  it('follows a review before the merge delivered after it, a later ready time and a new size', async () => {
    await pool.query(`update pull_requests set first_review_at = '2026-06-12T00:00:00Z' where id = $1`, [pr[2]]);
    expect((await stored())[2]).to.include({ pickup_time_seconds: 12 * HOUR, review_time_seconds: 12 * HOUR, is_reviewed: true, merged_without_review: false });
    await pool.query(`update pull_requests set ready_at = '2026-06-11T18:00:00Z', additions = 100 where id = $1`, [pr[2]]);
    expect((await stored())[2]).to.include({ pickup_time_seconds: 6 * HOUR, pr_size: 110 });
  });

  it('leaves a PR whose values are not stored yet out of every count, and the rule file\'s application recomputes every stored PR', async () => {
    // As a row written before migration 0084 is until the catch-up has recomputed it.
    await pool.query(`update change_lead_times set cycle_time_seconds = null, coding_time_seconds = null, pickup_time_seconds = null, review_time_seconds = null,
      deploy_time_seconds = null, pr_size = null where pull_request_id = $1`, [pr[1]]);
    const counts = async () => {
      const res = await api.as(tenant.owner.apiKey).post('/cubejs-api/v1/load', {
        query: {
          measures: ['prs_merged', 'merged_without_review_prs', 'coding_time_count', 'pickup_time_count', 'deploy_time_count', 'reverted_prs'].map((m) => readAs(`pull_requests.${m}`)),
          timeDimensions: [{ dimension: 'change_lead_times.merged_at', dateRange: ['2026-06-01', '2026-06-30'] }],
        },
      });
      expect(res.status, res.text).to.equal(200);
      return Object.fromEntries(Object.entries(res.body.data[0] as Record<string, unknown>).map(([k, v]) => [k.slice('change_lead_times.'.length), Number(v)]));
    };
    expect(await counts()).to.deep.equal({ prs_merged: 1, merged_without_review_prs: 0, coding_time_count: 0, pickup_time_count: 1, deploy_time_count: 0, reverted_prs: 0 });
    // Applying the rule's file (as `migrate` does when it changed) notes every stored PR in its transaction.
    await pool.query(readFileSync(new URL('../../src/cube/sql/change_lead_times_refresh.sql', import.meta.url), 'utf8'));
    expect((await pool.query(`select count(*)::int as n from delivery_facts_pending where tenant_id = $1 and kind = 'p'`, [tenant.tenantId])).rows[0].n).to.be.at.least(2);
    expect(await counts()).to.deep.equal({ prs_merged: 2, merged_without_review_prs: 0, coding_time_count: 1, pickup_time_count: 2, deploy_time_count: 1, reverted_prs: 0 });
    expect((await stored())[1]).to.include({ cycle_time_seconds: 48 * HOUR, deploy_time_seconds: 24 * HOUR, pr_size: 40 });
  });

  it('follows the level when the PR becomes AI-assisted after its merge', async () => {
    await pool.query(`update pull_requests set labels = array['ai-assisted'] where id = $1`, [pr[2]]);
    const values = await stored();
    expect([values[1]!.ai_attribution, values[2]!.ai_attribution]).to.deep.equal(['none', 'medium']);
  });
});
