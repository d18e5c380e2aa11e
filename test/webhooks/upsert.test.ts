import { expect } from 'chai';
import { testServer, type TestServer } from '../helpers/server.js';
import { DEPLOYMENTS, deployment, ISSUES, issue, rows, Sender, serverWithSender } from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('webhook API v1: upserts', () => {
  let api: TestServer, sender: Sender;
  before(async () => ({ api, sender } = await serverWithSender()));
  after(() => api.close());

  it('creates with 201, then replaces with 200 under the same id; the body is exactly the success response', async () => {
    const first = await sender.post(ISSUES, issue({
      externalId: 'JIRA-1', title: 'Old', body: 'desc', url: 'https://t/1', authorUsername: 'alice', assigneeUsername: 'bob',
      labels: ['a', 'b'], metadata: { k: 1 }, createdAt: '2024-05-01T10:00:00+02:00',
    }));
    expect(first.status).to.equal(201);
    const id = first.body.id as string;
    expect(id).to.match(UUID);
    expect(first.text).to.equal(JSON.stringify({ success: true, action: 'created', id, externalId: 'JIRA-1' }));

    const second = await sender.post(ISSUES, issue({ externalId: 'JIRA-1', title: 'New', type: 'feature', state: 'in_progress', labels: ['c'] }));
    expect(second.status).to.equal(200);
    expect(second.text).to.equal(JSON.stringify({ success: true, action: 'updated', id, externalId: 'JIRA-1' }));

    const [row] = await rows(api, `select * from issues where id = $1`, [id]);
    expect(row).to.include({ tenant_id: sender.tenantId, provider: 'manual', external_id: 'JIRA-1', number: 1, title: 'New', type: 'feature', state: 'in_progress' });
    // Omitted optional fields are cleared; createdAt and number keep their stored values.
    expect(row).to.include({ body: null, url: null, author_username: null, assignee_username: null, metadata: null, closed_at: null });
    expect(row.labels).to.deep.equal(['c']);
    expect(row.created_at.toISOString()).to.equal('2024-05-01T08:00:00.000Z');

    // Repeating the same request is safe: still one record.
    const again = await sender.post(ISSUES, issue({ externalId: 'JIRA-1', title: 'New', type: 'feature', state: 'in_progress', labels: ['c'] }));
    expect(again.status).to.equal(200);
    expect(await rows(api, `select id from issues where tenant_id = $1 and external_id = 'JIRA-1'`, [sender.tenantId])).to.have.length(1);
  });

  it('stores an issue as sent, with createdAt now and closedAt now (while closed) by default', async () => {
    const before = Date.now();
    const res = await sender.post(ISSUES, issue({ projectKey: 'acme/closing', externalId: 'C-1', state: 'closed', labels: ['x'], metadata: { causedByDeployment: 'd-9', n: [1, { a: null }] } }));
    const [row] = await rows(api, `select * from issues where id = $1`, [res.body.id]);
    expect(row.created_at.getTime()).to.be.within(before - 1000, Date.now() + 1000);
    expect(row.closed_at.getTime()).to.be.within(before - 1000, Date.now() + 1000);
    expect(row.metadata).to.deep.equal({ causedByDeployment: 'd-9', n: [1, { a: null }] });
    const closedAt = row.closed_at.toISOString();

    // Still closed, no closedAt: the stored close time stays. Reopened: cleared. Explicit values win.
    await sender.post(ISSUES, issue({ projectKey: 'acme/closing', externalId: 'C-1', state: 'closed' }));
    expect((await rows(api, `select closed_at from issues where id = $1`, [res.body.id]))[0].closed_at.toISOString()).to.equal(closedAt);
    await sender.post(ISSUES, issue({ projectKey: 'acme/closing', externalId: 'C-1', state: 'open' }));
    expect((await rows(api, `select closed_at from issues where id = $1`, [res.body.id]))[0].closed_at).to.equal(null);
    await sender.post(ISSUES, issue({ projectKey: 'acme/closing', externalId: 'C-1', state: 'closed', closedAt: '2024-06-01T00:00:00-01:00' }));
    expect((await rows(api, `select closed_at from issues where id = $1`, [res.body.id]))[0].closed_at.toISOString()).to.equal('2024-06-01T01:00:00.000Z');
    await sender.post(ISSUES, issue({ projectKey: 'acme/closing', externalId: 'C-1', state: 'closed', closedAt: null }));
    expect((await rows(api, `select closed_at from issues where id = $1`, [res.body.id]))[0].closed_at).to.equal(null);
  });

  it('stores a deployment as sent: task defaults, rollback, isProduction absent stays NULL, hashes lowercase', async () => {
    const plain = await sender.post(DEPLOYMENTS, deployment({ externalId: 'D-1', sha: 'ABCDEF1' }));
    expect(plain.status).to.equal(201);
    let [row] = await rows(api, `select * from deployments where id = $1`, [plain.body.id]);
    expect(row).to.include({ provider: 'manual', task: 'deploy', is_production: null, is_rollback: false, rollback_from_sha: null, sha: 'abcdef1', environment: 'production', status: 'success', ref: 'main' });

    const rollback = await sender.post(DEPLOYMENTS, deployment({
      externalId: 'D-2', task: 'deploy', isRollback: true, rollbackFromSha: 'ABCDEF1', isProduction: false, environment: 'staging',
      description: 'revert', url: 'https://ci/2', creatorUsername: 'ci-bot', createdAt: '2024-05-01T12:00:00Z', metadata: { run: 7 },
    }));
    [row] = await rows(api, `select * from deployments where id = $1`, [rollback.body.id]);
    expect(row).to.include({ task: 'rollback', is_rollback: true, rollback_from_sha: 'abcdef1', is_production: false, environment: 'staging', description: 'revert', url: 'https://ci/2', creator_username: 'ci-bot' });
    expect(row.created_at.toISOString()).to.equal('2024-05-01T12:00:00.000Z');
    expect(row.metadata).to.deep.equal({ run: 7 });

    const custom = await sender.post(DEPLOYMENTS, deployment({ externalId: 'D-3', task: 'migrate', isProduction: true, environment: 'qa' }));
    [row] = await rows(api, `select * from deployments where id = $1`, [custom.body.id]);
    expect(row).to.include({ task: 'migrate', is_production: true });

    // A status update keeps createdAt, replaces the rest (the rollback flag too).
    const update = await sender.post(DEPLOYMENTS, deployment({ externalId: 'D-2', status: 'failure', environment: 'production' }));
    expect(update.status).to.equal(200);
    expect(update.body.id).to.equal(rollback.body.id);
    [row] = await rows(api, `select * from deployments where id = $1`, [rollback.body.id]);
    expect(row).to.include({ status: 'failure', task: 'deploy', is_rollback: false, rollback_from_sha: null, is_production: null, description: null });
    expect(row.created_at.toISOString()).to.equal('2024-05-01T12:00:00.000Z');
  });

  it('auto-creates a missing project once, as manual with the three sync flags on', async () => {
    await sender.post(ISSUES, issue({ projectKey: 'new/project', externalId: 'P-1' }));
    await sender.post(DEPLOYMENTS, deployment({ projectKey: 'new/project', externalId: 'P-2' }));
    const projects = await rows(api, `select * from projects where tenant_id = $1 and project_key = 'new/project'`, [sender.tenantId]);
    expect(projects).to.have.length(1);
    expect(projects[0]).to.include({ provider: 'manual', source_type: 'manual', sync_issues: true, sync_pull_requests: true, sync_deployments: true });
    const linked = await rows(api, `select project_id from issues where external_id = 'P-1' union all select project_id from deployments where external_id = 'P-2'`);
    expect(linked.map((r) => r.project_id)).to.deep.equal([projects[0].id, projects[0].id]);
  });

  it('generates issue numbers per project; an explicit number moves the counter forward; updates keep it', async () => {
    const post = async (over: Record<string, unknown>) => (await sender.post(ISSUES, issue({ projectKey: 'num/bers', ...over }))).body.id as string;
    const numberOf = async (id: string) => (await rows(api, `select number from issues where id = $1`, [id]))[0].number;
    const a = await post({ externalId: 'N-a' });
    const b = await post({ externalId: 'N-b' });
    expect([await numberOf(a), await numberOf(b)]).to.deep.equal([1, 2]);
    const ten = await post({ externalId: 'N-ten', number: 10 });
    expect(await numberOf(ten)).to.equal(10);
    expect(await numberOf(await post({ externalId: 'N-c' }))).to.equal(11);
    await post({ externalId: 'N-low', number: 3 });
    expect(await numberOf(await post({ externalId: 'N-d' }))).to.equal(12);
    // Updating without a number keeps it (and uses up no number); with a number, it is replaced.
    await post({ externalId: 'N-a', title: 'renamed' });
    expect(await numberOf(a)).to.equal(1);
    expect(await numberOf(await post({ externalId: 'N-e' }))).to.equal(13);
    await post({ externalId: 'N-b', number: 40 });
    expect(await numberOf(b)).to.equal(40);
    // Another project counts from 1; an issue moved there without a number gets the next one there.
    expect(await numberOf(await post({ projectKey: 'other/proj', externalId: 'O-1' }))).to.equal(1);
    await post({ projectKey: 'other/proj', externalId: 'N-e' });
    expect(await numberOf(await post({ projectKey: 'other/proj', externalId: 'O-1' }))).to.equal(1);
    expect((await rows(api, `select number from issues where external_id = 'N-e' and tenant_id = $1`, [sender.tenantId]))[0].number).to.equal(2);
  });

  it('50 simultaneous posts of a new externalId (new project): one record, one created, 49 updated', async () => {
    for (const [path, build, table] of [[ISSUES, issue, 'issues'], [DEPLOYMENTS, deployment, 'deployments']] as const) {
      const other = await Sender.create(api);
      const client = await other.client();
      const body = build({ projectKey: `race/${table}`, externalId: `RACE-${table}` });
      const results = await Promise.all(Array.from({ length: 50 }, () => client.post(path, body)));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201), table).to.have.length(1);
      expect(statuses.filter((s) => s === 200), table).to.have.length(49);
      expect(new Set(results.map((r) => r.body.id)).size).to.equal(1);
      expect(results.filter((r) => r.body.action === 'created')).to.have.length(1);
      expect(await rows(api, `select id from ${table} where tenant_id = $1`, [other.tenantId])).to.have.length(1);
      expect(await rows(api, `select id from projects where tenant_id = $1`, [other.tenantId])).to.have.length(1);
    }
  });

  it('50 simultaneous new issues of a new project: one project, numbers 1..50 each once', async () => {
    const other = await Sender.create(api);
    const client = await other.client();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => client.post(ISSUES, issue({ projectKey: 'race/numbers', externalId: `R-${i}` }))));
    expect(results.every((r) => r.status === 201)).to.equal(true);
    const projects = await rows(api, `select id, issue_seq from projects where tenant_id = $1`, [other.tenantId]);
    expect(projects).to.have.length(1);
    expect(projects[0].issue_seq).to.equal(50);
    const numbers = (await rows(api, `select number from issues where tenant_id = $1 order by number`, [other.tenantId])).map((r) => r.number);
    expect(numbers).to.deep.equal(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('keeps tenants apart: the same externalId and projectKey in two tenants are two records', async () => {
    const a = await Sender.create(api);
    const b = await Sender.create(api);
    for (const [path, build, table] of [[ISSUES, issue, 'issues'], [DEPLOYMENTS, deployment, 'deployments']] as const) {
      const ra = await a.post(path, build({ projectKey: 'shared/name', externalId: 'SAME-1', ...(table === 'issues' ? { title: 'A' } : { ref: 'a' }) }));
      const rb = await b.post(path, build({ projectKey: 'shared/name', externalId: 'SAME-1', ...(table === 'issues' ? { title: 'B' } : { ref: 'b' }) }));
      expect([ra.status, rb.status]).to.deep.equal([201, 201]);
      expect(ra.body.id).not.to.equal(rb.body.id);
      const stored = await rows(api, `select r.tenant_id, p.tenant_id as project_tenant, ${table === 'issues' ? 'title' : 'ref'} as v from ${table} r join projects p on p.id = r.project_id where r.external_id = 'SAME-1' order by v`);
      expect(stored).to.deep.equal([
        { tenant_id: a.tenantId, project_tenant: a.tenantId, v: table === 'issues' ? 'A' : 'a' },
        { tenant_id: b.tenantId, project_tenant: b.tenantId, v: table === 'issues' ? 'B' : 'b' },
      ]);
    }
    expect(await rows(api, `select tenant_id from projects where project_key = 'shared/name' order by tenant_id`)).to.have.length(2);
    // B's issue in its own project is number 1: numbering is per project, per tenant.
    expect((await rows(api, `select number from issues where tenant_id = $1 and external_id = 'SAME-1'`, [b.tenantId]))[0].number).to.equal(1);
  });
});

describe('webhook API v1: internal errors', () => {
  it('answers 500 with exactly {"error":"Internal server error"} and nothing internal', async () => {
    const api = await testServer();
    try {
      const sender = await Sender.create(api);
      await rows(api, 'alter table deployments rename to deployments_moved');
      const res = await sender.post(DEPLOYMENTS, deployment());
      expect(res.status).to.equal(500);
      expect(res.text).to.equal('{"error":"Internal server error"}');
    } finally {
      await api.close();
    }
  });
});
