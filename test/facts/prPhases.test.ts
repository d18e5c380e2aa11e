/**
 * PR phases and rework (issue 47 points 1 and 2; METRICS.md "PR phases", "Rework";
 * docs/pr-phases.md), seeded as users run the product: PRs, pushes and reviews through the code
 * host's signed webhook (GitHub-shaped payloads), deployments through the webhook API. One
 * repository, acme/app, owned by team core; author ann, reviewers bob and cat.
 *
 * Hand-worked, March 2026 (UTC):
 *   #1 "Add search": commit 03-02 08:00, opened 03-02 10:00; bob changes requested 03-02 14:00,
 *      review re-requested 03-03 09:00, bob approved 03-03 10:00; merged 03-03 12:00; shipped by
 *      d2 03-03 15:00. coding 2 h, pickup 4 h, review 22 h (from the first review), deploy 3 h.
 *   #2 "Draft feature": commit 03-04 18:00, opened as a draft 03-05 09:00, ready 03-06 09:00; cat
 *      approved 03-06 11:00; merged 03-06 13:00; d3 14:00 failed, d4 16:00 ships it. coding 39 h,
 *      pickup 2 h, review 2 h, deploy 3 h.
 *   #3 "Self reviewed": opened 03-10 09:00; ann (its author) commented 10:00, dependabot[bot]
 *      approved 10:30: no review counts, merged 03-10 12:00 without review; no commit known (no
 *      coding time); d5 03-11 00:00 ships it: deploy 12 h.
 *   #4 'Revert "Add search"': opened 03-12 09:00, merged 10:00 without review, shipped by d6 (12:00,
 *      a rollback of d5's sha): deploy 2 h. Reverts #1 by its title (9 days after #1's merge).
 *   #5 "Undo tweak": commit 03-19 15:00 "This reverts commit <#2's commit>", opened 03-20 09:00, bob
 *      approved 10:00, merged 11:00; undeployed. coding 18 h, pickup 1 h, review 1 h. Reverts #2.
 *   Medians: coding {2, 39, 18} → 18 h (n 3); pickup {4, 2, 1} → 2 h (n 3); review {22, 2, 1} → 2 h
 *   (n 3); deploy {3, 3, 12, 2} → 3 h (n 4). Size {120, 50, 10, 120, 40} → 50. Merged without
 *   review 2 of 5 (0.4). Reverted 2 (#1, #2).
 *   Reviews given: bob 3 (the re-requested review counts again), cat 1; ann's own and the bot's not:
 *   4 reviews, 2 reviewers, 2 per reviewer.
 * Deployments (production): d1 03-01 success; d2 03-03 15:00 success; d3 03-06 14:00 failure; d4
 *   03-06 16:00 success (recovers d3); d5 03-11 success (rolled back by d6 → failed); d6 03-12 12:00
 *   success, rollback from d5's sha, and the recovery of d5. Finished 6, rework 2 (d4, d6): 1/3.
 */
import { expect } from 'chai';
import pg from 'pg';
import { grantBiCredential, revokeBiCredential } from '../../src/bi/credentials.js';
import { biUrl } from '../bi/biUrl.js';
import { buildMember, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { announceInstallation, codehostEnv, deliver, fixture } from '../activity/helpers.js';
import { mcpClients, structured } from '../mcp/mcpClient.js';

const H = 3600;
const REPO = 'acme/app';
const MARCH = ['2026-03-01', '2026-03-31'];
const hex = (c: string) => c.repeat(40);
const T = (day: string, time: string) => `2026-03-${day}T${time}:00Z`;

describe('PR phases and rework: a hand-worked month through the webhooks, the cube, the lists, MCP and bi', function () {
  this.timeout(180_000);
  let api: TestServer;
  let tenant: BuiltTenant;
  let other: BuiltTenant;
  let cubeKey: string;
  let installationId: number;

  const send = async (event: string, payload: object) => {
    const r = await deliver(api, event, payload, { installationId });
    expect(r.status, r.text).to.equal(200);
  };
  const prEvent = (action: string, n: number, fields: Record<string, unknown>) => {
    const event = fixture('pull_request.opened');
    event.action = action;
    event.repository.full_name = REPO;
    Object.assign(event.pull_request, {
      id: installationId * 10 + n, number: n, html_url: `https://github.com/${REPO}/pull/${n}`, user: { login: 'ann', type: 'User' }, commits: 1, changed_files: 1,
      head: { ...event.pull_request.head, ref: `f${n}`, sha: hex(String(n)), repo: { ...event.pull_request.head.repo, full_name: REPO } },
      merge_commit_sha: null, ...fields,
    });
    return event;
  };
  const opened = (n: number, title: string, at: string, size: [number, number], draft = false) =>
    send('pull_request', prEvent('opened', n, { title, created_at: at, updated_at: at, draft, additions: size[0], deletions: size[1] }));
  const merged = (n: number, title: string, openedAt: string, at: string, size: [number, number]) =>
    send('pull_request', prEvent('closed', n, { title, state: 'closed', created_at: openedAt, updated_at: at, closed_at: at, merged_at: at, merged: true, merge_commit_sha: hex(String.fromCharCode(96 + n)), additions: size[0], deletions: size[1] }));
  const review = (n: number, id: number, login: string, state: string, at: string, type = 'User') =>
    send('pull_request_review', { action: 'submitted', repository: { full_name: REPO }, review: { id, user: { login, type }, state, submitted_at: at }, pull_request: { number: n, updated_at: at } });
  const push = (branch: string, sha: string, at: string, message: string) => {
    const event = fixture('push');
    event.ref = `refs/heads/${branch}`;
    event.repository.full_name = REPO;
    event.commits = [{ ...event.commits[0], id: sha, message, timestamp: at, author: { name: 'Ann', email: 'ann@acme.example', username: 'ann' } }];
    event.head_commit = event.commits[0];
    return send('push', event);
  };

  before(async () => {
    api = await testServer({ env: codehostEnv() });
    tenant = await buildTenant(api.databaseUrl);
    other = await buildTenant(api.databaseUrl);
    cubeKey = (await buildMember(api.databaseUrl, tenant.tenantId)).apiKey;
    const owner = api.as(tenant.owner.apiKey);
    const { pool } = dbFor(api.databaseUrl);
    const [team] = (await pool.query(`insert into teams (tenant_id, slug, name) values ($1, 'core', 'Core') returning id`, [tenant.tenantId])).rows;
    expect((await owner.patch(`/api/teams/${team.id}`, { projects: [REPO] })).status).to.equal(200);
    installationId = Number.parseInt(tenant.tenantId.replace(/-/g, '').slice(0, 7), 16);
    await announceInstallation(api.databaseUrl, installationId);
    expect((await owner.post('/api/integrations/codehost/installations', { installationId })).status).to.equal(201);

    const deploy = async (externalId: string, createdAt: string, status: string, sha: string, extra: Record<string, unknown> = {}) => {
      const r = await owner.post('/api/webhooks/v1/deployments', { projectKey: REPO, externalId, ref: 'main', sha, environment: 'production', status, createdAt, ...extra });
      expect(r.status, r.text).to.be.oneOf([200, 201]);
    };

    // #1: re-requested review.
    await push('f1', hex('1'), T('02', '08:00'), 'Add search');
    await opened(1, 'Add search', T('02', '10:00'), [100, 20]);
    await send('pull_request', { ...prEvent('review_requested', 1, { title: 'Add search', created_at: T('02', '10:00'), updated_at: T('02', '11:00'), additions: 100, deletions: 20 }), requested_reviewer: { login: 'bob' } });
    await review(1, 101, 'bob', 'changes_requested', T('02', '14:00'));
    await send('pull_request', { ...prEvent('review_requested', 1, { title: 'Add search', created_at: T('02', '10:00'), updated_at: T('03', '09:00'), additions: 100, deletions: 20 }), requested_reviewer: { login: 'bob' } });
    await review(1, 102, 'bob', 'approved', T('03', '10:00'));
    await merged(1, 'Add search', T('02', '10:00'), T('03', '12:00'), [100, 20]);
    // #2: a draft made ready.
    await push('f2', hex('2'), T('04', '18:00'), 'Draft feature');
    await opened(2, 'Draft feature', T('05', '09:00'), [40, 10], true);
    await send('pull_request', prEvent('ready_for_review', 2, { title: 'Draft feature', created_at: T('05', '09:00'), updated_at: T('06', '09:00'), draft: false, additions: 40, deletions: 10 }));
    await review(2, 201, 'cat', 'approved', T('06', '11:00'));
    await merged(2, 'Draft feature', T('05', '09:00'), T('06', '13:00'), [40, 10]);
    // #3: a self-review and a bot's approval, neither a review.
    await opened(3, 'Self reviewed', T('10', '09:00'), [5, 5]);
    await review(3, 301, 'ann', 'commented', T('10', '10:00'));
    await review(3, 302, 'dependabot[bot]', 'approved', T('10', '10:30'), 'Bot');
    await merged(3, 'Self reviewed', T('10', '09:00'), T('10', '12:00'), [5, 5]);
    // #4 reverts #1 by its title; #5 reverts #2 by a commit naming #2's commit. The review of #5
    // arrives before the PR itself.
    await merged(4, 'Revert "Add search"', T('12', '09:00'), T('12', '10:00'), [20, 100]);
    await push('f5', hex('5'), T('19', '15:00'), `Undo tweak\n\nThis reverts commit ${hex('2')}.`);
    await review(5, 501, 'bob', 'approved', T('20', '10:00'));
    await opened(5, 'Undo tweak', T('20', '09:00'), [10, 30]);
    await merged(5, 'Undo tweak', T('20', '09:00'), T('20', '11:00'), [10, 30]);

    await deploy('d1', T('01', '00:00'), 'success', hex('a'));
    await deploy('d2', T('03', '15:00'), 'success', hex('b'));
    await deploy('d3', T('06', '14:00'), 'failure', hex('c'));
    await deploy('d4', T('06', '16:00'), 'success', hex('d'));
    await deploy('d5', T('11', '00:00'), 'success', hex('e'));
    await deploy('d6', T('12', '12:00'), 'success', hex('a'), { isRollback: true, rollbackFromSha: 'eeeeeee' });
    // Tenant B: a PR of its own in March.
    const b = await api.as(other.owner.apiKey).post('/api/webhooks/v1/deployments', { projectKey: REPO, externalId: 'b1', ref: 'main', sha: hex('b'), environment: 'production', status: 'success', isRollback: true, rollbackFromSha: 'bbbbbbb', createdAt: T('05', '00:00') });
    expect(b.status).to.equal(201);
  });
  const mcp = mcpClients(() => api.baseUrl);
  after(async () => {
    await mcp.closeAll();
    await api?.close();
  });

  const MEASURES = {
    'pull_requests.coding_time_p50_seconds': 18 * H, 'pull_requests.coding_time_count': 3,
    'pull_requests.pickup_time_p50_seconds': 2 * H, 'pull_requests.pickup_time_count': 3,
    'pull_requests.review_time_p50_seconds': 2 * H, 'pull_requests.review_time_count': 3,
    'pull_requests.deploy_time_p50_seconds': 3 * H, 'pull_requests.deploy_time_count': 4,
    'pull_requests.pr_size_p50': 50, 'pull_requests.prs_merged': 5,
    'pull_requests.merged_without_review_prs': 2, 'pull_requests.merged_without_review_share': 0.4, 'pull_requests.reverted_prs': 2,
  };
  const load = async (query: Record<string, unknown>, key = cubeKey) => {
    const r = await api.as(key).post('/cubejs-api/v1/load', { query });
    expect(r.status, r.text).to.equal(200);
    return r.body.data as Record<string, unknown>[];
  };
  const numbers = (row: Record<string, unknown> | undefined) => Object.fromEntries(Object.entries(row ?? {}).filter(([k]) => !k.includes('merged_at')).map(([k, v]) => [k, Number(v)]));

  it('every new measure, organisation-wide and for the team, is the hand-worked value through /cubejs-api/v1/load', async () => {
    for (const filters of [[], [{ member: 'teams.slug', operator: 'equals', values: ['core'] }]]) {
      const [prs] = await load({ measures: Object.keys(MEASURES), timeDimensions: [{ dimension: 'pull_requests.merged_at', dateRange: MARCH }], filters });
      expect(numbers(prs)).to.deep.equal(MEASURES);
      const [deployments] = await load({ measures: ['deployments.rework_rate', 'deployments.rework_deploys', 'deployments.finished_production_deploys'], timeDimensions: [{ dimension: 'deployments.created_at', dateRange: MARCH }], filters });
      expect(Number(deployments!['deployments.rework_rate'])).to.be.closeTo(1 / 3, 1e-9);
      expect(numbers(deployments)).to.include({ 'deployments.rework_deploys': 2, 'deployments.finished_production_deploys': 6 });
      const [reviews] = await load({ measures: ['pull_request_reviews.reviews_given', 'pull_request_reviews.reviewers', 'pull_request_reviews.reviews_per_reviewer'], timeDimensions: [{ dimension: 'pull_request_reviews.submitted_at', dateRange: MARCH }], filters });
      expect(numbers(reviews)).to.deep.equal({ 'pull_request_reviews.reviews_given': 4, 'pull_request_reviews.reviewers': 2, 'pull_request_reviews.reviews_per_reviewer': 2 });
    }
    // By month, the stacked bar's query: March has the four medians, with their n.
    const byMonth = await load({ measures: ['pull_requests.coding_time_p50_seconds', 'pull_requests.deploy_time_p50_seconds'], timeDimensions: [{ dimension: 'pull_requests.merged_at', granularity: 'month', dateRange: ['2026-02-01', '2026-03-31'] }] });
    expect(byMonth.map((r) => [String(r['pull_requests.merged_at.month']).slice(0, 7), Number(r['pull_requests.coding_time_p50_seconds'])])).to.deep.equal([['2026-03', 18 * H]]);
    // Tenant B sees only its own: one rollback, no PR.
    const [b] = await load({ measures: ['deployments.rework_deploys', 'pull_requests.prs_merged'], timeDimensions: [{ dimension: 'deployments.created_at', dateRange: MARCH }] }, other.owner.apiKey);
    expect(numbers(b)).to.deep.equal({ 'deployments.rework_deploys': 1, 'pull_requests.prs_merged': 0 });
  });

  const facts = async (measure: string, team = '') => {
    const r = await api.as(tenant.owner.apiKey).get(`/api/facts?measure=${measure}&from=2026-03&to=2026-03${team}`);
    expect(r.status, r.text).to.equal(200);
    return r.body as { data: Record<string, unknown>[]; meta: { total: number; marked: number; markedColumn: string | null } };
  };

  it('each PR with its four phase times; every phase list adds up to its n and holds the values its median takes', async () => {
    const all = await facts('pull_requests.pr_size_p50', '&team=core');
    expect(all.meta.total).to.equal(5);
    expect(all.data.map((r) => [r.number, r.codingTimeSeconds, r.pickupTimeSeconds, r.reviewTimeSeconds, r.deployTimeSeconds, r.size, r.mergedWithoutReview, r.deployment])).to.deep.equal([
      [5, 18 * H, 1 * H, 1 * H, null, 40, false, null],
      [4, null, null, null, 2 * H, 120, true, 'd6'],
      [3, null, null, null, 12 * H, 10, true, 'd5'],
      [2, 39 * H, 2 * H, 2 * H, 3 * H, 50, false, 'd4'],
      [1, 2 * H, 4 * H, 22 * H, 3 * H, 120, false, 'd2'],
    ]);
    expect(all.data[3]).to.include({ readyAt: '2026-03-06T09:00:00.000Z', firstCommitAt: '2026-03-04T18:00:00.000Z', firstReviewAt: '2026-03-06T11:00:00.000Z' });
    expect(all.data[4]).to.include({ readyAt: '2026-03-02T10:00:00.000Z', firstReviewAt: '2026-03-02T14:00:00.000Z' });
    const phases: [string, string, number[]][] = [
      ['coding', 'codingTimeSeconds', [18, 39, 2]], ['pickup', 'pickupTimeSeconds', [1, 2, 4]], ['review', 'reviewTimeSeconds', [1, 2, 22]], ['deploy', 'deployTimeSeconds', [2, 12, 3, 3]],
    ];
    for (const [phase, key, hours] of phases) {
      for (const measure of [`pull_requests.${phase}_time_p50_seconds`, `pull_requests.${phase}_time_count`]) {
        const list = await facts(measure);
        expect(list.meta.total, measure).to.equal(MEASURES[`pull_requests.${phase}_time_count` as keyof typeof MEASURES]);
        expect(list.data.map((r) => r[key]), measure).to.deep.equal(hours.map((h) => h * H));
      }
    }
  });

  it('merged without review marks its PRs; reverted PRs and rework deployments say the rule that counted them', async () => {
    const share = await facts('pull_requests.merged_without_review_share');
    expect(share.meta).to.include({ total: 5, marked: 2, markedColumn: 'mergedWithoutReview' });
    expect(share.data.filter((r) => r.mergedWithoutReview).map((r) => r.number)).to.deep.equal([4, 3]);
    const reverted = await facts('pull_requests.reverted_prs', '&team=core');
    expect(reverted.meta.total).to.equal(2);
    expect(reverted.data.map((r) => [r.number, r.reverted, r.revertedBecause])).to.deep.equal([
      [2, true, `reverted by #5 on 2026-03-20: commit ${hex('5').slice(0, 7)} reverts ${hex('2').slice(0, 7)}`],
      [1, true, 'reverted by #4 on 2026-03-12: title Revert "Add search"'],
    ]);
    const rework = await facts('deployments.rework_rate', '&team=core');
    expect(rework.meta).to.include({ total: 6, marked: 2, markedColumn: 'rework' });
    expect(rework.data.map((r) => [r.externalId, r.rework, r.reworkBecause])).to.deep.equal([
      ['d6', true, 'rollback from eeeeeee; recovery after d5 failed'],
      ['d5', false, null], ['d4', true, 'recovery after d3 failed'], ['d3', false, null], ['d2', false, null], ['d1', false, null],
    ]);
    const reviewers = await facts('pull_request_reviews.reviews_per_reviewer');
    expect(reviewers.data.map((r) => [r.reviewer, r.reviews])).to.deep.equal([['bob', 3], ['cat', 1]]);
    const reviews = await facts('pull_request_reviews.reviews_given', '&team=core');
    expect(reviews.data.map((r) => [r.number, r.reviewer, r.verdict])).to.deep.equal([[5, 'bob', 'approved'], [2, 'cat', 'approved'], [1, 'bob', 'approved'], [1, 'bob', 'changes_requested']]);
    const b = await api.as(other.owner.apiKey).get('/api/facts?measure=pull_requests.reverted_prs&from=2026-03&to=2026-03');
    expect(b.body.data).to.deep.equal([]);
  });

  it('MCP answers the members, and the bi views give the same numbers as the tenant\'s BI role', async () => {
    const client = await mcp.connect(tenant.owner.apiKey);
    const answer = structured(await client.callTool({ name: 'cube_query', arguments: { measures: ['pull_requests.pickup_time_p50_seconds', 'pull_requests.pickup_time_count', 'deployments.rework_rate'], timeDimensions: [{ dimension: 'pull_requests.merged_at', dateRange: MARCH }] } }));
    expect(Number(answer.rows[0]['pull_requests.pickup_time_p50_seconds'])).to.equal(2 * H);
    expect(Number(answer.rows[0]['pull_requests.pickup_time_count'])).to.equal(3);

    const { pool } = dbFor(api.databaseUrl);
    const { credential, password } = await grantBiCredential(pool, { tenantId: tenant.tenantId, name: 'Phases' });
    const bi = new pg.Client({ connectionString: biUrl(api.databaseUrl, credential.user, password) });
    await bi.connect();
    try {
      const { rows } = await bi.query(`select percentile_cont(0.5) within group (order by pickup_time_seconds) filter (where in_pickup_time_count) as pickup,
          count(*) filter (where in_merged_without_review_prs) as unreviewed, count(*) filter (where in_reverted_prs) as reverted
        from bi.pull_requests where merged_at >= '2026-03-01' and merged_at < '2026-04-01'`);
      expect(rows.map((r) => [Number(r.pickup), Number(r.unreviewed), Number(r.reverted)])).to.deep.equal([[2 * H, 2, 2]]);
      const rework = await bi.query(`select count(*) filter (where in_rework_deploys)::int as rework, count(*) filter (where in_finished_production_deploys)::int as finished
        from bi.deployments where created_at >= '2026-03-01' and created_at < '2026-04-01'`);
      expect(rework.rows).to.deep.equal([{ rework: 2, finished: 6 }]);
    } finally {
      await bi.end();
      await revokeBiCredential(pool, tenant.tenantId, credential.id);
    }
  });
});
