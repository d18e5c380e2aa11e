import { expect } from 'chai';
import { and, eq } from 'drizzle-orm';
import { projects } from '../../src/db/schema/index.js';
import { runCli } from '../helpers/cli.js';
import { buildMember, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import type { TestServer } from '../helpers/server.js';
import { CSV, EXAMPLE_REGISTER, ownStderr } from './helpers.js';
import { serverWithTwoTenants } from '../helpers/suites.js';

describe('Teams API and project ownership', function () {
  this.timeout(60_000);
  let api: TestServer, a: BuiltTenant, b: BuiltTenant;
  let ids: Record<string, string>;
  before(async () => {
    ({ api, a, b } = await serverWithTwoTenants());
    await api.as(a.owner.apiKey).post('/api/register/imports', EXAMPLE_REGISTER, CSV);
    ids = Object.fromEntries((await api.as(a.owner.apiKey).get('/api/teams')).body.data.map((x: any) => [x.slug, x.id]));
  });
  after(() => api.close());

  const owners = async (tenantId: string) => {
    const rows = await dbFor(api.databaseUrl).db.select({ key: projects.projectKey, provider: projects.provider, sourceType: projects.sourceType, team: projects.owningTeamId })
      .from(projects).where(eq(projects.tenantId, tenantId)).orderBy(projects.projectKey, projects.provider);
    return rows;
  };

  it('lists with paging and the enabled filter; GET one; 404 for unknown and malformed ids', async () => {
    const page = await api.as(a.owner.apiKey).get('/api/teams?perPage=1&page=2');
    expect(page.body.meta).to.deep.equal({ page: 2, perPage: 1, total: 3 });
    expect(page.body.data.map((x: any) => x.slug)).to.deep.equal(['payments']);
    const one = await api.as(a.owner.apiKey).get(`/api/teams/${ids.platform}`);
    expect(one.status).to.equal(200);
    expect(one.body.data).to.deep.include({ slug: 'platform', supplierName: 'Acme Consulting', deliveryModel: 'outsourced', memberCount: 2 });
    expect(one.body.meta).to.deep.equal({});
    expect((await api.as(a.owner.apiKey).get('/api/teams/00000000-0000-4000-8000-000000000000')).body)
      .to.deep.equal({ error: { code: 'not_found', message: 'Team not found' } });
    expectRefusal(await api.as(a.owner.apiKey).get('/api/teams/nope'), 404, apiError('not_found', 'Team not found'));
    expect((await api.as(a.owner.apiKey).get('/api/teams?enabled=false')).body.meta.total).to.equal(0);
    expectRefusal(await api.as(a.owner.apiKey).get('/api/teams?enabled=maybe'), 400, { error: { code: 'validation_failed', message: 'Validation failed', details: [{ path: 'query.enabled', message: 'Must be one of: true, false' }] } });
  });

  it('GET /api/people?q= finds people by external_ref, name or e-mail, case-insensitively, with LIKE wildcards taken literally; another tenant finds none', async () => {
    const refs = async (q: string, key = a.owner.apiKey) => {
      const res = await api.as(key).get(`/api/people?q=${encodeURIComponent(q)}`);
      expect(res.status).to.equal(200);
      return res.body.data.map((p: any) => p.externalRef);
    };
    expect(await refs('GRACE')).to.deep.equal(['E1002']);
    expect(await refs('e100')).to.deep.equal(['E1001', 'E1002']);
    expect(await refs('contractor.example')).to.deep.equal(['C2001']);
    expect(await refs('%')).to.deep.equal([]);
    expect(await refs('_')).to.deep.equal([]);
    expect(await refs('grace', b.owner.apiKey)).to.deep.equal([]);
    expectRefusal(await api.as(a.owner.apiKey).get(`/api/people?q=${'x'.repeat(101)}`), 400, { error: { code: 'validation_failed', message: 'Validation failed', details: [{ path: 'query.q', message: 'Must be at most 100 characters' }] } });
  });

  it('PATCH projects sets exactly the owned projects: creates missing ones as manual, takes them from other teams, releases the rest', async () => {
    const owner = api.as(a.owner.apiKey);
    let res = await owner.patch(`/api/teams/${ids.payments}`, { projects: ['acme/pay-api', 'acme/shared'] });
    expect(res.status).to.equal(200);
    expect(res.body.data.projects).to.deep.equal(['acme/pay-api', 'acme/shared']);
    expect(await owners(a.tenantId)).to.deep.equal([
      { key: 'acme/pay-api', provider: 'manual', sourceType: 'manual', team: ids.payments },
      { key: 'acme/shared', provider: 'manual', sourceType: 'manual', team: ids.payments },
    ]);
    res = await owner.patch(`/api/teams/${ids.checkout}`, { projects: ['acme/shared'] });
    expect(res.body.data.projects).to.deep.equal(['acme/shared']);
    expect((await owner.get(`/api/teams/${ids.payments}`)).body.data.projects).to.deep.equal(['acme/pay-api']);
    res = await owner.patch(`/api/teams/${ids.payments}`, { projects: [] });
    expect(res.body.data.projects).to.deep.equal([]);
    expect((await owners(a.tenantId)).map((p) => [p.key, p.team])).to.deep.equal([['acme/pay-api', null], ['acme/shared', ids.checkout]]);
  });

  it('PATCH validates its body and is owner-only; another tenant gets 404 and changes nothing', async () => {
    const bad = await api.as(a.owner.apiKey).patch(`/api/teams/${ids.payments}`, { projects: ['not a key'], colour: 'red' });
    expect(bad.status).to.equal(400);
    expect(bad.body.error.details.map((d: any) => d.path).sort()).to.deep.equal(['body', 'projects.0']);
    expectRefusal(await api.as(a.owner.apiKey).patch(`/api/teams/${ids.payments}`, {}), 400, { error: { code: 'validation_failed', message: 'Validation failed', details: [{ path: 'body', message: 'Give enabled and/or projects' }] } });
    const member = await buildMember(api.databaseUrl, a.tenantId);
    expectRefusal(await api.as(member.apiKey).patch(`/api/teams/${ids.payments}`, { enabled: false }), 403, apiError('forbidden', 'Only an owner of the tenant can do this'));
    expect((await api.as(member.apiKey).get(`/api/teams/${ids.payments}`)).status).to.equal(200);
    const cross = await api.as(b.owner.apiKey).patch(`/api/teams/${ids.payments}`, { enabled: false, projects: ['b/steal'] });
    expectRefusal(cross, 404, apiError('not_found', 'Team not found'));
    expectRefusal(await api.as(b.owner.apiKey).get(`/api/teams/${ids.payments}`), 404, apiError('not_found', 'Team not found'));
    expect((await api.as(a.owner.apiKey).get(`/api/teams/${ids.payments}`)).body.data.enabled).to.equal(true);
    expect(await owners(b.tenantId)).to.deep.equal([]);
  });

  it('PATCH with unknownProjects "refuse" names each key no project has (with the nearest known one) and writes nothing; "create" adds them; another tenant\'s projects are not known here', async () => {
    const owner = api.as(a.owner.apiKey);
    // Known: a project the webhook API created (any case matches), and tenant B's own project is not.
    expect((await owner.post('/api/webhooks/v1/deployments', { projectKey: 'acme/Billing-Service', externalId: 'k1', ref: 'main', sha: '9fceb02d0ae598e95dc970b74767f19372d61af8', environment: 'production', status: 'success' })).status).to.equal(201);
    expect((await api.as(b.owner.apiKey).post('/api/webhooks/v1/deployments', { projectKey: 'b/secret-repo', externalId: 'k1', ref: 'main', sha: '9fceb02d0ae598e95dc970b74767f19372d61af8', environment: 'production', status: 'success' })).status).to.equal(201);
    const before = await owners(a.tenantId);
    const refused = await owner.patch(`/api/teams/${ids.platform}`, { projects: ['acme/billing-service', 'acme/biling-service', 'b/secret-repo'], unknownProjects: 'refuse', enabled: false });
    expectRefusal(refused, 400, {
      error: {
        code: 'validation_failed',
        message: 'Unknown project keys: 2 keys name no project of this organisation (send "unknownProjects": "create" to add them anyway)',
        details: [
          { path: 'projects.1', message: 'No project of this organisation has the key "acme/biling-service" (did you mean acme/Billing-Service?): no pull request, deployment, issue or code-host event has named it yet' },
          { path: 'projects.2', message: 'No project of this organisation has the key "b/secret-repo": no pull request, deployment, issue or code-host event has named it yet' },
        ],
      },
    });
    // Nothing written, the enabled flag of the same request included.
    expect(await owners(a.tenantId)).to.deep.equal(before);
    expect((await owner.get(`/api/teams/${ids.platform}`)).body.data).to.deep.include({ enabled: true });
    const known = await owner.patch(`/api/teams/${ids.platform}`, { projects: ['ACME/billing-service'], unknownProjects: 'refuse' });
    expect(known.status).to.equal(200);
    expect(known.body.data.projects).to.deep.equal(['acme/Billing-Service']);
    const created = await owner.patch(`/api/teams/${ids.platform}`, { projects: ['acme/billing-service', 'acme/new-repo'], unknownProjects: 'create' });
    expect(created.body.data.projects).to.deep.equal(['acme/Billing-Service', 'acme/new-repo']);
    expectRefusal(await owner.patch(`/api/teams/${ids.platform}`, { projects: [], unknownProjects: 'maybe' }), 400, { error: { code: 'validation_failed', message: 'Validation failed', details: [{ path: 'unknownProjects', message: 'Must be one of: refuse, create' }] } });
    await owner.patch(`/api/teams/${ids.platform}`, { projects: [] });
  });

  it('manual memberships: an owner adds and removes them; register ones are refused; roster shows the source', async () => {
    const owner = api.as(a.owner.apiKey);
    const people = (await owner.get('/api/people')).body.data;
    const ada = people.find((p: any) => p.externalRef === 'E1001');
    const added = await owner.post(`/api/teams/${ids.platform}/members`, { personId: ada.id });
    expect(added.status).to.equal(201);
    expect(added.body.data.memberCount).to.equal(3);
    expect((await owner.post(`/api/teams/${ids.platform}/members`, { personId: ada.id })).status).to.equal(200);
    const roster = (await owner.get('/api/exports/team-roster?asOf=2025-01-31')).text;
    expect(roster).to.include('\nE1001,ada.lovelace@example.com,Ada Lovelace,employee,,CC-100,GB,platform,Platform,HR-T-03,CC-200,infrastructure,manual,2025-01-31\n');

    const registerOne = await owner.delete(`/api/teams/${ids.payments}/members/${ada.id}`);
    expect(registerOne.status).to.equal(409);
    expect(registerOne.body.error.code).to.equal('conflict');
    const member = await buildMember(api.databaseUrl, a.tenantId);
    expectRefusal(await api.as(member.apiKey).delete(`/api/teams/${ids.platform}/members/${ada.id}`), 403, apiError('forbidden', 'Only an owner of the tenant can do this'));
    expect((await api.as(b.owner.apiKey).delete(`/api/teams/${ids.platform}/members/${ada.id}`)).body)
      .to.deep.equal({ error: { code: 'not_found', message: 'Team not found' } });
    expectRefusal(await api.as(b.owner.apiKey).post(`/api/teams/${ids.platform}/members`, { personId: ada.id }), 404, apiError('not_found', 'Team not found'));
    const removed = await owner.delete(`/api/teams/${ids.platform}/members/${ada.id}`);
    expect(removed.status).to.equal(200);
    expect(removed.body.data.memberCount).to.equal(2);
    expectRefusal(await owner.delete(`/api/teams/${ids.platform}/members/${ada.id}`), 404, apiError('not_found', 'Membership not found'));
  });

  it('project:assign makes a team the owner from the command line (existing project of any provider, or a new manual one)', async () => {
    const { db } = dbFor(api.databaseUrl);
    await db.insert(projects).values({ tenantId: a.tenantId, provider: 'github', projectKey: 'acme/web', sourceType: 'github' });
    const env = { DATABASE_URL: api.databaseUrl };
    const ok = await runCli(['project:assign', `--tenant=${a.tenantId}`, '--project=acme/web', '--team=platform'], env);
    expect(ownStderr(ok.stderr)).to.equal('');
    expect(JSON.parse(ok.stdout)).to.deep.equal({ projectKey: 'acme/web', teamId: ids.platform, teamSlug: 'platform' });
    const [web] = await db.select().from(projects).where(and(eq(projects.tenantId, a.tenantId), eq(projects.projectKey, 'acme/web')));
    expect(web).to.deep.include({ provider: 'github', owningTeamId: ids.platform });
    const missing = await runCli(['project:assign', `--tenant=${a.tenantId}`, '--project=acme/web', '--team=nosuch'], env);
    expect(missing.code).to.equal(1);
    expect(ownStderr(missing.stderr)).to.equal('project:assign: Team "nosuch" not found\n');
  });
});
