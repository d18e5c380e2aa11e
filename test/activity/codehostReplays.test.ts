/**
 * A replayed delivery cannot roll state back (issue 43; docs/codehost-deployments-backfill.md "Replays"): a
 * captured, correctly signed delivery re-sent under a new delivery id (so the delivery-id dedupe
 * does not catch it), or a late one, changes nothing when the state it carries is older than the
 * stored one. For each kind: the newer state, then the older one's exact bytes again.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { deploymentEvent, installation, releaseEvent, runEvent, sha, statusEvent } from './codehostEvents.js';
import { announceInstallation, codehostEnv, deliver, fixture, FIXTURE_INSTALLATION, sign, WEBHOOK } from './helpers.js';

/** A delivery as captured on the wire: its bytes, sent again under any delivery id with its valid signature. */
interface Captured {
  event: string;
  body: Buffer;
}

const capture = (event: string, payload: object): Captured => ({ event, body: Buffer.from(JSON.stringify(payload)) });

describe('code-host webhook: a replayed or late delivery cannot roll state back', function () {
  this.timeout(120_000);
  let api: TestServer;
  let tenant: BuiltTenant;
  const q = async (text: string, values: unknown[] = []) => (await dbFor(api.databaseUrl).pool.query(text, values)).rows;

  before(async () => {
    api = await testServer({ env: codehostEnv() });
    tenant = await buildTenant(api.databaseUrl);
    await announceInstallation(api.databaseUrl, FIXTURE_INSTALLATION);
    expect((await api.as(tenant.owner.apiKey).post('/api/integrations/codehost/installations', { installationId: FIXTURE_INSTALLATION })).status).to.equal(201);
  });
  after(() => api?.close());

  /** Sends the captured bytes under a new delivery id; the answer is 200 with the expected outcome. */
  async function send(delivery: Captured, expected: { stored: boolean; reason?: string } = { stored: true }) {
    const res = await api.post(WEBHOOK, new Uint8Array(delivery.body), {
      'content-type': 'application/json',
      'x-github-event': delivery.event,
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': sign(delivery.body),
    });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data, res.text).to.deep.include(expected);
  }

  const deploymentRows = (repo: string) => q(`select d.external_id, d.status, d.url, d.created_at, d.metadata from deployments d join projects p on p.id = d.project_id
    where p.tenant_id = $1 and p.project_key = $2 order by d.external_id`, [tenant.tenantId, repo]);

  async function useSource(repo: string, settings: object) {
    expect((await deliver(api, 'repository', { action: 'created', installation, repository: { full_name: repo } })).status).to.equal(200);
    const [project] = await q('select id from projects where tenant_id = $1 and project_key = $2', [tenant.tenantId, repo]);
    expect((await api.as(tenant.owner.apiKey).put(`/api/deployment-sources/${project.id}`, settings)).status).to.equal(200);
  }

  /** The repository's production deployments in the cube, as DORA counts them. */
  async function productionDeploys(repo: string): Promise<unknown[]> {
    const loaded = await api.as(tenant.owner.apiKey).post('/cubejs-api/v1/load', { query: {
      measures: ['deployments.production_deploys', 'deployments.finished_production_deploys'],
      dimensions: ['deployments.project_key'],
      filters: [{ member: 'deployments.project_key', operator: 'equals', values: [repo] }],
    } });
    expect(loaded.status, loaded.text).to.equal(200);
    return loaded.body.data;
  }

  describe('releases', () => {
    it('published → deleted → the captured "published" re-sent under a new delivery id: still not a deployment', async () => {
      const repo = 'acme/replayed-release';
      await useSource(repo, { source: 'releases' });
      const published = capture('release', releaseEvent(repo, 'published', { id: 4301, tag: 'v4.3.0', published: '2026-09-01T10:00:00Z' }));
      await send(published);
      expect(await productionDeploys(repo)).to.deep.equal([{ 'deployments.project_key': repo, 'deployments.production_deploys': '1', 'deployments.finished_production_deploys': '1' }]);
      await send(capture('release', releaseEvent(repo, 'deleted', { id: 4301, tag: 'v4.3.0', published: '2026-09-01T10:00:00Z' })));
      const deleted = await deploymentRows(repo);
      expect(deleted.map((r) => [r.external_id, r.status, r.metadata.withdrawn, r.metadata.stateAt])).to.deep.equal([['gh-release-4301', 'inactive', 'deleted', '2026-09-01T10:00:00.000Z']]);

      await send(published);
      expect(await deploymentRows(repo)).to.deep.equal(deleted);
      expect(await productionDeploys(repo)).to.deep.equal([{ 'deployments.project_key': repo, 'deployments.production_deploys': '0', 'deployments.finished_production_deploys': '0' }]);
      // Nothing after a deletion changes the row, not even a (forged-looking) newer publication of the same id.
      await send(capture('release', releaseEvent(repo, 'published', { id: 4301, tag: 'v4.3.0', published: '2026-09-02T10:00:00Z' })));
      expect(await deploymentRows(repo)).to.deep.equal(deleted);
    });

    it('unpublished → the captured "published" again changes nothing; publishing it again later makes it a deployment at the new time', async () => {
      const repo = 'acme/unpublished-release';
      await useSource(repo, { source: 'releases' });
      const published = capture('release', releaseEvent(repo, 'published', { id: 4302, tag: 'v1', published: '2026-10-01T10:00:00Z' }));
      await send(published);
      await send(capture('release', releaseEvent(repo, 'unpublished', { id: 4302, tag: 'v1', published: '2026-10-01T10:00:00Z', draft: true })));
      await send(published);
      expect((await deploymentRows(repo)).map((r) => [r.status, r.metadata.withdrawn ?? null])).to.deep.equal([['inactive', 'unpublished']]);
      await send(capture('release', releaseEvent(repo, 'published', { id: 4302, tag: 'v1', published: '2026-10-03T10:00:00Z' })));
      expect((await deploymentRows(repo)).map((r) => [r.status, r.metadata.withdrawn ?? null, r.created_at.toISOString()])).to.deep.equal([['success', null, '2026-10-03T10:00:00.000Z']]);
    });

    it('a deletion delivered before its publication: the late publication is not a deployment', async () => {
      const repo = 'acme/late-release';
      await useSource(repo, { source: 'releases' });
      await send(capture('release', releaseEvent(repo, 'deleted', { id: 4303, tag: 'v2', published: '2026-11-01T10:00:00Z' })));
      await send(capture('release', releaseEvent(repo, 'published', { id: 4303, tag: 'v2', published: '2026-11-01T10:00:00Z' })));
      expect((await deploymentRows(repo)).map((r) => [r.external_id, r.status, r.metadata.withdrawn])).to.deep.equal([['gh-release-4303', 'inactive', 'deleted']]);
      expect(await productionDeploys(repo)).to.deep.equal([{ 'deployments.project_key': repo, 'deployments.production_deploys': '0', 'deployments.finished_production_deploys': '0' }]);
    });
  });

  it('deployments: the captured `deployment` and an older status re-sent after the latest status change nothing', async () => {
    const repo = 'acme/replayed-deployment';
    const d = { sha: sha('a'), created_at: '2026-09-05T10:00:00Z' };
    const created = capture('deployment', deploymentEvent(repo, 4311, d));
    const inProgress = capture('deployment_status', statusEvent(repo, 4311, d, { id: 11, state: 'in_progress' }));
    await send(created);
    await send(inProgress);
    await send(capture('deployment_status', statusEvent(repo, 4311, d, { id: 12, state: 'failure' })));
    const latest = await deploymentRows(repo);
    expect(latest.map((r) => [r.external_id, r.status, r.url, r.metadata.statusId])).to.deep.equal([['gh-deployment-4311', 'failure', 'https://ci.example/4311/12', 12]]);
    await send(inProgress);
    await send(created);
    expect(await deploymentRows(repo)).to.deep.equal(latest);
  });

  it('workflow runs: an earlier attempt, or an earlier state of the same attempt, re-sent changes nothing', async () => {
    const repo = 'acme/replayed-run';
    await useSource(repo, { source: 'workflow_runs', workflow: 'deploy.yml' });
    const first = capture('workflow_run', runEvent(repo, { id: 4321, attempt: 1, conclusion: 'failure', sha: sha('b'), started: '2026-09-06T10:00:00Z' }));
    const secondFailed = capture('workflow_run', runEvent(repo, { id: 4321, attempt: 2, conclusion: 'failure', sha: sha('b'), started: '2026-09-06T11:00:00Z', updated: '2026-09-06T11:05:00Z' }));
    await send(first);
    await send(secondFailed);
    // The same attempt completed again later (a job re-run inside it): its newer state wins.
    await send(capture('workflow_run', runEvent(repo, { id: 4321, attempt: 2, conclusion: 'success', sha: sha('b'), started: '2026-09-06T11:00:00Z', updated: '2026-09-06T11:30:00Z' })));
    const latest = await deploymentRows(repo);
    expect(latest.map((r) => [r.status, r.metadata.runAttempt, r.metadata.runUpdatedAt])).to.deep.equal([['success', 2, '2026-09-06T11:30:00Z']]);
    await send(first);
    await send(secondFailed);
    expect(await deploymentRows(repo)).to.deep.equal(latest);
  });

  describe('pull requests and reviews', () => {
    const repo = 'acme/replayed-pr';
    const prRow = () => q(`select number, state, title, merged_at, closed_at, updated_at from pull_requests r join projects p on p.id = r.project_id
      where p.tenant_id = $1 and p.project_key = $2`, [tenant.tenantId, repo]);
    const reviewers = () => q(`select reviewer, state, at from pull_request_reviewers r join projects p on p.id = r.project_id
      where p.tenant_id = $1 and p.project_key = $2 order by reviewer`, [tenant.tenantId, repo]);

    function pullRequest(action: string, fields: Record<string, unknown>) {
      const event = fixture('pull_request.opened');
      event.action = action;
      event.installation = installation;
      event.repository.full_name = repo;
      event.pull_request.head.repo = { ...event.pull_request.head.repo, full_name: repo };
      Object.assign(event.pull_request, { number: 43, ...fields });
      return capture('pull_request', event);
    }

    function review(action: string, reviewer: string, fields: { id: number; state: string; submitted_at: string }) {
      return capture('pull_request_review', {
        action, installation, repository: { full_name: repo },
        review: { id: fields.id, user: { login: reviewer }, state: fields.state, submitted_at: fields.submitted_at },
        pull_request: { number: 43, updated_at: fields.submitted_at },
      });
    }

    it('a pull request: the captured "opened" re-sent after the merge, with or without its `updated_at`, changes nothing', async () => {
      const opened = pullRequest('opened', { title: 'Checkout v1', state: 'open', created_at: '2026-09-10T10:00:00Z', updated_at: '2026-09-10T10:00:00Z', merged_at: null, closed_at: null });
      await send(opened);
      await send(pullRequest('closed', { title: 'Checkout v2', state: 'closed', created_at: '2026-09-10T10:00:00Z', updated_at: '2026-09-11T10:00:00Z', merged_at: '2026-09-11T10:00:00Z', closed_at: '2026-09-11T10:00:00Z' }));
      const merged = await prRow();
      expect(merged).to.deep.equal([{ number: 43, state: 'merged', title: 'Checkout v2', merged_at: new Date('2026-09-11T10:00:00Z'), closed_at: new Date('2026-09-11T10:00:00Z'), updated_at: new Date('2026-09-11T10:00:00Z') }]);
      await send(opened);
      await send(pullRequest('edited', { title: 'Checkout v1', state: 'open', created_at: '2026-09-10T10:00:00Z', updated_at: null, merged_at: null, closed_at: null }));
      expect(await prRow()).to.deep.equal(merged);
    });

    it('reviews: a dismissed approval stays dismissed when its "submitted" is re-sent; an older verdict re-sent changes nothing', async () => {
      const approved = review('submitted', 'ana', { id: 9001, state: 'approved', submitted_at: '2026-09-12T10:00:00Z' });
      await send(approved);
      await send(review('dismissed', 'ana', { id: 9001, state: 'dismissed', submitted_at: '2026-09-12T10:00:00Z' }));
      const olderVerdict = review('submitted', 'ben', { id: 9002, state: 'approved', submitted_at: '2026-09-12T11:00:00Z' });
      await send(olderVerdict);
      await send(review('submitted', 'ben', { id: 9003, state: 'changes_requested', submitted_at: '2026-09-12T12:00:00Z' }));
      const expected = [
        { reviewer: 'ana', state: 'dismissed', at: new Date('2026-09-12T10:00:00Z') },
        { reviewer: 'ben', state: 'changes_requested', at: new Date('2026-09-12T12:00:00Z') },
      ];
      expect(await reviewers()).to.deep.equal(expected);
      await send(approved);
      await send(olderVerdict);
      expect(await reviewers()).to.deep.equal(expected);
      // Ana's new review, later, is her verdict again.
      await send(review('submitted', 'ana', { id: 9004, state: 'approved', submitted_at: '2026-09-13T10:00:00Z' }));
      expect((await reviewers())[0]).to.deep.equal({ reviewer: 'ana', state: 'approved', at: new Date('2026-09-13T10:00:00Z') });
    });

    it('review requests: a removed request stays removed when the request is re-sent, or delivered after its removal', async () => {
      const requestOf = (action: string, reviewer: string, at: string) => {
        const event = JSON.parse(pullRequest(action, { state: 'open', created_at: '2026-09-10T10:00:00Z', updated_at: at, merged_at: null, closed_at: null }).body.toString('utf8'));
        event.requested_reviewer = { login: reviewer };
        return capture('pull_request', event);
      };
      const requested = requestOf('review_requested', 'cy', '2026-09-14T10:00:00Z');
      await send(requested);
      await send(requestOf('review_request_removed', 'cy', '2026-09-14T11:00:00Z'));
      await send(requested);
      // Removed before the request arrived.
      await send(requestOf('review_request_removed', 'di', '2026-09-14T13:00:00Z'));
      await send(requestOf('review_requested', 'di', '2026-09-14T12:00:00Z'));
      const rows = (await reviewers()).filter((r) => ['cy', 'di'].includes(r.reviewer));
      expect(rows).to.deep.equal([
        { reviewer: 'cy', state: 'dismissed', at: new Date('2026-09-14T11:00:00Z') },
        { reviewer: 'di', state: 'dismissed', at: new Date('2026-09-14T13:00:00Z') },
      ]);
    });
  });
});
