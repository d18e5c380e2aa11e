/**
 * The stored AI attribution level (migration 0080, docs/ai-attribution.md "The stored level"):
 * `pull_requests.ai_attribution` and `change_lead_times.ai_attribution` read the level kept per PR
 * in pull_request_ai_levels, which the deferred notes recompute from pull_request_attribution when
 * an input of the level is written. Every input arrives here after the PR is stored, and the
 * cube's answer (and the stored row, which must equal the view's level) follows it:
 *
 *   #1 no signal → none; an uploaded session linked to it → high; the link deleted → none
 *   #2 commit k2 → none; k2 gets a Co-authored-by AI trailer → medium
 *   #3 label "ours" → none; the owner's label setting "ours" → medium; the setting removed → none
 *   #4 commit k4 by zed on 05-06 → none; a vendor's day of zed's (login) on 05-06 → low; a second
 *      PR k4's sha has vendor AI lines → high
 *   #5 commit k5 by yan (e-mail yan@laptop) on 05-07, an upload of Yan (user yan-…@example.com)
 *      that day → none (no identity ties them); the register ties login yan to that e-mail → low
 *   #6 head branch main → none; renamed copilot/x → medium
 * All merged in 2026-05 and shipped by one production deployment (so change_lead_times has them).
 */
import { expect } from 'chai';
import type pg from 'pg';
import { buildMember, buildTenant, dbFor, type BuiltTenant, type BuiltUser } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';

const MAY = ['2026-05-01', '2026-05-31'];

describe('AI attribution: the stored level follows every input written after the PR', function () {
  this.timeout(120_000);
  let api: TestServer;
  let tenant: BuiltTenant;
  let yan: BuiltUser;
  let pool: pg.Pool;
  let project: string;
  const pr: Record<number, string> = {};
  const commit: Record<string, string> = {};

  /** Each PR's level as the cube answers it, on both cubes (they must agree). */
  const levels = async (): Promise<Record<number, string>> => {
    const answer = async (cube: string) => {
      const res = await api.as(tenant.owner.apiKey).post('/cubejs-api/v1/load', {
        query: { dimensions: [`${cube}.id`, `${cube}.number`, `${cube}.ai_attribution`], timeDimensions: [{ dimension: `${cube}.merged_at`, dateRange: MAY }], ungrouped: true },
      });
      expect(res.status, res.text).to.equal(200);
      return Object.fromEntries((res.body.data as Record<string, unknown>[]).map((r) => [Number(r[`${cube}.number`]), String(r[`${cube}.ai_attribution`])]));
    };
    const prs = await answer('pull_requests');
    expect(await answer('change_lead_times')).to.deep.equal(prs);
    // The stored rows are the view's level (the rule's one definition), caught up by the read above.
    const { rows } = await pool.query(
      `select pr.number, s.ai_attribution as stored, a.ai_attribution as rule from pull_requests pr
       left join pull_request_ai_levels s on s.pull_request_id = pr.id join pull_request_attribution a on a.pull_request_id = pr.id
       where pr.tenant_id = $1 order by pr.number`, [tenant.tenantId]);
    for (const r of rows) expect(r.stored, `PR #${r.number}`).to.equal(r.rule);
    return prs;
  };
  const level = async (n: number) => (await levels())[n];

  const addPr = async (n: number, extra: { labels?: string[]; branch?: string; author?: string } = {}) => {
    pr[n] = (await pool.query(
      `insert into pull_requests (tenant_id, project_id, external_id, number, title, state, additions, deletions, created_at, merged_at, labels, head_branch, author_username)
       values ($1, $2, $3, $4, $5, 'merged', 10, 0, '2026-05-01T00:00:00Z', $6, $7, $8, $9) returning id`,
      [tenant.tenantId, project, `pr-${n}`, n, `change ${n}`, `2026-05-0${Math.min(n + 1, 9)}T12:00:00Z`, extra.labels ?? [], extra.branch ?? `feat-${n}`, extra.author ?? 'ann'],
    )).rows[0].id;
  };
  const addCommit = async (name: string, n: number, at: string, author: { login: string; email: string }) => {
    commit[name] = (await pool.query(
      `insert into commits (tenant_id, project_id, sha, committed_at, message, author_username, author_email) values ($1, $2, $3, $4, 'work', $5, $6) returning id`,
      [tenant.tenantId, project, name.repeat(20), at, author.login, author.email],
    )).rows[0].id;
    await pool.query(`insert into pull_request_commits (tenant_id, pull_request_id, commit_id) values ($1, $2, $3)`, [tenant.tenantId, pr[n], commit[name]]);
  };

  before(async () => {
    api = await testServer();
    tenant = await buildTenant(api.databaseUrl);
    yan = await buildMember(api.databaseUrl, tenant.tenantId, 'member', `yan-${Date.now()}@example.com`);
    pool = dbFor(api.databaseUrl).pool;
    project = (await pool.query(`insert into projects (tenant_id, provider, project_key, source_type) values ($1, 'manual', 'acme/levels', 'manual') returning id`, [tenant.tenantId])).rows[0].id;
    for (const n of [1, 2, 3, 4, 5]) await addPr(n, n === 3 ? { labels: ['Ours'] } : n === 4 ? { author: 'zed' } : n === 5 ? { author: 'yan' } : {});
    await addPr(6, { branch: 'main' });
    await addCommit('k2', 2, '2026-05-02T09:00:00Z', { login: 'ann', email: 'ann@example.com' });
    await addCommit('k4', 4, '2026-05-06T09:00:00Z', { login: 'zed', email: 'zed@example.com' });
    await addCommit('k5', 5, '2026-05-07T09:00:00Z', { login: 'yan', email: 'yan@laptop' });
    await pool.query(`insert into deployments (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task, created_at)
       values ($1, $2, 'manual', 'd-1', 'main', $3, 'production', 'success', 'deploy', '2026-05-31T00:00:00Z')`,
      [tenant.tenantId, project, 'f'.repeat(40)]);
    expect(await levels()).to.deep.equal({ 1: 'none', 2: 'none', 3: 'none', 4: 'none', 5: 'none', 6: 'none' });
  });

  after(async () => {
    await api?.close();
  });

  it('follows a session linked to the PR after it was stored, and unlinked', async () => {
    const session = (await pool.query(`insert into ai_sessions (id, tenant_id, user_id, tool, started_at) values (gen_random_uuid(), $1, $2, 'claude-code', '2026-04-20T00:00:00Z') returning id`,
      [tenant.tenantId, yan.userId])).rows[0].id;
    await pool.query(`insert into ai_session_links (tenant_id, session_id, pull_request_id, linked_by) values ($1, $2, $3, 'pr_number')`, [tenant.tenantId, session, pr[1]]);
    expect(await level(1)).to.equal('high');
    await pool.query(`delete from ai_session_links where session_id = $1`, [session]);
    expect(await level(1)).to.equal('none');
  });

  it('follows an AI trailer found on a commit of the PR later', async () => {
    await pool.query(`update commits set ai_coauthors = array['Claude <noreply@anthropic.com>'] where id = $1`, [commit.k2]);
    expect(await level(2)).to.equal('medium');
  });

  it("follows the owner's own labels, added and removed (tenant-wide)", async () => {
    const put = (labels: string[]) => api.as(tenant.owner.apiKey).put('/api/ai/attribution/settings', { labels });
    const res = await put(['ours']);
    expect(res.status, res.text).to.equal(200);
    expect(await level(3)).to.equal('medium');
    expect((await put([])).status).to.equal(200);
    expect(await level(3)).to.equal('none');
  });

  it("follows the author's AI activity on a commit day (low), then vendor lines on the commit (high)", async () => {
    await pool.query(`insert into ai_vendor_days (tenant_id, source, day, person_key, person_login, sessions) values ($1, 'copilot', '2026-05-06', 'login:zed', 'zed', 1)`, [tenant.tenantId]);
    expect(await level(4)).to.equal('low');
    await pool.query(`insert into ai_vendor_commits (tenant_id, source, sha, ai_lines_added, tab_lines_added, total_lines_added) values ($1, 'cursor', $2, 5, 5, 10)`, [tenant.tenantId, 'k4'.repeat(20)]);
    expect(await level(4)).to.equal('high');
  });

  it('follows the register tying the author to the e-mail of an upload that day', async () => {
    await pool.query(`insert into ai_sessions (id, tenant_id, user_id, tool, started_at) values (gen_random_uuid(), $1, $2, 'cursor', '2026-05-07T15:00:00Z')`, [tenant.tenantId, yan.userId]);
    expect(await level(5)).to.equal('none');
    const person = (await pool.query(`insert into people (tenant_id, external_ref, email, display_name, employment_type) values ($1, 'yan', $2, 'Yan', 'employee') returning id`,
      [tenant.tenantId, yan.email])).rows[0].id;
    await pool.query(`insert into person_identities (tenant_id, person_id, kind, value) values ($1, $2, 'email', $3), ($1, $2, 'codehost_username', 'yan')`, [tenant.tenantId, person, yan.email]);
    expect(await level(5)).to.equal('low');
  });

  it('follows a head branch renamed to an agent prefix', async () => {
    await pool.query(`update pull_requests set head_branch = 'copilot/x' where id = $1`, [pr[6]]);
    expect(await levels()).to.deep.equal({ 1: 'none', 2: 'medium', 3: 'none', 4: 'high', 5: 'low', 6: 'medium' });
  });

  it("goes with its tenant, whose cascading deletes note nothing", async () => {
    await pool.query('delete from tenants where id = $1', [tenant.tenantId]);
    const left = (await pool.query(`select (select count(*) from pull_request_ai_levels where tenant_id = $1)::int
      + (select count(*) from delivery_facts_pending where tenant_id = $1)::int as n`, [tenant.tenantId])).rows[0].n;
    expect(left).to.equal(0);
  });
});
