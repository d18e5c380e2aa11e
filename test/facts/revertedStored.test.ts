/**
 * Reverted within 30 days, stored (migration 0083, docs/pr-phases.md "Reverted, stored"): the flag
 * and its reason are computed by change_lead_times_refresh for the PRs the delivery facts' notes
 * name, and for those a noted PR may revert or had reverted. Every change that moves the rule's
 * answer arrives here after the PRs are stored, and `pull_requests.is_reverted` /
 * `reverted_because` (as /cubejs-api/v1/load answers them, which catches up first) follow it:
 *
 *   #1 "Add search" 06-02; #3 "Revert \"Add search\"" 06-05 → #1 reverted by #3 (title);
 *      #3 renamed "Revert search" → #1 not reverted
 *   #2 "Tweak" 06-03 with commit 2222…; #4 "Undo" 06-06 with a commit "This reverts commit 2222222."
 *      → #2 reverted by #4 (commit); its message edited → not reverted; edited back → reverted;
 *      #4 deleted → not reverted
 *   #6 "Revert \"Late\"" 06-10 stored before #5 "Late" 06-08 → #5 reverted by #6
 *   #7 "Old" 05-01; #8 "Revert \"Old\"" 06-09: more than 30 days → #7 not reverted
 */
import { expect } from 'chai';
import type pg from 'pg';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';

describe('Reverted within 30 days, stored per PR, follows every change written after the PRs', function () {
  this.timeout(120_000);
  let api: TestServer;
  let tenant: BuiltTenant;
  let pool: pg.Pool;
  let project: string;
  const pr: Record<number, string> = {};
  let undo: string;

  /** Each merged PR's reason (null: not reverted) as the cube answers it; the flag must agree. */
  const reverted = async (): Promise<Record<number, string | null>> => {
    const res = await api.as(tenant.owner.apiKey).post('/cubejs-api/v1/load', {
      query: {
        dimensions: ['pull_requests.id', 'pull_requests.number', 'pull_requests.is_reverted', 'pull_requests.reverted_because'],
        timeDimensions: [{ dimension: 'pull_requests.merged_at', dateRange: ['2026-05-01', '2026-06-30'] }],
        filters: [{ member: 'pull_requests.is_merged', operator: 'equals', values: ['true'] }],
        ungrouped: true,
      },
    });
    expect(res.status, res.text).to.equal(200);
    const rows = res.body.data as Record<string, unknown>[];
    for (const r of rows) expect(r['pull_requests.is_reverted'], `#${r['pull_requests.number']}`).to.equal(r['pull_requests.reverted_because'] !== null);
    return Object.fromEntries(rows.map((r) => [Number(r['pull_requests.number']), r['pull_requests.reverted_because'] as string | null]));
  };

  const addPr = async (n: number, title: string, mergedAt: string) => {
    pr[n] = (await pool.query(
      `insert into pull_requests (tenant_id, project_id, external_id, number, title, state, additions, deletions, created_at, merged_at)
       values ($1, $2, $3, $4, $5, 'merged', 1, 0, '2026-04-01T00:00:00Z', $6) returning id`,
      [tenant.tenantId, project, `pr-${n}`, n, title, mergedAt],
    )).rows[0].id;
  };
  const addCommit = async (n: number, sha: string, message: string): Promise<string> => {
    const id = (await pool.query(
      `insert into commits (tenant_id, project_id, sha, committed_at, message) values ($1, $2, $3, '2026-04-02T00:00:00Z', $4) returning id`,
      [tenant.tenantId, project, sha, message],
    )).rows[0].id;
    await pool.query(`insert into pull_request_commits (tenant_id, pull_request_id, commit_id) values ($1, $2, $3)`, [tenant.tenantId, pr[n], id]);
    return id;
  };

  before(async () => {
    api = await testServer();
    tenant = await buildTenant(api.databaseUrl);
    pool = dbFor(api.databaseUrl).pool;
    project = (await pool.query(`insert into projects (tenant_id, provider, project_key, source_type) values ($1, 'manual', 'acme/reverts', 'manual') returning id`, [tenant.tenantId])).rows[0].id;
    await addPr(1, 'Add search', '2026-06-02T12:00:00Z');
    await addPr(2, 'Tweak', '2026-06-03T12:00:00Z');
    await addCommit(2, '2'.repeat(40), 'Tweak the ranking');
    await addPr(7, 'Old', '2026-05-01T12:00:00Z');
    expect(await reverted()).to.deep.equal({ 1: null, 2: null, 7: null });
  });

  after(async () => {
    await api?.close();
  });

  it('follows a revert by title stored after the PR, and its title changed', async () => {
    await addPr(3, 'Revert "Add search"', '2026-06-05T12:00:00Z');
    expect((await reverted())[1]).to.equal('reverted by #3 on 2026-06-05: title Revert "Add search"');
    await pool.query(`update pull_requests set title = 'Revert search' where id = $1`, [pr[3]]);
    expect((await reverted())[1]).to.equal(null);
  });

  it("follows a revert commit linked later, its message edited and edited back, and the reverting PR's deletion", async () => {
    await addPr(4, 'Undo', '2026-06-06T12:00:00Z');
    undo = await addCommit(4, '4'.repeat(40), 'Undo tweak\n\nThis reverts commit 2222222.');
    const because = `reverted by #4 on 2026-06-06: commit 4444444 reverts 2222222`;
    expect((await reverted())[2]).to.equal(because);
    await pool.query(`update commits set message = 'Undo tweak' where id = $1`, [undo]);
    expect((await reverted())[2]).to.equal(null);
    await pool.query(`update commits set message = 'Undo tweak\n\nThis reverts commit 2222222.' where id = $1`, [undo]);
    expect((await reverted())[2]).to.equal(because);
    await pool.query(`delete from pull_requests where id = $1`, [pr[4]]);
    expect((await reverted())[2]).to.equal(null);
  });

  it('finds the reverting PR stored before the PR it reverts, and not one more than 30 days after', async () => {
    await addPr(6, 'Revert "Late"', '2026-06-10T12:00:00Z');
    await addPr(5, 'Late', '2026-06-08T12:00:00Z');
    await addPr(8, 'Revert "Old"', '2026-06-09T12:00:00Z');
    expect(await reverted()).to.deep.equal({ 1: null, 2: null, 3: null, 5: 'reverted by #6 on 2026-06-10: title Revert "Late"', 6: null, 7: null, 8: null });
  });

  it('goes with its tenant, whose cascading deletes note nothing', async () => {
    await pool.query('delete from tenants where id = $1', [tenant.tenantId]);
    const left = (await pool.query(`select (select count(*) from change_lead_times where tenant_id = $1)::int
      + (select count(*) from delivery_facts_pending where tenant_id = $1)::int as n`, [tenant.tenantId])).rows[0].n;
    expect(left).to.equal(0);
  });
});
