import { expect } from 'chai';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { createRequire } from 'node:module';
import { codehostEnv, deliver, fixture } from '../activity/helpers.js';
import { seedOpenWork, shaOf, type SeededOpenWork } from './seed.js';

/** `GET /api/open-work` on the tenant of seed.ts, whose rows and states are worked out there by hand. */
describe('open work now (GET /api/open-work)', function () {
  this.timeout(60_000);
  let api: TestServer;
  let tenant: BuiltTenant;
  let other: BuiltTenant;
  let seeded: SeededOpenWork;

  before(async function () {
    this.timeout(120_000);
    api = await testServer({ env: codehostEnv() });
    tenant = await buildTenant(api.databaseUrl, 'Open work');
    other = await buildTenant(api.databaseUrl, 'Other');
    seeded = await seedOpenWork(api, tenant.owner.apiKey, tenant.tenantId);
  });
  after(() => api.close());

  const get = async (path: string, key = tenant.owner.apiKey) => {
    const res = await api.as(key).get(path);
    return res;
  };
  /** Each row's age must be the seconds from its time to `meta.asOf`. */
  /** A review_requested delivery asking bo to review #11 (acme/api), updated at `updatedAt`. */
  const requestBoOn11 = (updatedAt: string) => {
    const event = fixture('pull_request.opened');
    event.action = 'review_requested';
    event.repository.full_name = 'acme/api';
    Object.assign(event.pull_request, { id: seeded.installationId * 100 + 11, number: 11, title: 'Add retry to payments', html_url: 'https://github.com/acme/api/pull/11', draft: false, user: { login: 'ann' }, created_at: seeded.at(120), updated_at: updatedAt });
    event.requested_reviewer = { login: 'bo' };
    return deliver(api, 'pull_request', event, { installationId: seeded.installationId });
  };
  const checkAges = (body: { meta: { asOf: string }; data: Record<string, { ageSeconds: number; openedAt?: string; createdAt?: string; mergedAt?: string; readyAt?: string }[]> }) => {
    const asOf = Date.parse(body.meta.asOf);
    for (const rows of Object.values(body.data)) {
      for (const r of rows) expect(r.ageSeconds).to.equal(Math.floor((asOf - Date.parse((r.openedAt ?? r.createdAt ?? r.mergedAt ?? r.readyAt) as string)) / 1000));
    }
  };

  it('lists the organisation\'s open pull requests oldest first, each with its waiting state and reviewers', async () => {
    const res = await get('/api/open-work');
    expect(res.status).to.equal(200);
    checkAges(res.body);
    const alpha = { id: seeded.teams.alpha, slug: 'alpha', name: 'Alpha' };
    const beta = { id: seeded.teams.beta, slug: 'beta', name: 'Beta' };
    expect(res.body.data.pullRequests.map(({ id: _i, ageSeconds: _a, ...r }: Record<string, unknown>) => r)).to.deep.equal([
      { repository: 'acme/api', number: 11, title: 'Add retry to payments', url: 'https://github.com/acme/api/pull/11', author: 'ann', team: alpha, openedAt: iso(seeded.at(120)), waitingState: 'changes_requested', reviewers: [{ login: 'bo', state: 'changes_requested' }] },
      { repository: 'acme/web', number: 21, title: 'New checkout page', url: 'https://github.com/acme/web/pull/21', author: 'bo', team: beta, openedAt: iso(seeded.at(96)), waitingState: 'approved', reviewers: [{ login: 'cy', state: 'approved' }] },
      { repository: 'acme/api', number: 13, title: 'Bump dependencies', url: 'https://github.com/acme/api/pull/13', author: 'ann', team: alpha, openedAt: iso(seeded.at(72)), waitingState: 'waiting_for_review', reviewers: [{ login: 'bo', state: 'approved' }, { login: 'di', state: 'requested' }] },
      { repository: 'acme/tools', number: 31, title: 'Lint rules', url: 'https://github.com/acme/tools/pull/31', author: 'cy', team: null, openedAt: iso(seeded.at(48)), waitingState: 'waiting_for_review', reviewers: [] },
      { repository: 'acme/api', number: 12, title: 'Spike: new cache', url: 'https://github.com/acme/api/pull/12', author: 'ann', team: alpha, openedAt: iso(seeded.at(5)), waitingState: 'draft', reviewers: [] },
    ]);
    // acme/api #14, merged 20 h ago after the last success (f2, 167 h), is not deployed yet; no merged PR was reviewed, so no pickup median.
    expect(res.body.meta).to.deep.include({ team: null, totals: { pullRequests: 5, failedDeployments: 3, incidents: 2, undeployedChanges: 1, awaitingFirstReview: 0 }, limit: 500, pickup: [] });
    expect(res.body.data.undeployedChanges.map((r: { repository: string; number: number }) => `${r.repository}#${r.number}`)).to.deep.equal(['acme/api#14']);
  });

  it('lists failed production deployments that nothing recovered, with why each failed', async () => {
    const res = await get('/api/open-work');
    expect(res.body.data.failedDeployments.map(({ id: _i, ageSeconds: _a, team, ...r }: Record<string, unknown>) => ({ ...r, team: (team as { slug: string } | null)?.slug ?? null }))).to.deep.equal([
      { project: 'acme/tools', environment: 'production', externalId: 't1', sha: shaOf('t1'), status: 'success', failure: 'caused_incident', url: null, team: null, createdAt: iso(seeded.at(144)) },
      { project: 'acme/web', environment: 'production', externalId: 'g1', sha: shaOf('g1'), status: 'error', failure: 'status', url: null, team: 'beta', createdAt: iso(seeded.at(72)) },
      { project: 'acme/api', environment: 'production', externalId: 'f3', sha: shaOf('f3'), status: 'failure', failure: 'status', url: 'https://ci.example.com/deploys/f3', team: 'alpha', createdAt: iso(seeded.at(10)) },
    ]);
  });

  it('lists open incidents oldest first, a tracker\'s by its key and the code host\'s by number', async () => {
    const res = await get('/api/open-work');
    expect(res.body.data.incidents.map(({ id: _i, ageSeconds: _a, team, ...r }: Record<string, unknown>) => ({ ...r, team: (team as { slug: string } | null)?.slug ?? null }))).to.deep.equal([
      { project: 'acme/tools', key: 'INC-7', title: 'Tools down', url: 'https://tracker.example.com/browse/INC-7', team: null, openedAt: iso(seeded.at(143)) },
      { project: 'acme/web', key: '#5', title: 'Checkout errors', url: 'https://github.com/acme/web/issues/5', team: 'beta', openedAt: iso(seeded.at(48)) },
    ]);
  });

  it('narrows every section to one team, by id or by slug', async () => {
    const byId = await get(`/api/open-work?team=${seeded.teams.beta}`);
    expect(byId.status).to.equal(200);
    const summary = (body: { data: Record<string, { number?: number; externalId?: string; key?: string }[]> }) => ({
      pullRequests: body.data.pullRequests!.map((r) => r.number),
      failedDeployments: body.data.failedDeployments!.map((r) => r.externalId),
      incidents: body.data.incidents!.map((r) => r.key),
    });
    expect(summary(byId.body)).to.deep.equal({ pullRequests: [21], failedDeployments: ['g1'], incidents: ['#5'] });
    expect(byId.body.meta.team).to.deep.equal({ id: seeded.teams.beta, slug: 'beta', name: 'Beta' });
    expect(byId.body.meta.totals).to.deep.equal({ pullRequests: 1, failedDeployments: 1, incidents: 1, undeployedChanges: 0, awaitingFirstReview: 0 });
    const bySlug = await get('/api/open-work?team=alpha');
    expect(summary(bySlug.body)).to.deep.equal({ pullRequests: [11, 13, 12], failedDeployments: ['f3'], incidents: [] });
  });

  it('answers 404 for a team that is not the tenant\'s, and 400 for an empty one', async () => {
    const missing = await get('/api/open-work?team=nope');
    expect(missing.status).to.equal(404);
    expect(missing.body).to.deep.equal({ error: { code: 'not_found', message: 'Team nope not found' } });
    const empty = await get('/api/open-work?team=');
    expect(empty.status).to.equal(400);
    expect(empty.body.error.details).to.deep.equal([{ path: 'query.team', message: 'Must not be empty' }]);
  });

  it('shows another tenant nothing of this one: empty sections, and its teams are not found', async () => {
    const res = await get('/api/open-work', other.owner.apiKey);
    expect(res.status).to.equal(200);
    expect(res.body.data).to.deep.equal({ pullRequests: [], failedDeployments: [], incidents: [], undeployedChanges: [], awaitingFirstReview: [] });
    expect(res.body.meta.totals).to.deep.equal({ pullRequests: 0, failedDeployments: 0, incidents: 0, undeployedChanges: 0, awaitingFirstReview: 0 });
    const foreign = await get(`/api/open-work?team=${seeded.teams.alpha}`, other.owner.apiKey);
    expect(foreign.status).to.equal(404);
    expect(foreign.body.error).to.deep.equal({ code: 'not_found', message: `Team ${seeded.teams.alpha} not found` });
  });

  it('needs a signed-in principal', async () => {
    const res = await api.get('/api/open-work');
    expect(res.status).to.equal(401);
  });

  it('keeps reviewer states under the tenant floor, and a late delivery does not undo a newer state', async () => {
    const { pool } = dbFor(api.databaseUrl);
    const rows = (await pool.query(
      `select p.project_key, r.pull_request_number, r.reviewer, r.state from pull_request_reviewers r join projects p on p.id = r.project_id where r.tenant_id = $1 order by 1, 2, 3`,
      [tenant.tenantId],
    )).rows;
    expect(rows).to.deep.equal([
      { project_key: 'acme/api', pull_request_number: 11, reviewer: 'bo', state: 'changes_requested' },
      { project_key: 'acme/api', pull_request_number: 13, reviewer: 'bo', state: 'approved' },
      { project_key: 'acme/api', pull_request_number: 13, reviewer: 'di', state: 'requested' },
      { project_key: 'acme/web', pull_request_number: 21, reviewer: 'cy', state: 'approved' },
    ]);
    const floor = (await pool.query(`select relrowsecurity, relforcerowsecurity from pg_class where relname = 'pull_request_reviewers'`)).rows[0];
    expect(floor).to.deep.equal({ relrowsecurity: true, relforcerowsecurity: true });

    // bo's request on #11 delivered late (older than bo's change request): nothing changes.
    const res = await requestBoOn11(seeded.at(110));
    expect(res.body.data).to.include({ stored: true });
    const after = await get('/api/open-work?team=alpha');
    expect(after.body.data.pullRequests[0]).to.deep.include({ number: 11, waitingState: 'changes_requested', reviewers: [{ login: 'bo', state: 'changes_requested' }] });
  });

  it('asking a reviewer again after a change request: the PR waits for their review again', async () => {
    const res = await requestBoOn11(seeded.at(2));
    expect(res.body.data).to.include({ stored: true });
    const after = await get('/api/open-work?team=alpha');
    expect(after.body.data.pullRequests.map((r: Record<string, unknown>) => [r.number, r.waitingState, r.reviewers])).to.deep.equal([
      [11, 'waiting_for_review', [{ login: 'bo', state: 'requested' }]],
      [13, 'waiting_for_review', [{ login: 'bo', state: 'approved' }, { login: 'di', state: 'requested' }]],
      [12, 'draft', []],
    ]);
  });

  it('a dismissed approval no longer counts: the PR waits for review again', async () => {
    const example = (require('@octokit/webhooks-examples/api.github.com/index.json') as { name: string; examples: Record<string, any>[] }[])
      .find((d) => d.name === 'pull_request_review')!.examples.find((e) => e.action === 'dismissed')!;
    const res = await deliver(api, 'pull_request_review', {
      ...example,
      repository: { ...example.repository, full_name: 'acme/web' },
      review: { ...example.review, user: { ...example.review.user, login: 'cy' }, state: 'dismissed', submitted_at: seeded.at(90) },
      pull_request: { ...example.pull_request, number: 21, updated_at: seeded.at(1) },
    }, { installationId: seeded.installationId });
    expect(res.body.data).to.include({ stored: true });
    const after = await get('/api/open-work?team=beta');
    expect(after.body.data.pullRequests.map((r: Record<string, unknown>) => [r.number, r.waitingState, r.reviewers])).to.deep.equal([[21, 'waiting_for_review', []]]);
  });
});

const require = createRequire(import.meta.url);
const iso = (s: string) => new Date(s).toISOString();
