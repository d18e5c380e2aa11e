import { expect } from 'chai';
import { dbFor, type BuiltTenant } from '../helpers/factories.js';
import type { TestServer } from '../helpers/server.js';
import { announceInstallation, codehostEnv, deliver, fixture, FIXTURE_INSTALLATION } from './helpers.js';
import { serverWithTwoTenants } from '../helpers/suites.js';

const SHA_A = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
const SHA_HEAD = '9f3c2a1b7d4e5f60718293a4b5c6d7e8f9012345';
const LEDGER_SHA = 'aaaa1111bbbb2222cccc3333dddd4444eeee5555';

/** A pull request of the fixture, moved to another repository, number and branch. */
function pullRequest(repo: string, number: number, branch: string, headSha: string) {
  const payload = fixture('pull_request.opened');
  payload.repository.full_name = repo;
  payload.pull_request.id = 3_000_000 + number;
  payload.pull_request.number = number;
  payload.pull_request.head.ref = branch;
  payload.pull_request.head.sha = headSha;
  payload.pull_request.head.repo = { ...payload.pull_request.head.repo, full_name: repo };
  payload.pull_request.head.label = `${repo.split('/')[0]}:${branch}`;
  return payload;
}

function push(repo: string, branch: string, shas: string[]) {
  const payload = fixture('push');
  payload.repository.full_name = repo;
  payload.ref = `refs/heads/${branch}`;
  payload.commits = shas.map((sha) => ({ ...payload.commits[1], id: sha, message: 'Round half to even' }));
  return payload;
}

describe('linking AI sessions to pull requests and commits', function () {
  let api: TestServer, a: BuiltTenant, b: BuiltTenant;
  const q = async (text: string, values: unknown[] = []) => (await dbFor(api.databaseUrl).pool.query(text, values)).rows;
  const session = async (tenant: BuiltTenant, body: object) => {
    const res = await api.as(tenant.owner.apiKey).post('/api/sessions', { tool: 'claude-code', startedAt: '2026-11-02T09:00:00Z', ...body });
    expect(res.status).to.equal(201);
    return res.body.data.id as string;
  };
  const links = async (tenant: BuiltTenant, id: string) => (await api.as(tenant.owner.apiKey).get(`/api/sessions/${id}`)).body.data.links;
  const aiAssisted = async (repo: string, number: number) =>
    (await q('select v.via_session, v.via_trailer, v.ai_assisted from pull_request_ai_assisted v join pull_requests pr on pr.id = v.pull_request_id join projects p on p.id = pr.project_id where p.project_key = $1 and pr.number = $2', [repo, number]))[0];

  before(async () => {
    ({ api, a, b } = await serverWithTwoTenants({ env: codehostEnv() }));
    await announceInstallation(api.databaseUrl, FIXTURE_INSTALLATION, 62000000);
    expect((await api.as(a.owner.apiKey).post('/api/integrations/codehost/installations', { installationId: FIXTURE_INSTALLATION })).status).to.equal(201);
    expect((await api.as(b.owner.apiKey).post('/api/integrations/codehost/installations', { installationId: 62000000 })).status).to.equal(201);
  });
  after(() => api.close());

  it('session before PR: a session naming PR 42 links when the PR arrives (pr_number)', async () => {
    const id = await session(a, { projectKey: 'acme-corp/checkout-service', prNumber: 42 });
    expect(await links(a, id)).to.deep.equal({ pullRequests: [], commits: [] });
    expect((await deliver(api, 'pull_request', 'pull_request.opened')).status).to.equal(200);
    const [pr] = await q("select id from pull_requests where number = 42 and tenant_id = $1", [a.tenantId]);
    expect(await links(a, id)).to.deep.equal({
      pullRequests: [{ id: pr.id, projectKey: 'acme-corp/checkout-service', number: 42, title: 'Retry card authorisation on gateway timeouts', state: 'open', linkedBy: 'pr_number' }],
      commits: [],
    });
    expect(await aiAssisted('acme-corp/checkout-service', 42)).to.deep.equal({ via_session: true, via_trailer: false, ai_assisted: true });
  });

  it('PR before session: a session on the PR\'s branch links at upload (branch)', async () => {
    expect((await deliver(api, 'pull_request', pullRequest('acme-corp/web-storefront', 7, 'feat/cart', SHA_HEAD))).status).to.equal(200);
    expect(await aiAssisted('acme-corp/web-storefront', 7)).to.deep.equal({ via_session: false, via_trailer: false, ai_assisted: false });
    const id = await session(a, { projectKey: 'acme-corp/web-storefront', branch: 'feat/cart' });
    const linked = await links(a, id);
    expect(linked.pullRequests.map((p: { number: number; linkedBy: string }) => [p.number, p.linkedBy])).to.deep.equal([[7, 'branch']]);
    expect(await aiAssisted('acme-corp/web-storefront', 7)).to.deep.equal({ via_session: true, via_trailer: false, ai_assisted: true });
    // The same branch name in another repository is another PR: not linked.
    expect(linked.pullRequests).to.have.length(1);
  });

  it('session before push: a sha prefix links the commit when pushed, and its PR through the commit', async () => {
    const id = await session(a, { projectKey: 'acme-corp/checkout-service', commitShas: [SHA_A.slice(0, 10).toUpperCase()] });
    expect((await deliver(api, 'push', 'push')).status).to.equal(200);
    const linked = await links(a, id);
    expect(linked.commits).to.deep.equal([{ projectKey: 'acme-corp/checkout-service', sha: SHA_A, linkedBy: 'commit_sha' }]);
    expect(linked.pullRequests.map((p: { number: number; linkedBy: string }) => [p.number, p.linkedBy])).to.deep.equal([[42, 'commit_pr']]);
    const metrics = (await api.as(a.owner.apiKey).get(`/api/sessions/${id}/metrics`)).body.data;
    expect([metrics.linkedCommits, metrics.linkedPullRequests]).to.deep.equal([1, 1]);
  });

  it('push before session: a full sha links at upload; a sha of another repository does not', async () => {
    const id = await session(a, { projectKey: 'acme-corp/checkout-service', commitShas: [SHA_HEAD] });
    const linked = await links(a, id);
    expect(linked.commits.map((c: { sha: string }) => c.sha)).to.deep.equal([SHA_HEAD]);
    expect(linked.pullRequests.map((p: { number: number }) => p.number)).to.deep.equal([42]);
    const elsewhere = await session(a, { projectKey: 'acme-corp/ledger', commitShas: [SHA_HEAD] });
    expect(await links(a, elsewhere)).to.deep.equal({ pullRequests: [], commits: [] });
  });

  it('session, then push, then PR: the PR arriving last is linked through the commit', async () => {
    const id = await session(a, { projectKey: 'acme-corp/ledger', commitShas: [LEDGER_SHA.slice(0, 7)] });
    expect((await deliver(api, 'push', push('acme-corp/ledger', 'fix/rounding', [LEDGER_SHA]))).status).to.equal(200);
    expect((await links(a, id)).pullRequests).to.deep.equal([]);
    expect((await deliver(api, 'pull_request', pullRequest('acme-corp/ledger', 3, 'fix/rounding', LEDGER_SHA))).status).to.equal(200);
    const linked = await links(a, id);
    expect(linked.commits.map((c: { sha: string }) => c.sha)).to.deep.equal([LEDGER_SHA]);
    expect(linked.pullRequests.map((p: { number: number; linkedBy: string }) => [p.number, p.linkedBy])).to.deep.equal([[3, 'commit_pr']]);
    expect(await aiAssisted('acme-corp/ledger', 3)).to.deep.equal({ via_session: true, via_trailer: false, ai_assisted: true });
  });

  it('a PR from a fork keeps its branch as owner:branch and takes no commits of a same-named branch here', async () => {
    expect((await deliver(api, 'push', push('acme-corp/ledger', 'main', ['bbbb1111bbbb2222cccc3333dddd4444eeee5555']))).status).to.equal(200);
    const fork = pullRequest('acme-corp/ledger', 4, 'main', 'ffff1111bbbb2222cccc3333dddd4444eeee5555');
    fork.pull_request.head.repo.full_name = 'outsider/ledger';
    fork.pull_request.head.label = 'outsider:main';
    expect((await deliver(api, 'pull_request', fork)).status).to.equal(200);
    const [pr] = await q("select pr.id, pr.head_branch from pull_requests pr join projects p on p.id = pr.project_id where p.project_key = 'acme-corp/ledger' and pr.number = 4");
    expect(pr.head_branch).to.equal('outsider:main');
    expect(await q('select commit_id from pull_request_commits where pull_request_id = $1', [pr.id])).to.deep.equal([]);
  });

  it('never links across tenants, whatever names match', async () => {
    // Tenant B's installation sends the same repository, PR number, branch and commits.
    expect((await deliver(api, 'pull_request', 'pull_request.opened', { installationId: 62000000 })).status).to.equal(200);
    expect((await deliver(api, 'push', 'push', { installationId: 62000000 })).status).to.equal(200);
    const id = await session(b, { projectKey: 'acme-corp/checkout-service', prNumber: 42, commitShas: [SHA_A] });
    const linked = await links(b, id);
    const [prB] = await q('select id from pull_requests where tenant_id = $1', [b.tenantId]);
    expect(linked.pullRequests.map((p: { id: string }) => p.id)).to.deep.equal([prB.id]);
    expect(linked.commits).to.have.length(1);
    const crossing = await q(`select l.id from ai_session_links l join ai_sessions s on s.id = l.session_id
      left join pull_requests pr on pr.id = l.pull_request_id left join commits c on c.id = l.commit_id
      where l.tenant_id <> s.tenant_id or pr.tenant_id <> s.tenant_id or c.tenant_id <> s.tenant_id`);
    expect(crossing).to.deep.equal([]);
    // A's sessions still see only A's PR.
    const [prA] = await q('select id from pull_requests where tenant_id = $1 and number = 42', [a.tenantId]);
    const aLinks = await q('select distinct pull_request_id from ai_session_links where tenant_id = $1 and pull_request_id is not null', [a.tenantId]);
    expect(aLinks.map((r) => r.pull_request_id)).to.include(prA.id).and.not.include(prB.id);
  });
});
