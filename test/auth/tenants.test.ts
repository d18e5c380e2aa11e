import { expect } from 'chai';
import { buildMember, buildSessionCookie, type BuiltTenant } from '../helpers/factories.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import type { TestServer } from '../helpers/server.js';
import { serverWithTwoTenants } from '../helpers/suites.js';

describe('tenants from the web app: create and rename', function () {
  this.timeout(60_000);
  let api: TestServer, a: BuiltTenant, b: BuiltTenant;
  before(async () => ({ api, a, b } = await serverWithTwoTenants({}, { a: 'Acme', b: 'Beta Corp' })));
  after(() => api.close());

  it('POST /api/tenants: any signed-in user creates one and owns it; a bad name is 400 with the field; no credentials 401', async () => {
    const member = await buildMember(api.databaseUrl, a.tenantId);
    const created = await api.as(member.apiKey).post('/api/tenants', { name: '  Acme Labs ' });
    expect(created.status).to.equal(201);
    expect(created.body.data).to.deep.include({ name: 'Acme Labs', slug: 'acme-labs', role: 'owner' });
    const cookie = await buildSessionCookie(api.databaseUrl, member.userId, a.tenantId);
    const me = await api.get('/api/users/me', { cookie });
    expect(me.body.data.tenants.map((t: { name: string; role: string }) => [t.name, t.role])).to.deep.include.members([['Acme', 'member'], ['Acme Labs', 'owner']]);
    const again = await api.as(member.apiKey).post('/api/tenants', { name: 'Acme Labs' });
    expect(again.body.data.slug).to.equal('acme-labs-2');

    const empty = await api.as(member.apiKey).post('/api/tenants', { name: '   ' });
    expect(empty.status).to.equal(400);
    expect(empty.body.error.details).to.deep.equal([{ path: 'name', message: 'A name is required' }]);
    expectRefusal(await api.as(member.apiKey).post('/api/tenants', { name: 'x', slug: 'mine' }), 400, { error: { code: 'validation_failed', message: 'Validation failed', details: [{ path: 'body', message: 'Unknown field: slug' }] } });
    expectRefusal(await api.post('/api/tenants', { name: 'Nobody' }), 401, apiError('unauthorized', 'Missing or invalid credentials'));
  });

  it('PATCH /api/tenants/:id renames the active tenant (owner only); the slug stays; another tenant’s or a malformed id is 404 and changes nothing', async () => {
    const renamed = await api.as(a.owner.apiKey).patch(`/api/tenants/${a.tenantId}`, { name: 'Acme Group' });
    expect(renamed.status).to.equal(200);
    expect(renamed.body.data).to.deep.equal({ id: a.tenantId, name: 'Acme Group', slug: 'acme' });
    const member = await buildMember(api.databaseUrl, a.tenantId);
    const refused = await api.as(member.apiKey).patch(`/api/tenants/${a.tenantId}`, { name: 'Mine now' });
    expectRefusal(refused, 403, apiError('forbidden', 'Only an owner of the tenant can do this'));
    const cross = await api.as(b.owner.apiKey).patch(`/api/tenants/${a.tenantId}`, { name: 'Taken over' });
    expect(cross.status).to.equal(404);
    expect(cross.body).to.deep.equal({ error: { code: 'not_found', message: 'Tenant not found' } });
    expectRefusal(await api.as(b.owner.apiKey).patch('/api/tenants/not-a-uuid', { name: 'x' }), 404, apiError('not_found', 'Tenant not found'));
    expectRefusal(await api.as(a.owner.apiKey).patch(`/api/tenants/${a.tenantId}`, { name: '' }), 400, { error: { code: 'validation_failed', message: 'Validation failed', details: [{ path: 'name', message: 'A name is required' }] } });
    const cookie = await buildSessionCookie(api.databaseUrl, a.owner.userId, a.tenantId);
    expect((await api.get('/api/users/me', { cookie })).body.data.activeTenant.name).to.equal('Acme Group');
  });
});
