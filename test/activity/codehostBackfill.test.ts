/**
 * The 90-day backfill from the code host's REST API (docs/codehost-deployments-backfill.md "Backfill"),
 * against a fake code host on loopback: the app's JWT, installation tokens, newest-first pages
 * with Link headers, a 429 in the middle, a failure and a restart from the stored cursor.
 *
 * acme/api (tenant A, installation A), pages of 2, newest first (the walk applies oldest first):
 *   1001 sha a production  -80 d  in_progress, success        → success
 *   1002 sha b production  -60 d  success, inactive           → success (inactive keeps it)
 *   1003 sha a production  -40 d  success                     → success, a rollback from b
 *   1004 sha c staging     -30 d  success                     → success, not production
 *   1005 sha c production  -20 d  failure                     → failure
 *   1006 sha d production   -2 d  (no status yet)             → pending
 *    900 sha e production -100 d  success                     → outside the window: not read
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { AppContext } from '../../src/context.js';
import { withTenant } from '../../src/db/tenancy.js';
import type { JobContext, JobDefinition } from '../../src/jobs/define.js';
import { codehostBackfill, codehostBackfillsResume, codehostInstallationBackfill, RUN_BUDGET } from '../../src/codehost/backfill.js';
import { asSystem } from '../../src/db/tenancy.js';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { fakeCodeHostRest, type FakeCodeHostRest, type FakeRepository } from '../helpers/fakeCodeHostRest.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { announceInstallation, codehostEnv, deliver } from './helpers.js';

const INSTALLATION_A = 61000001;
const INSTALLATION_B = 61000002;
const INSTALLATION_C = 61000003;
const DAY = 24 * 3600_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);
const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
const sha = (c: string) => c.repeat(40);
/** The pull-request walk of a repository with none in the window (it follows the deployment walks). */
const NO_PRS = { source: 'pull_requests', outcome: 'finished', applied: 0, stored: 0 };

/** Runs a job as the worker would (its tenant's scope, this job id), in this process. */
async function runJob<P>(app: AppContext, def: JobDefinition<P>, jobId: string, data: unknown): Promise<any> {
  const payload = def.payload.parse(data);
  const ctx: JobContext = { app, job: { id: jobId, name: def.name, retryCount: 0 }, signal: new AbortController().signal, instanceId: 'test', progress: async () => {} };
  return withTenant(def.tenantOf(payload) as string, () => def.run(ctx, payload));
}

function deployment(repo: FakeRepository, id: number, fields: { sha: string; at: Date; environment?: string }, statuses: string[]): void {
  repo.deployments.push({
    id, sha: fields.sha, ref: 'main', task: 'deploy', environment: fields.environment ?? 'production', description: null, production_environment: false,
    creator: { login: 'octocat' }, created_at: iso(fields.at), url: `https://api.github.com/repos/${repo.full_name}/deployments/${id}`,
  });
  repo.statuses.set(id, statuses.map((state, i) => ({
    id: id * 10 + i + 1, state, target_url: `https://ci.example/${id}/${i + 1}`, created_at: iso(new Date(fields.at.getTime() + (i + 1) * 60_000)),
  })));
}

describe('code-host backfill: the last 90 days from the REST API', function () {
  this.timeout(120_000);
  let api: TestServer;
  let fake: FakeCodeHostRest;
  let a: BuiltTenant;
  let b: BuiltTenant;
  const q = async (text: string, values: unknown[] = []) => (await dbFor(api.databaseUrl).pool.query(text, values)).rows;

  before(async () => {
    fake = await fakeCodeHostRest();
    // No worker: each test runs the queued jobs itself, one step at a time.
    api = await testServer({ env: { ...codehostEnv(), CODEHOST_APP_PRIVATE_KEY: fake.privateKey, CODEHOST_APP_API_URL: fake.url, JOBS_WORKER_ENABLED: 'false' } });
    a = await buildTenant(api.databaseUrl);
    b = await buildTenant(api.databaseUrl);
    await announceInstallation(api.databaseUrl, INSTALLATION_A, INSTALLATION_B, INSTALLATION_C);
    expect((await api.as(a.owner.apiKey).post('/api/integrations/codehost/installations', { installationId: INSTALLATION_A })).status).to.equal(201);
    expect((await api.as(b.owner.apiKey).post('/api/integrations/codehost/installations', { installationId: INSTALLATION_B })).status).to.equal(201);
  });
  after(async () => {
    await api?.close();
    await fake?.close();
  });

  /** The project of `repo` in the tenant, made as the code host's `repository` event makes it. */
  async function projectOf(tenant: BuiltTenant, installationId: number, repo: string): Promise<string> {
    const res = await deliver(api, 'repository', { action: 'created', installation: { id: installationId }, repository: { full_name: repo } });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const [row] = await q('select id from projects where tenant_id = $1 and project_key = $2', [tenant.tenantId, repo]);
    return row.id;
  }

  const queued = (name: string, projectId: string) => q(`select id, data, start_after from pgboss.job where name = $1 and data->>'projectId' = $2 order by created_on, id`, [name, projectId]);

  const rowsOf = (tenantId: string, repo: string) => q(`select d.external_id, d.sha, d.environment, d.status, d.is_production, d.is_rollback, d.rollback_from_sha, d.url, d.created_at
    from deployments d join projects p on p.id = d.project_id where p.tenant_id = $1 and p.project_key = $2 order by d.created_at`, [tenantId, repo]);

  it('three pages of deployments with their statuses, a 429 in the middle, a failure and a restart: exact rows, then a second run adds none', async () => {
    const repo = fake.repository({ full_name: 'acme/api', default_branch: 'main', installationId: INSTALLATION_A });
    const at = { d1: daysAgo(80), d2: daysAgo(60), d3: daysAgo(40), d4: daysAgo(30), d5: daysAgo(20), d6: daysAgo(2) };
    deployment(repo, 1001, { sha: sha('a'), at: at.d1 }, ['in_progress', 'success']);
    deployment(repo, 1002, { sha: sha('b'), at: at.d2 }, ['success', 'inactive']);
    deployment(repo, 1003, { sha: sha('a'), at: at.d3 }, ['success']);
    deployment(repo, 1004, { sha: sha('c'), at: at.d4, environment: 'staging' }, ['success']);
    deployment(repo, 1005, { sha: sha('c'), at: at.d5 }, ['failure']);
    deployment(repo, 1006, { sha: sha('d'), at: at.d6 }, []);
    deployment(repo, 900, { sha: sha('e'), at: daysAgo(100) }, ['success']);
    const projectId = await projectOf(a, INSTALLATION_A, 'acme/api');

    // The owner chooses the code host's deployments: the backfill is queued.
    const put = await api.as(a.owner.apiKey).put(`/api/deployment-sources/${projectId}`, { source: 'deployments' });
    expect(put.status, JSON.stringify(put.body)).to.equal(200);
    const [first, ...others] = await queued('codehost.backfill', projectId);
    expect(others).to.deep.equal([]);
    expect(first.data).to.deep.equal({ tenantId: a.tenantId, projectId, resume: false });

    // Run 1: page 1, then the code host's rate limit on page 2. The continuation waits for the reset.
    fake.failNext({ match: /\/repos\/acme\/api\/deployments\?per_page=100&page=2$/, status: 429, headers: { 'retry-after': '3', 'x-ratelimit-remaining': '0' } });
    const before429 = Date.now();
    const run1 = await runJob(api.running.app, codehostBackfill, first.id, first.data);
    expect(run1.outcome).to.equal('rate limited');
    const [, continuation] = await queued('codehost.backfill', projectId);
    expect(continuation.data).to.deep.equal({ tenantId: a.tenantId, projectId, resume: true });
    expect(new Date(continuation.start_after).getTime()).to.be.within(before429 + 3000, Date.now() + 4000);
    expect(await rowsOf(a.tenantId, 'acme/api')).to.deep.equal([]);
    const backfillOf = async () => (await api.as(a.owner.apiKey).get(`/api/deployment-sources/${projectId}`)).body.data.backfill;
    const waiting = await backfillOf();
    expect(waiting).to.deep.include({ source: 'deployments', state: 'waiting', applied: 0, total: null, finishedAt: null });
    expect(Date.parse(waiting.waitingUntil)).to.equal(new Date(continuation.start_after).getTime());
    expect(Date.parse(waiting.since)).to.be.within(before429 - 90 * DAY - 60_000, before429 - 90 * DAY + 1000);

    // Run 2 (the continuation): pages 2 to 4, then 1001 and 1002 are applied, and 1003's statuses fail.
    fake.failNext({ match: /\/deployments\/1003\/statuses/, status: 502, body: { message: 'Bad gateway' } });
    let failed: unknown;
    await runJob(api.running.app, codehostBackfill, continuation.id, continuation.data).catch((error: unknown) => (failed = error));
    expect(String(failed)).to.include('502');
    expect((await rowsOf(a.tenantId, 'acme/api')).map((r) => [r.external_id, r.status])).to.deep.equal([['gh-deployment-1001', 'success'], ['gh-deployment-1002', 'success']]);
    const [walk] = await q(`select cursor, applied, finished_at, last_error from codehost_backfills where project_id = $1 and source <> 'pull_requests'`, [projectId]);
    expect({ phase: walk.cursor.phase, index: walk.cursor.index, applied: walk.applied, finished: walk.finished_at }).to.deep.equal({ phase: 'apply', index: 2, applied: 2, finished: null });
    expect(walk.last_error).to.include('502');
    expect(await backfillOf()).to.deep.include({ state: 'stopped', applied: 2, total: 6, waitingUntil: null, lastError: walk.last_error });

    // Run 3 (the job again, as the queue retries it): it resumes at 1003, reading no page twice.
    const from = fake.requests.length;
    const run3 = await runJob(api.running.app, codehostBackfill, continuation.id, continuation.data);
    expect(run3).to.deep.equal({ outcome: 'finished', walks: [{ source: 'deployments', outcome: 'finished', applied: 6, stored: 4 }, NO_PRS] });
    expect(fake.requests.slice(from).filter((r) => r.startsWith('GET /repos/acme/api/deployments'))).to.deep.equal([1003, 1004, 1005, 1006].map((id) => `GET /repos/acme/api/deployments/${id}/statuses?per_page=100`));
    const listed = fake.requests.filter((r) => /^GET \/repos\/acme\/api\/deployments\?/.test(r));
    expect(listed).to.deep.equal([
      'GET /repos/acme/api/deployments?per_page=100',
      'GET /repos/acme/api/deployments?per_page=100&page=2', // the 429
      'GET /repos/acme/api/deployments?per_page=100&page=2',
      'GET /repos/acme/api/deployments?per_page=100&page=3',
      'GET /repos/acme/api/deployments?per_page=100&page=4',
    ]);
    expect(fake.requests.some((r) => r.includes('/deployments/900/'))).to.equal(false);
    expect(await backfillOf()).to.deep.include({ state: 'finished', applied: 6, total: 6, waitingUntil: null, lastError: null });

    const expected = [
      { external_id: 'gh-deployment-1001', sha: sha('a'), environment: 'production', status: 'success', is_production: true, is_rollback: false, rollback_from_sha: null, url: 'https://ci.example/1001/2', created_at: new Date(iso(at.d1)) },
      { external_id: 'gh-deployment-1002', sha: sha('b'), environment: 'production', status: 'success', is_production: true, is_rollback: false, rollback_from_sha: null, url: 'https://ci.example/1002/1', created_at: new Date(iso(at.d2)) },
      { external_id: 'gh-deployment-1003', sha: sha('a'), environment: 'production', status: 'success', is_production: true, is_rollback: true, rollback_from_sha: sha('b'), url: 'https://ci.example/1003/1', created_at: new Date(iso(at.d3)) },
      { external_id: 'gh-deployment-1004', sha: sha('c'), environment: 'staging', status: 'success', is_production: false, is_rollback: false, rollback_from_sha: null, url: 'https://ci.example/1004/1', created_at: new Date(iso(at.d4)) },
      { external_id: 'gh-deployment-1005', sha: sha('c'), environment: 'production', status: 'failure', is_production: true, is_rollback: false, rollback_from_sha: null, url: 'https://ci.example/1005/1', created_at: new Date(iso(at.d5)) },
      { external_id: 'gh-deployment-1006', sha: sha('d'), environment: 'production', status: 'pending', is_production: true, is_rollback: false, rollback_from_sha: null, url: null, created_at: new Date(iso(at.d6)) },
    ];
    expect(await rowsOf(a.tenantId, 'acme/api')).to.deep.equal(expected);

    // A continuation arriving after the end does nothing; a fresh request walks again and adds no row.
    expect(await runJob(api.running.app, codehostBackfill, randomUUID(), continuation.data)).to.deep.equal({ outcome: 'already finished', walks: [{ source: 'deployments', outcome: 'already finished' }, { source: 'pull_requests', outcome: 'already finished' }] });
    const again = await runJob(api.running.app, codehostBackfill, randomUUID(), first.data);
    expect(again.outcome).to.equal('finished');
    expect(await rowsOf(a.tenantId, 'acme/api')).to.deep.equal(expected);
    const [{ n }] = await q(`select count(*)::int as n from deployments where project_id = $1`, [projectId]);
    expect(n).to.equal(6);
  });

  it("a repository of tenant B is never read nor written by tenant A's backfill", async () => {
    const secret = fake.repository({ full_name: 'beta/secret', default_branch: 'main', installationId: INSTALLATION_B });
    deployment(secret, 5001, { sha: sha('f'), at: daysAgo(5) }, ['success']);
    // Tenant A's installation announces a repository of B's name (its events say what they like).
    const aProject = await projectOf(a, INSTALLATION_A, 'beta/secret');
    expect((await api.as(a.owner.apiKey).put(`/api/deployment-sources/${aProject}`, { source: 'deployments' })).status).to.equal(200);
    const [job] = await queued('codehost.backfill', aProject);
    const tokensBefore = fake.tokensIssued.length;
    const result = await runJob(api.running.app, codehostBackfill, job.id, job.data);
    expect(result).to.deep.equal({ outcome: 'stopped: no installation linked to this organisation reads beta/secret', walks: ['deployments', 'pull_requests'].map((source) => ({ source, outcome: 'stopped: no installation linked to this organisation reads beta/secret' })) });
    // A job naming B's installation outright is refused the same way.
    const forged = await runJob(api.running.app, codehostBackfill, randomUUID(), { ...job.data, installationId: INSTALLATION_B });
    expect(forged.outcome).to.equal('stopped: no installation linked to this organisation reads beta/secret');
    // A repository the application is not installed on gets the very same answer: which
    // repositories of other organisations have it installed is not A's to learn.
    const nowhere = await projectOf(a, INSTALLATION_A, 'gamma/nowhere');
    expect((await api.as(a.owner.apiKey).put(`/api/deployment-sources/${nowhere}`, { source: 'deployments' })).status).to.equal(200);
    const [other] = await queued('codehost.backfill', nowhere);
    expect((await runJob(api.running.app, codehostBackfill, other.id, other.data)).outcome).to.equal('stopped: no installation linked to this organisation reads gamma/nowhere');
    expect(fake.tokensIssued.slice(tokensBefore)).to.deep.equal([]);
    expect(fake.requests.filter((r) => r.startsWith('GET /repos/beta/secret/'))).to.deep.equal(['GET /repos/beta/secret/installation']);
    expect(await rowsOf(a.tenantId, 'beta/secret')).to.deep.equal([]);

    // B's own backfill of the same repository reads it (the refusal above was the tenant, not the fake).
    const bProject = await projectOf(b, INSTALLATION_B, 'beta/secret');
    expect((await api.as(b.owner.apiKey).put(`/api/deployment-sources/${bProject}`, { source: 'deployments' })).status).to.equal(200);
    const [bJob] = await queued('codehost.backfill', bProject);
    expect((await runJob(api.running.app, codehostBackfill, bJob.id, bJob.data)).outcome).to.equal('finished');
    expect((await rowsOf(b.tenantId, 'beta/secret')).map((r) => [r.external_id, r.status])).to.deep.equal([['gh-deployment-5001', 'success']]);
    expect(await rowsOf(a.tenantId, 'beta/secret')).to.deep.equal([]);
    expect(fake.tokensIssued.slice(tokensBefore)).to.deep.equal([INSTALLATION_B]);
  });

  it('linking an installation backfills its repositories; with an organisation-wide pattern the matching runs claim a project', async () => {
    const c = await buildTenant(api.databaseUrl);
    const web = fake.repository({ full_name: 'gamma/web', default_branch: 'trunk', installationId: INSTALLATION_C });
    const run = (id: number, fields: { path: string; branch: string; conclusion: string; at: Date; sha: string }) => ({
      id, name: 'Deploy', path: fields.path, head_branch: fields.branch, head_sha: fields.sha, status: 'completed', conclusion: fields.conclusion, run_attempt: 1,
      run_started_at: iso(fields.at), created_at: iso(fields.at), html_url: `https://github.com/gamma/web/actions/runs/${id}`, actor: { login: 'octocat' },
    });
    web.runs.push(
      run(7001, { path: '.github/workflows/deploy-prod.yml', branch: 'trunk', conclusion: 'success', at: daysAgo(50), sha: sha('1') }),
      run(7002, { path: '.github/workflows/ci.yml', branch: 'trunk', conclusion: 'success', at: daysAgo(40), sha: sha('2') }),
      run(7003, { path: '.github/workflows/deploy-prod.yml', branch: 'feature', conclusion: 'success', at: daysAgo(30), sha: sha('3') }),
      run(7004, { path: '.github/workflows/deploy-prod.yml', branch: 'trunk', conclusion: 'timed_out', at: daysAgo(10), sha: sha('4') }),
      run(7005, { path: '.github/workflows/deploy-prod.yml', branch: 'trunk', conclusion: 'success', at: daysAgo(120), sha: sha('5') }),
    );
    expect((await api.as(c.owner.apiKey).put('/api/deployment-sources/organisation', { pattern: { workflow: 'deploy*.yml' } })).status).to.equal(200);

    expect((await api.as(c.owner.apiKey).post('/api/integrations/codehost/installations', { installationId: INSTALLATION_C })).status).to.equal(201);
    const [link] = await q(`select id, data from pgboss.job where name = 'codehost.installation-backfill' and data->>'tenantId' = $1`, [c.tenantId]);
    expect(link.data).to.deep.equal({ tenantId: c.tenantId, installationId: INSTALLATION_C });
    expect(await runJob(api.running.app, codehostInstallationBackfill, link.id, link.data)).to.deep.equal({ outcome: 'queued', repositories: 1, queued: 1 });
    const [project] = await q('select id, deployment_source from projects where tenant_id = $1', [c.tenantId]);
    expect(project.deployment_source).to.equal(null);
    const [job] = await queued('codehost.backfill', project.id);
    expect(job.data).to.deep.equal({ tenantId: c.tenantId, projectId: project.id, installationId: INSTALLATION_C, resume: false });

    const result = await runJob(api.running.app, codehostBackfill, job.id, job.data);
    expect(result.walks).to.deep.equal([
      { source: 'deployments', outcome: 'finished', applied: 0, stored: 0 },
      { source: 'workflow_runs', outcome: 'finished', applied: 4, stored: 2 },
      NO_PRS,
    ]);
    expect((await q('select deployment_source from projects where id = $1', [project.id]))[0].deployment_source).to.equal('workflow_runs');
    expect((await rowsOf(c.tenantId, 'gamma/web')).map((r) => [r.external_id, r.sha, r.status, r.is_production])).to.deep.equal([
      ['gh-run-7001', sha('1'), 'success', true],
      ['gh-run-7004', sha('4'), 'failure', true],
    ]);
    expect(fake.requests.filter((r) => r.startsWith('GET /repos/gamma/web/actions/runs')).every((r) => r.includes(`created=%3E%3D${daysAgo(90).toISOString().slice(0, 10)}`))).to.equal(true);
  });

  it('releases: published ones of the window only, an unreadable one left out; a 403 with x-ratelimit-reset queues the continuation for the reset', async () => {
    const repo = fake.repository({ full_name: 'acme/lib', default_branch: 'main', installationId: INSTALLATION_A });
    const release = (id: number, tag: string, at: Date | null, fields: { draft?: boolean; prerelease?: boolean } = {}) => ({
      id, tag_name: tag, target_commitish: sha('7'), name: tag, draft: fields.draft ?? false, prerelease: fields.prerelease ?? false,
      created_at: iso(at ?? daysAgo(1)), published_at: at && iso(at), html_url: `https://github.com/acme/lib/releases/tag/${tag}`, author: { login: 'octocat' },
    });
    const at = { v1: daysAgo(70), v2: daysAgo(10) };
    repo.releases.push(release(31, 'v0.9.0', daysAgo(95)), release(32, 'v1.0.0', at.v1), release(33, 'v1.1.0-rc.1', daysAgo(20), { prerelease: true }), release(34, 'v1.1.0', at.v2), release(35, 'v2.0.0', null, { draft: true }));
    // A record the webhook path would refuse (an empty tag) is left out, not retried for ever.
    repo.releases.push({ ...release(36, 'unused', daysAgo(15)), tag_name: '' });
    const projectId = await projectOf(a, INSTALLATION_A, 'acme/lib');
    expect((await api.as(a.owner.apiKey).put(`/api/deployment-sources/${projectId}`, { source: 'releases' })).status).to.equal(200);
    const [job] = await queued('codehost.backfill', projectId);

    const reset = Math.floor(Date.now() / 1000) + 30;
    fake.failNext({ match: /^GET \/repos\/acme\/lib\/releases/, status: 403, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) }, body: { message: 'API rate limit exceeded' } });
    expect((await runJob(api.running.app, codehostBackfill, job.id, job.data)).outcome).to.equal('rate limited');
    const [, continuation] = await queued('codehost.backfill', projectId);
    expect(new Date(continuation.start_after).getTime()).to.equal(reset * 1000 + 1000);

    const result = await runJob(api.running.app, codehostBackfill, continuation.id, continuation.data);
    expect(result.walks).to.deep.equal([{ source: 'releases', outcome: 'finished', applied: 4, stored: 2 }, NO_PRS]);
    expect((await rowsOf(a.tenantId, 'acme/lib')).map((r) => [r.external_id, r.sha, r.status, r.is_production, r.url, r.created_at])).to.deep.equal([
      ['gh-release-32', sha('7'), 'success', true, 'https://github.com/acme/lib/releases/tag/v1.0.0', new Date(iso(at.v1))],
      ['gh-release-34', sha('7'), 'success', true, 'https://github.com/acme/lib/releases/tag/v1.1.0', new Date(iso(at.v2))],
    ]);
  });

  it('a run whose time is up hands over to a continuation queued at once, which goes on from the cursor', async () => {
    const repo = fake.repository({ full_name: 'acme/long', default_branch: 'main', installationId: INSTALLATION_A });
    deployment(repo, 4001, { sha: sha('1'), at: daysAgo(30) }, ['success']);
    deployment(repo, 4002, { sha: sha('2'), at: daysAgo(20) }, ['failure']);
    deployment(repo, 4003, { sha: sha('3'), at: daysAgo(10) }, ['success']);
    const projectId = await projectOf(a, INSTALLATION_A, 'acme/long');
    expect((await api.as(a.owner.apiKey).put(`/api/deployment-sources/${projectId}`, { source: 'deployments' })).status).to.equal(200);
    const budget = RUN_BUDGET.ms;
    RUN_BUDGET.ms = 0;
    const outcomes: string[] = [];
    try {
      for (let done = 0; outcomes.at(-1) !== 'finished' && outcomes.length < 10; done++) {
        const jobs = await queued('codehost.backfill', projectId);
        expect(jobs).to.have.length(done + 1);
        const job = jobs.at(-1);
        expect(job.data.resume).to.equal(done > 0);
        expect(new Date(job.start_after).getTime()).to.be.at.most(Date.now());
        outcomes.push((await runJob(api.running.app, codehostBackfill, job.id, job.data)).outcome);
      }
    } finally {
      RUN_BUDGET.ms = budget;
    }
    // Page 1; page 2 (the end of the list); then one deployment a run; the pull requests' one page, then their (empty) end.
    expect(outcomes).to.deep.equal(['continues', 'continues', 'continues', 'continues', 'continues', 'finished']);
    expect((await rowsOf(a.tenantId, 'acme/long')).map((r) => [r.external_id, r.status])).to.deep.equal([['gh-deployment-4001', 'success'], ['gh-deployment-4002', 'failure'], ['gh-deployment-4003', 'success']]);
    expect(fake.requests.filter((r) => r.startsWith('GET /repos/acme/long/deployments'))).to.deep.equal([
      'GET /repos/acme/long/deployments?per_page=100',
      'GET /repos/acme/long/deployments?per_page=100&page=2',
      ...[4001, 4002, 4003].map((id) => `GET /repos/acme/long/deployments/${id}/statuses?per_page=100`),
    ]);
  });

  it('a walk whose worker died (its heartbeat older than a minute) is resumed from its cursor by the next settings request, and by the minute\'s sweep', async () => {
    const repo = fake.repository({ full_name: 'acme/dead', default_branch: 'main', installationId: INSTALLATION_A });
    deployment(repo, 9001, { sha: sha('1'), at: daysAgo(30) }, ['success']);
    deployment(repo, 9002, { sha: sha('2'), at: daysAgo(20) }, ['failure']);
    deployment(repo, 9003, { sha: sha('3'), at: daysAgo(10) }, ['success']);
    const projectId = await projectOf(a, INSTALLATION_A, 'acme/dead');
    const owner = api.as(a.owner.apiKey);
    expect((await owner.put(`/api/deployment-sources/${projectId}`, { source: 'deployments' })).status).to.equal(200);
    const walkOf = async () => (await q(`select cursor, applied, finished_at, lease_job_id from codehost_backfills where project_id = $1 and source <> 'pull_requests'`, [projectId]))[0];
    /**
     * Runs the queued jobs one short run each (RUN_BUDGET 0: page 1, page 2, 9001) until the walk
     * has applied 9001; then the worker of the next run dies holding the walk: its lease (the
     * heartbeat) lapses and no job is left to continue it.
     */
    const dieAfterFirstRecord = async (): Promise<string> => {
      const budget = RUN_BUDGET.ms;
      RUN_BUDGET.ms = 0;
      try {
        for (let walk = await walkOf(); !(walk && walk.finished_at === null && walk.applied === 1); walk = await walkOf()) {
          const job = (await queued('codehost.backfill', projectId)).at(-1);
          expect((await runJob(api.running.app, codehostBackfill, job.id, job.data)).outcome).to.equal('continues');
        }
      } finally {
        RUN_BUDGET.ms = budget;
      }
      const dead = (await queued('codehost.backfill', projectId)).at(-1);
      await q('delete from pgboss.job where id = $1', [dead.id]);
      await q(`update codehost_backfills set lease_job_id = $2, lease_until = now() + interval '50 seconds', updated_at = now() - interval '10 seconds' where project_id = $1`, [projectId, dead.id]);
      return dead.id;
    };
    const [first] = await queued('codehost.backfill', projectId);
    const dead = await dieAfterFirstRecord();
    const jobsBefore = (await queued('codehost.backfill', projectId)).length;
    // Its heartbeat is fresh (a slow worker, not a dead one): a request leaves it alone.
    expect((await owner.get(`/api/deployment-sources/${projectId}`)).body.data.backfill).to.deep.include({ state: 'running', applied: 1, total: 3 });
    expect(await queued('codehost.backfill', projectId)).to.have.length(jobsBefore);

    // A minute without a heartbeat: the next request queues its continuation (once, however many requests).
    await q(`update codehost_backfills set lease_until = now() - interval '1 second', updated_at = now() - interval '61 seconds' where project_id = $1`, [projectId]);
    expect((await owner.get(`/api/deployment-sources/${projectId}`)).body.data.backfill).to.deep.include({ state: 'running', applied: 1, total: 3, lastError: null });
    expect((await owner.get('/api/deployment-sources')).status).to.equal(200);
    const resumed = (await queued('codehost.backfill', projectId)).slice(jobsBefore);
    expect(resumed.map((j) => j.data)).to.deep.equal([{ tenantId: a.tenantId, projectId, resume: true }]);
    expect((await walkOf()).lease_job_id).to.equal(resumed[0].id);
    // Tenant B's requests resume nothing of A's.
    expect((await api.as(b.owner.apiKey).get('/api/deployment-sources')).status).to.equal(200);

    // The dead run, had it only stalled, finds the walk taken over and writes nothing.
    expect((await runJob(api.running.app, codehostBackfill, dead, { tenantId: a.tenantId, projectId, resume: true })).outcome).to.equal('another backfill of this project is running');
    const from = fake.requests.length;
    const done = await runJob(api.running.app, codehostBackfill, resumed[0].id, resumed[0].data);
    expect(done).to.deep.equal({ outcome: 'finished', walks: [{ source: 'deployments', outcome: 'finished', applied: 3, stored: 2 }, NO_PRS] });
    // From the cursor: no page listed again, 9001 not read again.
    expect(fake.requests.slice(from).filter((r) => r.startsWith('GET /repos/acme/dead/deployments'))).to.deep.equal([9002, 9003].map((id) => `GET /repos/acme/dead/deployments/${id}/statuses?per_page=100`));
    expect((await rowsOf(a.tenantId, 'acme/dead')).map((r) => [r.external_id, r.status])).to.deep.equal([['gh-deployment-9001', 'success'], ['gh-deployment-9002', 'failure'], ['gh-deployment-9003', 'success']]);
    // The first job, retried by the queue after its expiry, finds its request served: no second walk.
    expect(await runJob(api.running.app, codehostBackfill, first.id, first.data)).to.deep.equal({ outcome: 'already finished', walks: [{ source: 'deployments', outcome: 'already finished' }, { source: 'pull_requests', outcome: 'already finished' }] });

    // Again, and nobody asks: the minute's sweep (all tenants) resumes it.
    expect((await owner.put(`/api/deployment-sources/${projectId}`, { source: 'deployments' })).status).to.equal(200);
    await dieAfterFirstRecord();
    await q(`update codehost_backfills set lease_until = now() - interval '1 second' where project_id = $1`, [projectId]);
    const before = (await queued('codehost.backfill', projectId)).length;
    const sweep = { schedule: 'codehost.backfills-resume', windowStart: new Date().toISOString() };
    const ctx: JobContext = { app: api.running.app, job: { id: randomUUID(), name: codehostBackfillsResume.name, retryCount: 0 }, signal: new AbortController().signal, instanceId: 'test', progress: async () => {} };
    expect(await asSystem('maintenance', () => codehostBackfillsResume.run(ctx, sweep))).to.deep.equal({ resumed: 1 });
    expect(await asSystem('maintenance', () => codehostBackfillsResume.run(ctx, sweep))).to.deep.equal({ resumed: 0 });
    const [again] = (await queued('codehost.backfill', projectId)).slice(before);
    expect((await runJob(api.running.app, codehostBackfill, again.id, again.data)).outcome).to.equal('finished');
    expect((await walkOf()).applied).to.equal(3);
    expect((await rowsOf(a.tenantId, 'acme/dead')).map((r) => r.external_id)).to.deep.equal(['gh-deployment-9001', 'gh-deployment-9002', 'gh-deployment-9003']);
  });

  it('setting the organisation-wide pattern backfills the projects it applies to, and only those', async () => {
    const d = await buildTenant(api.databaseUrl);
    const INSTALLATION_D = 61000004;
    await announceInstallation(api.databaseUrl, INSTALLATION_D);
    expect((await api.as(d.owner.apiKey).post('/api/integrations/codehost/installations', { installationId: INSTALLATION_D })).status).to.equal(201);
    const ids: Record<string, string> = {};
    for (const repo of ['delta/none', 'delta/runs', 'delta/own', 'delta/hook']) ids[repo] = await projectOf(d, INSTALLATION_D, repo);
    const owner = api.as(d.owner.apiKey);
    expect((await owner.put(`/api/deployment-sources/${ids['delta/own']}`, { source: 'workflow_runs', workflow: 'ship.yml' })).status).to.equal(200);
    expect((await owner.put(`/api/deployment-sources/${ids['delta/hook']}`, { source: 'webhook' })).status).to.equal(200);
    expect((await owner.put('/api/deployment-sources/organisation', { pattern: { workflow: 'deploy*.yml' } })).status).to.equal(200);
    // delta/runs (no source when the pattern came, then workflow runs with no workflow of its own, allowed now that a pattern exists).
    expect((await owner.put(`/api/deployment-sources/${ids['delta/runs']}`, { source: 'workflow_runs' })).status).to.equal(200);
    const jobs = async (repo: string) => (await queued('codehost.backfill', ids[repo] as string)).length;
    expect({ none: await jobs('delta/none'), runs: await jobs('delta/runs'), own: await jobs('delta/own'), hook: await jobs('delta/hook') }).to.deep.equal({ none: 1, runs: 2, own: 1, hook: 0 });
    // Set again: the same projects once more (own: its own PUT only; hook: never).
    expect((await owner.put('/api/deployment-sources/organisation', { pattern: { workflow: 'deploy*.yml', branch: 'main' } })).status).to.equal(200);
    expect({ none: await jobs('delta/none'), runs: await jobs('delta/runs'), own: await jobs('delta/own'), hook: await jobs('delta/hook') }).to.deep.equal({ none: 2, runs: 3, own: 1, hook: 0 });
    // Removing the pattern reads nothing.
    expect((await owner.put('/api/deployment-sources/organisation', { pattern: null })).status).to.equal(200);
    expect(await jobs('delta/none')).to.equal(2);
  });

  it('a repository added to a linked installation is backfilled; a project on the webhook API reads only its pull requests', async () => {
    fake.repository({ full_name: 'acme/added', default_branch: 'main', installationId: INSTALLATION_A });
    const res = await deliver(api, 'installation_repositories', {
      action: 'added', installation: { id: INSTALLATION_A }, repository_selection: 'selected', repositories_added: [{ full_name: 'acme/added' }], repositories_removed: [],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const [project] = await q('select id from projects where tenant_id = $1 and project_key = $2', [a.tenantId, 'acme/added']);
    const [job] = await queued('codehost.backfill', project.id);
    expect(job.data).to.deep.equal({ tenantId: a.tenantId, projectId: project.id, installationId: INSTALLATION_A, resume: false });
    // Other installation actions repeat the whole list of repositories: they queue nothing (the
    // queueing happens before the delivery is answered, so the answer is the signal to count on).
    for (const action of ['new_permissions_accepted', 'unsuspend']) {
      const again = await deliver(api, 'installation', { action, installation: { id: INSTALLATION_A, account: { login: 'acme' } }, repositories: [{ full_name: 'acme/added' }] });
      expect(again.status, JSON.stringify(again.body)).to.equal(200);
    }
    expect(await queued('codehost.backfill', project.id)).to.have.length(1);
    expect((await api.as(a.owner.apiKey).put(`/api/deployment-sources/${project.id}`, { source: 'webhook' })).status).to.equal(200);
    expect(await queued('codehost.backfill', project.id)).to.have.length(1);
    expect(await runJob(api.running.app, codehostBackfill, job.id, job.data)).to.deep.equal({ outcome: 'skipped: acme/added takes its deployments from the webhook API; pull requests: finished', walks: [NO_PRS] });
    expect(fake.requests.filter((r) => r.startsWith('GET /repos/acme/added/'))).to.deep.equal(['GET /repos/acme/added/pulls?state=all&sort=updated&direction=desc&per_page=100']);
  });
});

describe('code-host backfill: queued and run by the worker', function () {
  this.timeout(120_000);
  let api: TestServer;
  let fake: FakeCodeHostRest;

  before(async () => {
    fake = await fakeCodeHostRest();
    api = await testServer({ env: { ...codehostEnv(), CODEHOST_APP_PRIVATE_KEY: fake.privateKey, CODEHOST_APP_API_URL: fake.url, JOBS_POLL_INTERVAL_MS: '200' } });
  });
  after(async () => {
    await api?.close();
    await fake?.close();
  });

  it('an owner choosing code-host deployments gets the last 90 days without running anything by hand', async () => {
    const tenant = await buildTenant(api.databaseUrl);
    await announceInstallation(api.databaseUrl, 62000001);
    expect((await api.as(tenant.owner.apiKey).post('/api/integrations/codehost/installations', { installationId: 62000001 })).status).to.equal(201);
    const repo = fake.repository({ full_name: 'delta/app', default_branch: 'main', installationId: 62000001 });
    deployment(repo, 8001, { sha: sha('8'), at: daysAgo(3) }, ['success']);
    // The link's own backfill makes the project (and may read it first: either way, one row).
    const project = async () => (await dbFor(api.databaseUrl).pool.query('select id from projects where tenant_id = $1', [tenant.tenantId])).rows[0]?.id;
    const deadline = Date.now() + 60_000;
    while (!(await project()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const projectId = await project();
    expect((await api.as(tenant.owner.apiKey).put(`/api/deployment-sources/${projectId}`, { source: 'deployments' })).status).to.equal(200);
    const rows = () => dbFor(api.databaseUrl).pool.query(`select external_id, status from deployments where project_id = $1`, [projectId]).then((r) => r.rows);
    while ((await rows()).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await rows()).to.deep.equal([{ external_id: 'gh-deployment-8001', status: 'success' }]);
  });
});
