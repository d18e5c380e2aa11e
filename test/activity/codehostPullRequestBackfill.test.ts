/**
 * The backfill of pull requests and their reviews (issue 47 point 1; docs/codehost-deployments-backfill.md
 * "Backfill", docs/pr-phases.md): a newly connected repository gets its last 90 days of PRs, reviews
 * and commits from the code host's REST API (fake, pages of 2), through the webhook path's functions,
 * in the same job as its deployments, and the phase medians come out of the cube.
 *
 * acme/shop, author ann; `d` days ago at hh:00 UTC (D(d, hh)). Deployments (production, success):
 * d1 D(59,15), d2 D(49,16), d3 D(40,16), d4 D(20,12).
 *   #1 "Add search": commit D(60,08), opened D(60,10); bob asked D(60,11), changes requested D(60,14),
 *      asked again D(59,09), approved D(59,10); merged D(59,12). coding 2 h, pickup 4 h, review 22 h, deploy 3 h (d1).
 *   #2 "Draft feature": commit D(51,18), opened as a draft D(50,09), ready D(49,09); cat approved D(49,11);
 *      merged D(49,13). coding 39 h, pickup 2 h, review 2 h, deploy 3 h (d2).
 *   #3 "Self reviewed": commit D(40,07), opened D(40,09); ann (the author) commented D(40,10), bob
 *      approved D(40,13); merged D(40,15). coding 2 h, pickup 4 h (not 1 h: ann's own review is no
 *      pickup), review 2 h, deploy 1 h (d3).
 *   #4 "Webhook first": opened D(20,09) and dan's approval D(20,10) delivered by the webhook before
 *      the backfill; commit D(20,08); merged D(20,11). coding 1 h, pickup 1 h, review 1 h, deploy 1 h (d4).
 *   #5 merged D(100,..): outside the window, not read. #6 closed unmerged D(95,..) and edited
 *   D(10,..): listed (updated in the window) but left out (closed before it). #7 open since D(5,09).
 * Medians (percentile_cont over 4 merged PRs): coding {1,2,2,39} → 2 h; pickup {1,2,4,4} → 3 h;
 * review {1,2,2,22} → 2 h; deploy {1,1,3,3} → 2 h; size {10,30,50,120} → 40; none merged without review.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { AppContext } from '../../src/context.js';
import { withTenant } from '../../src/db/tenancy.js';
import type { JobContext, JobDefinition } from '../../src/jobs/define.js';
import { codehostBackfill } from '../../src/codehost/backfill.js';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { fakeCodeHostRest, type FakeCodeHostRest, type FakeRepository } from '../helpers/fakeCodeHostRest.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { announceInstallation, codehostEnv, deliver, fixture } from './helpers.js';

const INSTALLATION = 63000001;
const REPO = 'acme/shop';
const H = 3600;
const DAY = 24 * 3600_000;
const today = Math.floor(Date.now() / DAY) * DAY;
/** `d` days ago at `h`:00 UTC. */
const D = (d: number, h: number) => new Date(today - d * DAY + h * 3600_000).toISOString().replace('.000Z', 'Z');
const hex = (c: string) => c.repeat(40);
/** When each PR's commit was authored (its coding time's start). */
const repoCommitAt: Record<number, string> = { 1: D(60, 8), 2: D(51, 18), 3: D(40, 7), 4: D(20, 8), 7: D(5, 8) };

async function runJob<P>(app: AppContext, def: JobDefinition<P>, jobId: string, data: unknown): Promise<any> {
  const payload = def.payload.parse(data);
  const ctx: JobContext = { app, job: { id: jobId, name: def.name, retryCount: 0 }, signal: new AbortController().signal, instanceId: 'test', progress: async () => {} };
  return withTenant(def.tenantOf(payload) as string, () => def.run(ctx, payload));
}

interface Pr { n: number; title: string; opened: string; updated?: string; merged?: string; closed?: string; size: [number, number]; draft?: boolean }

/** A PR as `GET /repos/{o}/{r}/pulls/{n}` gives it. */
const pull = (p: Pr) => ({
  id: 9_000_000 + p.n, number: p.n, title: p.title, html_url: `https://github.com/${REPO}/pull/${p.n}`, user: { login: 'ann', type: 'User' },
  state: p.closed ?? p.merged ? 'closed' : 'open', draft: p.draft ?? false, additions: p.size[0], deletions: p.size[1], changed_files: 2, commits: 1,
  labels: [], head: { ref: `f${p.n}`, sha: hex(String(p.n)), label: `acme:f${p.n}`, repo: { full_name: REPO } }, base: { ref: 'main' },
  merge_commit_sha: p.merged ? hex(String.fromCharCode(96 + p.n)) : null,
  created_at: p.opened, updated_at: p.updated ?? p.merged ?? p.closed ?? p.opened, merged_at: p.merged ?? null, closed_at: p.closed ?? p.merged ?? null,
});
const review = (id: number, login: string, state: string, at: string) => ({ id, user: { login, type: 'User' }, state, submitted_at: at, commit_id: hex('9') });
const commit = (n: number, at: string, message: string) => ({
  sha: hex(String(n)), html_url: `https://github.com/${REPO}/commit/${hex(String(n))}`, author: { login: 'ann' },
  commit: { message, author: { name: 'Ann', email: 'ann@acme.example', date: at } },
});
const asked = (id: number, at: string, login: string) => ({ id, event: 'review_requested', created_at: at, actor: { login: 'ann' }, review_requester: { login: 'ann' }, requested_reviewer: { login } });

function seed(repo: FakeRepository): void {
  repo.pulls.push(
    pull({ n: 1, title: 'Add search', opened: D(60, 10), merged: D(59, 12), size: [100, 20] }),
    pull({ n: 2, title: 'Draft feature', opened: D(50, 9), merged: D(49, 13), size: [40, 10] }),
    pull({ n: 3, title: 'Self reviewed', opened: D(40, 9), merged: D(40, 15), size: [5, 5] }),
    pull({ n: 4, title: 'Webhook first', opened: D(20, 9), merged: D(20, 11), size: [20, 10] }),
    pull({ n: 5, title: 'Long ago', opened: D(120, 9), merged: D(100, 9), size: [1, 1] }),
    pull({ n: 6, title: 'Abandoned', opened: D(110, 9), closed: D(95, 9), updated: D(10, 9), size: [1, 1] }),
    pull({ n: 7, title: 'Still open', opened: D(5, 9), size: [3, 0] }),
  );
  repo.reviews.set(1, [review(101, 'bob', 'CHANGES_REQUESTED', D(60, 14)), review(102, 'bob', 'APPROVED', D(59, 10))]);
  repo.reviews.set(2, [review(201, 'cat', 'APPROVED', D(49, 11))]);
  repo.reviews.set(3, [review(301, 'ann', 'COMMENTED', D(40, 10)), review(302, 'bob', 'APPROVED', D(40, 13))]);
  repo.reviews.set(4, [review(401, 'dan', 'APPROVED', D(20, 10))]);
  repo.reviews.set(6, [review(601, 'bob', 'APPROVED', D(96, 9))]);
  repo.commits.set(1, [commit(1, D(60, 8), 'Add search')]);
  repo.commits.set(2, [commit(2, D(51, 18), 'Draft feature')]);
  repo.commits.set(3, [commit(3, D(40, 7), 'Self reviewed')]);
  repo.commits.set(4, [commit(4, D(20, 8), 'Webhook first')]);
  repo.commits.set(7, [commit(7, D(5, 8), 'Still open')]);
  repo.issueEvents.set(1, [asked(1101, D(60, 11), 'bob'), asked(1102, D(59, 9), 'bob')]);
  repo.issueEvents.set(2, [{ id: 1201, event: 'ready_for_review', created_at: D(49, 9), actor: { login: 'ann' } }]);
  const deployment = (id: number, at: string, sha: string) => {
    repo.deployments.push({ id, sha, ref: 'main', task: 'deploy', environment: 'production', description: null, production_environment: true, creator: { login: 'octocat' }, created_at: at, url: `https://api.github.com/repos/${REPO}/deployments/${id}` });
    repo.statuses.set(id, [{ id: id * 10, state: 'success', target_url: `https://ci.example/${id}`, created_at: at }]);
  };
  deployment(3001, D(59, 15), hex('a'));
  deployment(3002, D(49, 16), hex('b'));
  deployment(3003, D(40, 16), hex('c'));
  deployment(3004, D(20, 12), hex('d'));
}

describe('code-host backfill: the last 90 days of pull requests and their reviews', function () {
  this.timeout(120_000);
  let api: TestServer;
  let fake: FakeCodeHostRest;
  let a: BuiltTenant;
  let b: BuiltTenant;
  let projectId: string;
  const q = async (text: string, values: unknown[] = []) => (await dbFor(api.databaseUrl).pool.query(text, values)).rows;
  const queued = () => q(`select id, data from pgboss.job where name = 'codehost.backfill' and data->>'projectId' = $1 order by created_on, id`, [projectId]);

  before(async () => {
    fake = await fakeCodeHostRest();
    api = await testServer({ env: { ...codehostEnv(), CODEHOST_APP_PRIVATE_KEY: fake.privateKey, CODEHOST_APP_API_URL: fake.url, JOBS_WORKER_ENABLED: 'false' } });
    a = await buildTenant(api.databaseUrl);
    b = await buildTenant(api.databaseUrl);
    await announceInstallation(api.databaseUrl, INSTALLATION);
    expect((await api.as(a.owner.apiKey).post('/api/integrations/codehost/installations', { installationId: INSTALLATION })).status).to.equal(201);
    seed(fake.repository({ full_name: REPO, default_branch: 'main', installationId: INSTALLATION }));
  });
  after(async () => {
    await api?.close();
    await fake?.close();
  });

  it('reads PRs, reviews and commits through the webhook path: a rate limit mid-walk resumes from the cursor, a PR the webhook delivered first is one row', async () => {
    // #4 and dan's review came by webhook before the backfill.
    const opened = fixture('pull_request.opened');
    opened.repository.full_name = REPO;
    const four = pull({ n: 4, title: 'Webhook first', opened: D(20, 9), size: [20, 10] });
    opened.pull_request = { ...opened.pull_request, ...four };
    expect((await deliver(api, 'pull_request', opened, { installationId: INSTALLATION })).status).to.equal(200);
    const reviewed = { action: 'submitted', repository: { full_name: REPO }, review: review(401, 'dan', 'approved', D(20, 10)), pull_request: { number: 4, updated_at: D(20, 10) } };
    expect((await deliver(api, 'pull_request_review', reviewed, { installationId: INSTALLATION })).status).to.equal(200);
    [{ id: projectId }] = await q('select id from projects where tenant_id = $1 and project_key = $2', [a.tenantId, REPO]);

    // The owner chooses the code host's deployments: one job reads them, then the PRs.
    expect((await api.as(a.owner.apiKey).put(`/api/deployment-sources/${projectId}`, { source: 'deployments' })).status).to.equal(200);
    const [first] = await queued();
    fake.failNext({ match: /^GET \/repos\/acme\/shop\/pulls\/2\/reviews/, status: 429, headers: { 'retry-after': '5', 'x-ratelimit-remaining': '0' } });
    const run1 = await runJob(api.running.app, codehostBackfill, first.id, first.data);
    expect(run1.outcome).to.equal('rate limited');
    expect(run1.walks.map((w: { source: string; outcome: string }) => [w.source, w.outcome])).to.deep.equal([['deployments', 'finished'], ['pull_requests', 'rate limited']]);
    const [walk] = await q(`select cursor, applied, waiting_until, finished_at from codehost_backfills where project_id = $1 and source = 'pull_requests'`, [projectId]);
    // Listed in full (#6 left out, #5 past the window), oldest update first; #1 applied before the limit.
    expect({ phase: walk.cursor.phase, numbers: walk.cursor.items.map((i: { number: number }) => i.number), index: walk.cursor.index, applied: walk.applied, finished: walk.finished_at })
      .to.deep.equal({ phase: 'apply', numbers: [1, 2, 3, 4, 7], index: 1, applied: 1, finished: null });
    expect(walk.waiting_until).to.not.equal(null);
    // The deployment settings still show the deployments' walk.
    expect((await api.as(a.owner.apiKey).get(`/api/deployment-sources/${projectId}`)).body.data.backfill).to.deep.include({ source: 'deployments', state: 'finished', applied: 4 });

    const [, continuation] = await queued();
    expect(continuation.data).to.deep.equal({ tenantId: a.tenantId, projectId, resume: true });
    const from = fake.requests.length;
    const run2 = await runJob(api.running.app, codehostBackfill, continuation.id, continuation.data);
    expect(run2).to.deep.equal({ outcome: 'finished', walks: [{ source: 'deployments', outcome: 'already finished' }, { source: 'pull_requests', outcome: 'finished', applied: 5, stored: 4 }] });
    // From the cursor: no list page again, #1 not read again.
    expect(fake.requests.slice(from).filter((r) => r.startsWith('GET /repos/'))).to.deep.equal([2, 3, 4, 7].flatMap((n) => [
      `GET /repos/acme/shop/pulls/${n}`, `GET /repos/acme/shop/pulls/${n}/reviews?per_page=100`, `GET /repos/acme/shop/pulls/${n}/commits?per_page=100`, `GET /repos/acme/shop/issues/${n}/events?per_page=100`,
    ]));
    expect(fake.requests.filter((r) => r.startsWith('GET /repos/acme/shop/pulls?'))).to.deep.equal([1, 2, 3, 4].map((page) =>
      `GET /repos/acme/shop/pulls?state=all&sort=updated&direction=desc&per_page=100${page > 1 ? `&page=${page}` : ''}`));
    expect(fake.requests.some((r) => /\/pulls\/[56]\b/.test(r))).to.equal(false);

    const t = (s: string) => new Date(s);
    expect(await q(`select number, state, draft, ready_at, first_review_at, merged_at, additions, deletions, head_branch from pull_requests where project_id = $1 order by number`, [projectId])).to.deep.equal([
      { number: 1, state: 'merged', draft: false, ready_at: t(D(60, 10)), first_review_at: t(D(60, 14)), merged_at: t(D(59, 12)), additions: 100, deletions: 20, head_branch: 'f1' },
      { number: 2, state: 'merged', draft: false, ready_at: t(D(49, 9)), first_review_at: t(D(49, 11)), merged_at: t(D(49, 13)), additions: 40, deletions: 10, head_branch: 'f2' },
      { number: 3, state: 'merged', draft: false, ready_at: t(D(40, 9)), first_review_at: t(D(40, 13)), merged_at: t(D(40, 15)), additions: 5, deletions: 5, head_branch: 'f3' },
      { number: 4, state: 'merged', draft: false, ready_at: t(D(20, 9)), first_review_at: t(D(20, 10)), merged_at: t(D(20, 11)), additions: 20, deletions: 10, head_branch: 'f4' },
      { number: 7, state: 'open', draft: false, ready_at: t(D(5, 9)), first_review_at: null, merged_at: null, additions: 3, deletions: 0, head_branch: 'f7' },
    ]);
    expect(await q(`select pull_request_number as n, review_id, reviewer, state, submitted_at from pull_request_reviews where project_id = $1 order by review_id`, [projectId])).to.deep.equal([
      { n: 1, review_id: 101, reviewer: 'bob', state: 'changes_requested', submitted_at: t(D(60, 14)) },
      { n: 1, review_id: 102, reviewer: 'bob', state: 'approved', submitted_at: t(D(59, 10)) },
      { n: 2, review_id: 201, reviewer: 'cat', state: 'approved', submitted_at: t(D(49, 11)) },
      { n: 3, review_id: 301, reviewer: 'ann', state: 'commented', submitted_at: t(D(40, 10)) },
      { n: 3, review_id: 302, reviewer: 'bob', state: 'approved', submitted_at: t(D(40, 13)) },
      { n: 4, review_id: 401, reviewer: 'dan', state: 'approved', submitted_at: t(D(20, 10)) },
    ]);
    // The re-requested reviewer answered last with an approval.
    expect(await q(`select pull_request_number as n, reviewer, state, at from pull_request_reviewers where project_id = $1 order by 1, 2`, [projectId])).to.deep.equal([
      { n: 1, reviewer: 'bob', state: 'approved', at: t(D(59, 10)) },
      { n: 2, reviewer: 'cat', state: 'approved', at: t(D(49, 11)) },
      { n: 3, reviewer: 'ann', state: 'commented', at: t(D(40, 10)) },
      { n: 3, reviewer: 'bob', state: 'approved', at: t(D(40, 13)) },
      { n: 4, reviewer: 'dan', state: 'approved', at: t(D(20, 10)) },
    ]);
    expect(await q(`select pr.number, c.sha, c.branch, c.committed_at from pull_request_commits prc join pull_requests pr on pr.id = prc.pull_request_id join commits c on c.id = prc.commit_id
      where pr.project_id = $1 order by pr.number`, [projectId])).to.deep.equal([1, 2, 3, 4, 7].map((n) => ({ number: n, sha: hex(String(n)), branch: `f${n}`, committed_at: t(repoCommitAt[n] as string) })));

    // Granted again (the request names the installation): the PRs are read again and no row is added.
    const counts = async () => (await q(`select (select count(*)::int from pull_requests where project_id = $1) as prs, (select count(*)::int from pull_request_reviews where project_id = $1) as reviews,
      (select count(*)::int from commits where project_id = $1) as commits, (select count(*)::int from deployments where project_id = $1) as deployments`, [projectId]))[0];
    const again = await runJob(api.running.app, codehostBackfill, randomUUID(), { tenantId: a.tenantId, projectId, installationId: INSTALLATION, resume: false });
    expect(again.walks.map((w: { source: string; outcome: string; applied?: number }) => [w.source, w.outcome, w.applied])).to.deep.equal([['deployments', 'finished', 4], ['pull_requests', 'finished', 5]]);
    expect(await counts()).to.deep.equal({ prs: 5, reviews: 6, commits: 5, deployments: 4 });
    // A settings change reads the deployments again, not the PRs.
    const settings = await runJob(api.running.app, codehostBackfill, randomUUID(), { tenantId: a.tenantId, projectId, resume: false });
    expect(settings.walks.map((w: { source: string; outcome: string }) => [w.source, w.outcome])).to.deep.equal([['deployments', 'finished'], ['pull_requests', 'already finished']]);
  });

  it('a deployment walk stored mid-way before pull requests were read resumes from its cursor, then reads the PRs', async () => {
    const old = fake.repository({ full_name: 'acme/old', default_branch: 'main', installationId: INSTALLATION });
    old.pulls.push(pull({ n: 1, title: 'Add search', opened: D(3, 9), size: [1, 1] }));
    const res = await deliver(api, 'repository', { action: 'created', installation: { id: INSTALLATION }, repository: { full_name: 'acme/old' } });
    expect(res.status).to.equal(200);
    const [{ id }] = await q('select id from projects where tenant_id = $1 and project_key = $2', [a.tenantId, 'acme/old']);
    await q(`update projects set deployment_source = 'deployments' where id = $1`, [id]);
    const item = (n: number) => ({ id: n, sha: hex(String(n)), ref: 'main', task: 'deploy', environment: 'production', description: null, production_environment: true, creator: { login: 'octocat' }, created_at: D(10 - n, 9), url: null });
    // As the previous version left it: the apply phase, one of two deployments done, its lease lapsed.
    const cursor = { phase: 'apply', repository: { full_name: 'acme/old', default_branch: 'main' }, items: [item(1), item(2)], index: 1 };
    await q(`insert into codehost_backfills (tenant_id, project_id, source, installation_id, since, cursor, applied) values ($1, $2, 'deployments', $3, now() - interval '90 days', $4, 1)`, [a.tenantId, id, INSTALLATION, JSON.stringify(cursor)]);
    const from = fake.requests.length;
    const result = await runJob(api.running.app, codehostBackfill, randomUUID(), { tenantId: a.tenantId, projectId: id, resume: true });
    expect(result).to.deep.equal({ outcome: 'finished', walks: [{ source: 'deployments', outcome: 'finished', applied: 2, stored: 1 }, { source: 'pull_requests', outcome: 'finished', applied: 1, stored: 1 }] });
    expect(fake.requests.slice(from).filter((r) => r.startsWith('GET /repos/acme/old/deployments'))).to.deep.equal(['GET /repos/acme/old/deployments/2/statuses?per_page=100']);
    expect(await q('select external_id from deployments where project_id = $1', [id])).to.deep.equal([{ external_id: 'gh-deployment-2' }]);
    expect(await q('select number, state from pull_requests where project_id = $1', [id])).to.deep.equal([{ number: 1, state: 'open' }]);
  });

  it('the phase medians through /cubejs-api/v1/load are the hand-worked values; tenant B sees none of them', async () => {
    const load = async (key: string) => {
      const r = await api.as(key).post('/cubejs-api/v1/load', { query: {
        measures: ['coding', 'pickup', 'review', 'deploy'].flatMap((p) => [`pull_requests.${p}_time_p50_seconds`, `pull_requests.${p}_time_count`])
          .concat(['pull_requests.pr_size_p50', 'pull_requests.prs_merged', 'pull_requests.merged_without_review_prs']),
        timeDimensions: [{ dimension: 'pull_requests.merged_at', dateRange: [D(90, 0).slice(0, 10), D(0, 0).slice(0, 10)] }],
      } });
      expect(r.status, r.text).to.equal(200);
      return Object.fromEntries(Object.entries(r.body.data[0] ?? {}).map(([k, v]) => [k.replace('pull_requests.', ''), v === null ? null : Number(v)]));
    };
    expect(await load(a.owner.apiKey)).to.deep.equal({
      coding_time_p50_seconds: 2 * H, coding_time_count: 4, pickup_time_p50_seconds: 3 * H, pickup_time_count: 4,
      review_time_p50_seconds: 2 * H, review_time_count: 4, deploy_time_p50_seconds: 2 * H, deploy_time_count: 4,
      pr_size_p50: 40, prs_merged: 4, merged_without_review_prs: 0,
    });
    const other = await load(b.owner.apiKey);
    expect([other.prs_merged, other.pickup_time_count]).to.deep.equal([0, 0]);
  });
});
