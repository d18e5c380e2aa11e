import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { expectRefusal } from '../helpers/refusals.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { announceInstallation, codehostEnv, deliver, fixture, fixtureBytes, FIXTURE_INSTALLATION, recordedSignature, sign, WEBHOOK } from './helpers.js';

describe('code-host application webhooks', function () {
  let api: TestServer;
  let tenant: BuiltTenant;
  const q = async (text: string, values: unknown[] = []) => (await dbFor(api.databaseUrl).pool.query(text, values)).rows;
  const countOf = async (table: string) => Number((await q(`select count(*)::int as n from ${table}`))[0].n);

  before(async () => {
    api = await testServer({ env: codehostEnv() });
    tenant = await buildTenant(api.databaseUrl);
    await announceInstallation(api.databaseUrl, FIXTURE_INSTALLATION);
    const linked = await api.as(tenant.owner.apiKey).post('/api/integrations/codehost/installations', { installationId: FIXTURE_INSTALLATION });
    expect(linked.status).to.equal(201);
  });
  after(() => api.close());

  describe('signatures', () => {
    it('accepts a fixture sent byte for byte with its recorded signature', async () => {
      const res = await deliver(api, 'ping', 'ping', { delivery: 'ping-1', signature: recordedSignature('ping') });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ data: { delivery: 'ping-1', event: 'ping', stored: false, reason: 'ping' }, meta: {} });
    });

    it('refuses a wrong, tampered, malformed or missing signature with 401 and stores nothing', async () => {
      const body = fixtureBytes('pull_request.opened');
      const tampered = Buffer.from(body.toString('utf8').replace('Retry card', 'Retry kard'));
      for (const [payload, signature] of [
        [body, sign(body, 'some-other-secret')],
        [tampered, recordedSignature('pull_request.opened')],
        [body, recordedSignature('pull_request.opened').replace('sha256=', 'sha1=')],
        [body, recordedSignature('pull_request.opened').slice(0, -2)],
        [body, ''],
      ] as const) {
        const res = await api.post(WEBHOOK, new Uint8Array(payload), {
          'content-type': 'application/json',
          'x-github-event': 'pull_request',
          'x-github-delivery': randomUUID(),
          ...(signature ? { 'x-hub-signature-256': signature } : {}),
        });
        expect(res.status).to.equal(401);
        expect(res.body).to.deep.equal({ error: { code: 'unauthorized', message: 'Invalid webhook signature' } });
      }
      expect(await countOf('pull_requests')).to.equal(0);
      expect(await countOf('codehost_deliveries')).to.equal(0);
      expect(await countOf('projects')).to.equal(0);
    });

    it('answers 400 naming the missing delivery header of a correctly signed request', async () => {
      const body = fixtureBytes('push');
      const res = await api.post(WEBHOOK, new Uint8Array(body), { 'content-type': 'application/json', 'x-github-event': 'push', 'x-hub-signature-256': sign(body) });
      expect(res.status).to.equal(400);
      expect(res.body.error.details).to.deep.equal([{ path: 'X-GitHub-Delivery', message: 'Required' }]);
    });
  });

  describe('events of a linked installation', () => {
    it('installation created: records the account and creates a project per repository', async () => {
      const res = await deliver(api, 'installation', 'installation.created', { signature: recordedSignature('installation.created') });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ event: 'installation', stored: true });
      const [row] = await q('select tenant_id, account_login, account_type, deleted_at from codehost_installations where installation_id = $1', [FIXTURE_INSTALLATION]);
      expect(row).to.deep.equal({ tenant_id: tenant.tenantId, account_login: 'acme-corp', account_type: 'Organization', deleted_at: null });
      const projects = await q("select tenant_id, provider, project_key, source_type from projects order by project_key");
      expect(projects).to.deep.equal([
        { tenant_id: tenant.tenantId, provider: 'codehost', project_key: 'acme-corp/checkout-service', source_type: 'codehost' },
        { tenant_id: tenant.tenantId, provider: 'codehost', project_key: 'acme-corp/web-storefront', source_type: 'codehost' },
      ]);
    });

    it('installation_repositories added: creates the added repository\'s project', async () => {
      const res = await deliver(api, 'installation_repositories', 'installation_repositories.added');
      expect(res.status).to.equal(200);
      expect(await q("select project_key from projects where project_key = 'acme-corp/billing-worker'")).to.have.length(1);
    });

    it('pull_request opened: stores every field of the pull request', async () => {
      const res = await deliver(api, 'pull_request', 'pull_request.opened', { signature: recordedSignature('pull_request.opened') });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ event: 'pull_request', stored: true });
      const [pr] = await q(`select pr.tenant_id, p.project_key, pr.provider, pr.external_id, pr.number, pr.title, pr.url, pr.author_username, pr.state, pr.draft,
        pr.additions, pr.deletions, pr.changed_files, pr.commit_count, pr.labels, pr.head_branch, pr.head_sha, pr.base_branch, pr.merge_commit_sha,
        pr.created_at, pr.merged_at, pr.closed_at from pull_requests pr join projects p on p.id = pr.project_id`);
      expect(pr).to.deep.equal({
        tenant_id: tenant.tenantId,
        project_key: 'acme-corp/checkout-service',
        provider: 'codehost',
        external_id: '2093847561',
        number: 42,
        title: 'Retry card authorisation on gateway timeouts',
        url: 'https://github.com/acme-corp/checkout-service/pull/42',
        author_username: 'alice-dev',
        state: 'open',
        draft: false,
        additions: 120,
        deletions: 35,
        changed_files: 6,
        commit_count: 2,
        labels: [],
        head_branch: 'feature/card-retry',
        head_sha: '9f3c2a1b7d4e5f60718293a4b5c6d7e8f9012345',
        base_branch: 'main',
        merge_commit_sha: null,
        created_at: new Date('2026-11-02T09:45:12Z'),
        merged_at: null,
        closed_at: null,
      });
    });

    it('push: stores the commits with their trailers and attaches them to the open PR of the branch', async () => {
      const res = await deliver(api, 'push', 'push');
      expect(res.status).to.equal(200);
      const rows = await q('select sha, branch, author_username, author_name, author_email, committed_at, message, coauthors, ai_coauthors, url from commits order by committed_at');
      expect(rows).to.deep.equal([
        {
          sha: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
          branch: 'feature/card-retry',
          author_username: 'alice-dev',
          author_name: 'Alice Martin',
          author_email: 'alice@acme.example',
          committed_at: new Date('2026-11-02T09:58:21Z'),
          message: 'Retry card authorisation on gateway timeouts\n\nCo-Authored-By: Claude <noreply@anthropic.com>',
          coauthors: ['Claude <noreply@anthropic.com>'],
          ai_coauthors: ['claude'],
          url: 'https://github.com/acme-corp/checkout-service/commit/4b825dc642cb6eb9a060e54bf8d69288fbee4904',
        },
        {
          sha: '9f3c2a1b7d4e5f60718293a4b5c6d7e8f9012345',
          branch: 'feature/card-retry',
          author_username: 'alice-dev',
          author_name: 'Alice Martin',
          author_email: 'alice@acme.example',
          committed_at: new Date('2026-11-02T10:30:02Z'),
          message: 'Cover retry budget in tests\n\nCo-authored-by: Bob Stone <bob@acme.example>',
          coauthors: ['Bob Stone <bob@acme.example>'],
          ai_coauthors: [],
          url: 'https://github.com/acme-corp/checkout-service/commit/9f3c2a1b7d4e5f60718293a4b5c6d7e8f9012345',
        },
      ]);
      const members = await q('select pr.number, c.sha from pull_request_commits prc join pull_requests pr on pr.id = prc.pull_request_id join commits c on c.id = prc.commit_id order by c.sha');
      expect(members).to.deep.equal([
        { number: 42, sha: '4b825dc642cb6eb9a060e54bf8d69288fbee4904' },
        { number: 42, sha: '9f3c2a1b7d4e5f60718293a4b5c6d7e8f9012345' },
      ]);
      // A commit with an AI co-author trailer makes its PR AI-assisted (METRICS.md).
      expect(await q('select via_session, via_trailer, via_label, ai_assisted from pull_request_ai_assisted')).to.deep.equal([
        { via_session: false, via_trailer: true, via_label: false, ai_assisted: true },
      ]);
    });

    it('pull_request labeled and closed: labels, merge and close times; an older delivery arriving late changes nothing', async () => {
      expect((await deliver(api, 'pull_request', 'pull_request.labeled')).status).to.equal(200);
      expect((await deliver(api, 'pull_request', 'pull_request.closed')).status).to.equal(200);
      const late = await deliver(api, 'pull_request', 'pull_request.opened');
      expect(late.status).to.equal(200);
      const [pr] = await q('select state, labels, merged_at, closed_at, merge_commit_sha from pull_requests');
      expect(pr).to.deep.equal({
        state: 'merged',
        labels: ['ai-assisted'],
        merged_at: new Date('2026-11-03T16:20:04Z'),
        closed_at: new Date('2026-11-03T16:20:04Z'),
        merge_commit_sha: 'c0ffee0123456789abcdef0123456789abcdef01',
      });
      expect((await q('select via_label, ai_assisted from pull_request_ai_assisted'))[0]).to.deep.equal({ via_label: true, ai_assisted: true });
    });

    it('issues opened and closed: upserts the issue with provider codehost and a type from its labels', async () => {
      expect((await deliver(api, 'issues', 'issues.opened')).status).to.equal(200);
      expect((await deliver(api, 'issues', 'issues.closed')).status).to.equal(200);
      const rows = await q(`select i.tenant_id, p.project_key, i.provider, i.external_id, i.number, i.title, i.type, i.state, i.url,
        i.author_username, i.assignee_username, i.labels, i.created_at, i.closed_at from issues i join projects p on p.id = i.project_id`);
      expect(rows).to.deep.equal([{
        tenant_id: tenant.tenantId,
        project_key: 'acme-corp/checkout-service',
        provider: 'codehost',
        external_id: '2611009988',
        number: 17,
        title: 'Card authorisation fails on gateway timeout',
        type: 'bug',
        state: 'closed',
        url: 'https://github.com/acme-corp/checkout-service/issues/17',
        author_username: 'bob-ops',
        assignee_username: 'alice-dev',
        labels: ['bug'],
        created_at: new Date('2026-10-30T08:00:00Z'),
        closed_at: new Date('2026-11-03T16:20:06Z'),
      }]);
    });

    it('repository created and renamed: the project appears, then follows the new name with its history', async () => {
      expect((await deliver(api, 'repository', 'repository.created')).status).to.equal(200);
      expect(await q("select project_key from projects where project_key = 'acme-corp/ledger'")).to.have.length(1);
      const [before] = await q("select id from projects where project_key = 'acme-corp/checkout-service'");
      expect((await deliver(api, 'repository', 'repository.renamed')).status).to.equal(200);
      const [after] = await q("select id from projects where project_key = 'acme-corp/checkout-api'");
      expect(after.id).to.equal(before.id);
      expect(await q("select id from projects where project_key = 'acme-corp/checkout-service'")).to.have.length(0);
    });

    it('refuses a signed pull request whose title holds NUL or whose number is past integer, storing nothing', async () => {
      const before = await countOf('pull_requests');
      const nul = fixture('pull_request.opened');
      nul.pull_request.title = 'Fix\u0000checkout';
      const refused = await deliver(api, 'pull_request', nul);
      expect(refused.status).to.equal(400);
      expect(refused.body.error.details).to.deep.equal([{ path: 'pull_request.title', message: 'Must not contain the NUL character (U+0000)' }]);
      const huge = fixture('pull_request.opened');
      huge.pull_request.additions = 2_147_483_648;
      expectRefusal(await deliver(api, 'pull_request', huge), 400, { error: { code: 'validation_failed', message: 'A value cannot be stored', details: [{ path: 'body', message: 'A value is outside what the database can store (SQLSTATE 22003)' }] } });
      expect(await countOf('pull_requests')).to.equal(before);
    });

    it('acknowledges events it does not use without storing them', async () => {
      const res = await deliver(api, 'star', { action: 'created', installation: { id: FIXTURE_INSTALLATION }, repository: { full_name: 'acme-corp/x' } });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal({ delivery: res.body.data.delivery, event: 'star', stored: false, reason: 'event star is not used' });
      // An event named like an inherited property is just another unused event, never a handler.
      for (const event of ['constructor', 'toString', 'hasOwnProperty']) {
        const odd = await deliver(api, event, { action: 'created', installation: { id: FIXTURE_INSTALLATION }, repository: { full_name: 'acme-corp/x' } });
        expect(odd.status, event).to.equal(200);
        expect(odd.body.data).to.include({ stored: false, reason: `event ${event} is not used` });
      }
    });
  });

  describe('projects owned or switched off before their first event', () => {
    it('a new codehost project takes the owning team of the key; sync flags off skip PRs and issues', async () => {
      const [team] = await q("insert into teams (tenant_id, slug, name) values ($1, 'payments', 'Payments') returning id", [tenant.tenantId]);
      await q("insert into projects (tenant_id, provider, project_key, source_type, owning_team_id) values ($1, 'manual', 'acme-corp/payments', 'manual', $2)", [tenant.tenantId, team.id]);
      const issue = fixture('issues.opened');
      issue.repository.full_name = 'acme-corp/payments';
      issue.issue.id = 777001;
      expect((await deliver(api, 'issues', issue)).status).to.equal(200);
      const [project] = await q("select id, owning_team_id from projects where provider = 'codehost' and project_key = 'acme-corp/payments'");
      expect(project.owning_team_id).to.equal(team.id);
      expect(await q("select number from issues where external_id = '777001'")).to.deep.equal([{ number: 17 }]);

      await q('update projects set sync_issues = false, sync_pull_requests = false where id = $1', [project.id]);
      issue.issue.id = 777002;
      const pr = fixture('pull_request.opened');
      pr.repository.full_name = 'acme-corp/payments';
      expect((await deliver(api, 'issues', issue)).status).to.equal(200);
      expect((await deliver(api, 'pull_request', pr)).status).to.equal(200);
      expect(await q("select id from issues where external_id = '777002'")).to.deep.equal([]);
      expect(await q('select id from pull_requests where project_id = $1', [project.id])).to.deep.equal([]);
    });
  });

  describe('redelivery', () => {
    it('a delivery id seen before is a no-op, even with a changed payload', async () => {
      const payload = fixture('issues.opened');
      payload.issue.id = 999001;
      payload.issue.number = 901;
      payload.issue.title = 'First title';
      const first = await deliver(api, 'issues', payload, { delivery: 'delivery-redelivered' });
      expect(first.status).to.equal(200);
      expect(first.body.data.stored).to.equal(true);
      payload.issue.title = 'Changed title';
      const again = await deliver(api, 'issues', payload, { delivery: 'delivery-redelivered' });
      expect(again.status).to.equal(200);
      expect(again.body.data).to.deep.equal({ delivery: 'delivery-redelivered', event: 'issues', stored: false, duplicate: true });
      expect(await q("select title from issues where external_id = '999001'")).to.deep.equal([{ title: 'First title' }]);
      expect(await q("select tenant_id, installation_id, event, action from codehost_deliveries where delivery_id = 'delivery-redelivered'")).to.deep.equal([
        { tenant_id: tenant.tenantId, installation_id: FIXTURE_INSTALLATION, event: 'issues', action: 'opened' },
      ]);
    });
  });

  describe('unlinked installations', () => {
    it('stores nothing of their events and notes the installation once', async () => {
      const before = { prs: await countOf('pull_requests'), deliveries: await countOf('codehost_deliveries'), projects: await countOf('projects') };
      const first = await deliver(api, 'pull_request', 'pull_request.opened', { installationId: 7001 });
      expect(first.status).to.equal(202);
      expect(first.body.data).to.include({ stored: false, reason: 'installation is not linked to a tenant' });
      const [noted] = await q('select tenant_id, unlinked_logged_at from codehost_installations where installation_id = 7001');
      expect(noted.tenant_id).to.equal(null);
      expect(noted.unlinked_logged_at).to.be.an.instanceOf(Date);
      const second = await deliver(api, 'push', 'push', { installationId: 7001 });
      expect(second.status).to.equal(202);
      const [still] = await q('select unlinked_logged_at from codehost_installations where installation_id = 7001');
      expect(still.unlinked_logged_at.getTime()).to.equal(noted.unlinked_logged_at.getTime());
      expect({ prs: await countOf('pull_requests'), deliveries: await countOf('codehost_deliveries'), projects: await countOf('projects') }).to.deep.equal(before);
    });
  });

  describe('installation removed', () => {
    it('marks the installation removed and keeps its facts', async () => {
      const res = await deliver(api, 'installation', 'installation.deleted');
      expect(res.status).to.equal(200);
      const [row] = await q('select tenant_id, deleted_at from codehost_installations where installation_id = $1', [FIXTURE_INSTALLATION]);
      expect(row.tenant_id).to.equal(tenant.tenantId);
      expect(row.deleted_at).to.be.an.instanceOf(Date);
      expect(await countOf('pull_requests')).to.equal(1);
    });
  });
});

describe('code-host webhooks without their configuration', function () {
  it('answer 503 naming the missing variable, without the secret and without the application', async () => {
    for (const [env, message] of [
      [codehostEnv(null), 'Code-host webhooks are not accepted: CODEHOST_APP_WEBHOOK_SECRET is not set'],
      [{}, 'Code-host webhooks are not accepted: the code-host application is not configured (CODEHOST_APP_ID)'],
    ] as const) {
      const api = await testServer({ env });
      try {
        const res = await deliver(api, 'ping', 'ping', { signature: recordedSignature('ping') });
        expect(res.status).to.equal(503);
        expect(res.body).to.deep.equal({ error: { code: 'unavailable', message } });
      } finally {
        await api.close();
      }
    }
  });
});
