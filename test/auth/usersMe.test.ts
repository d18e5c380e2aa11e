import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { loginSessions, tenants, users } from '../../src/db/schema/index.js';
import { sha256 } from '../../src/auth/secrets.js';
import { ACTIONS, authorize, TENANT_ACTIONS, type Action } from '../../src/auth/policies.js';
import { permissionsOf, ROLES, type Role, type TenantPrincipal } from '../../src/auth/principal.js';
import { AppError } from '../../src/errors.js';
import { buildMember, buildSessionCookie, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import type { TestServer } from '../helpers/server.js';
import { serverWithTwoTenants } from '../helpers/suites.js';

describe('GET and PATCH /api/users/me', () => {
  let api: TestServer, a: BuiltTenant, b: BuiltTenant;
  const slugOf = async (id: string) => (await dbFor(api.databaseUrl).db.select().from(tenants).where(eq(tenants.id, id)))[0]!.slug;
  before(async () => ({ api, a, b } = await serverWithTwoTenants({ env: { ADMIN_SECRET: 'admin-secret-for-tests' } })));
  after(() => api.close());

  it('an API key sees its user and only its own tenant', async () => {
    // The owner of A is also a member of B: the key of A must not reveal B.
    await buildMember(api.databaseUrl, b.tenantId, 'member', a.owner.email);
    const res = await api.as(a.owner.apiKey).get('/api/users/me');
    expect(res.status).to.equal(200);
    const tenantA = { id: a.tenantId, name: a.name, slug: await slugOf(a.tenantId), role: 'owner' };
    expect(res.body).to.deep.equal({
      data: { user: { id: a.owner.userId, email: a.owner.email, displayName: null }, tenants: [tenantA], activeTenant: tenantA, actions: TENANT_ACTIONS },
      meta: { features: { billing: false } },
    });
  });

  it('a session sees every tenant of the user and can switch the active one', async () => {
    const user = await buildTenant(api.databaseUrl);
    await buildMember(api.databaseUrl, b.tenantId, 'member', user.owner.email);
    const cookie = await buildSessionCookie(api.databaseUrl, user.owner.userId);
    const own = { id: user.tenantId, name: user.name, slug: await slugOf(user.tenantId), role: 'owner' };
    const other = { id: b.tenantId, name: b.name, slug: await slugOf(b.tenantId), role: 'member' };

    const before = await api.with({ cookie }).get('/api/users/me');
    expect(before.body.data.tenants).to.deep.equal([own, other]);
    expect(before.body.data.activeTenant).to.deep.equal(own);

    const switched = await api.with({ cookie }).patch('/api/users/me', { activeTenantId: b.tenantId });
    expect(switched.status).to.equal(200);
    expect(switched.body.data.activeTenant).to.deep.equal(other);
    // What the session may do now is what a member of B may do.
    expect(before.body.data.actions).to.include('tenant.manage');
    expect(switched.body.data.actions).to.deep.equal(['member.list']);
    const [session] = await dbFor(api.databaseUrl).db.select().from(loginSessions).where(eq(loginSessions.tokenHash, sha256(cookie.slice('sessionId='.length))));
    expect(session!.activeTenantId).to.equal(b.tenantId);
    // The session now acts in B with B's role: B's keys list shows only this member's own keys.
    expect((await api.with({ cookie }).get('/api/users/me')).body.data.activeTenant).to.deep.equal(other);
    expect((await api.with({ cookie }).get('/api/keys')).body.data.map((k: { createdBy: { userId: string } }) => k.createdBy.userId)).to.deep.equal([user.owner.userId]);

    const foreign = await api.with({ cookie }).patch('/api/users/me', { activeTenantId: a.tenantId });
    expect(foreign.status).to.equal(404);
    expect(foreign.body).to.deep.equal({ error: { code: 'not_found', message: 'Tenant not found' } });
  });

  describe('actions: what the caller may do in the active tenant, from the policy table', () => {
    /** The actions whose rule looks at a record (a key, a notebook, a session): never listed. */
    const RECORD_ACTIONS: Action[] = ['key.revoke', 'notebook.change', 'session.readTranscript', 'session.delete'];
    /** What `authorize` lets the role do, action by action; a refusal is the 403 it throws. */
    const allowedByAuthorize = (principal: TenantPrincipal) =>
      ACTIONS.filter((action) => !RECORD_ACTIONS.includes(action)).filter((action) => {
        try {
          (authorize as (p: TenantPrincipal, a: Action) => void)(principal, action);
          return true;
        } catch (error) {
          if (error instanceof AppError && error.code === 'forbidden') return false;
          throw error;
        }
      });
    /** Written by hand, so that the comparison with `authorize` cannot pass by listing nothing or everything. */
    const byHand: Record<Role, { may: Action[]; mayNot: Action[] }> = {
      owner: { may: ['deploymentSource.manage', 'member.list'], mayNot: [] },
      member: { may: ['member.list'], mayNot: ['deploymentSource.manage', 'bi.manage'] },
    };

    it('the table’s record actions are the ones that take a record', () => {
      expect(ACTIONS.filter((action) => !TENANT_ACTIONS.includes(action as never))).to.deep.equal(RECORD_ACTIONS);
    });

    for (const role of ROLES) {
      it(`${role}: exactly the tenant actions authorize allows, over an API key and a session`, async () => {
        const t = await buildTenant(api.databaseUrl);
        const user = role === 'owner' ? t.owner : await buildMember(api.databaseUrl, t.tenantId, role);
        const principal: TenantPrincipal = { kind: 'api_key', tenantId: t.tenantId, userId: user.userId, role, permissions: permissionsOf(role) };
        const expected = allowedByAuthorize(principal);
        expect(expected).to.include.members(byHand[role].may);
        for (const action of byHand[role].mayNot) expect(expected).not.to.include(action);
        const cookie = await buildSessionCookie(api.databaseUrl, user.userId, t.tenantId);
        for (const res of [await api.as(user.apiKey).get('/api/users/me'), await api.with({ cookie }).get('/api/users/me')]) {
          expect(res.status).to.equal(200);
          expect(res.body.data.activeTenant.role).to.equal(role);
          expect(res.body.data.actions).to.deep.equal(expected);
        }
      });
    }
  });

  it('updates the display name; null or "" clears it', async () => {
    const user = await buildTenant(api.databaseUrl);
    const res = await api.as(user.owner.apiKey).patch('/api/users/me', { displayName: '  Ada Lovelace ' });
    expect(res.status).to.equal(200);
    expect(res.body.data.user).to.deep.equal({ id: user.owner.userId, email: user.owner.email, displayName: 'Ada Lovelace' });
    const [row] = await dbFor(api.databaseUrl).db.select().from(users).where(eq(users.id, user.owner.userId));
    expect(row!.displayName).to.equal('Ada Lovelace');
    expect((await api.as(user.owner.apiKey).patch('/api/users/me', { displayName: '' })).body.data.user.displayName).to.equal(null);
    await api.as(user.owner.apiKey).patch('/api/users/me', { displayName: 'Again' });
    expect((await api.as(user.owner.apiKey).patch('/api/users/me', { displayName: null })).body.data.user.displayName).to.equal(null);
  });

  it('rejects unknown fields, bad values and empty updates with 400', async () => {
    const cases: Array<[unknown, string[]]> = [
      [{ displayName: 'x', email: 'new@example.com' }, ['body']],
      [{ displayName: 'x'.repeat(101) }, ['displayName']],
      [{ displayName: 5 }, ['displayName']],
      [{ activeTenantId: 'not-a-uuid' }, ['activeTenantId']],
      [{}, ['body']],
    ];
    for (const [body, paths] of cases) {
      const res = await api.as(a.owner.apiKey).patch('/api/users/me', body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.error.code).to.equal('validation_failed');
      expect(res.body.error.details.map((d: { path: string }) => d.path), JSON.stringify(body)).to.deep.equal(paths);
    }
    const keySwitch = await api.as(a.owner.apiKey).patch('/api/users/me', { activeTenantId: b.tenantId });
    expect(keySwitch.status).to.equal(400);
    expect(keySwitch.body.error.details).to.deep.equal([{ path: 'activeTenantId', message: 'Only a login session can switch tenants; an API key is bound to its tenant' }]);
  });

  it('401 without credentials, 403 for the global administrator (no tenant)', async () => {
    expectRefusal(await api.get('/api/users/me'), 401, apiError('unauthorized', 'Missing or invalid credentials'));
    expectRefusal(await api.patch('/api/users/me', { displayName: 'x' }), 401, apiError('unauthorized', 'Missing or invalid credentials'));
    const admin = await api.with({ 'x-admin-secret': 'admin-secret-for-tests' }).get('/api/users/me');
    expect(admin.status).to.equal(403);
    expect(admin.body.error.code).to.equal('forbidden');
  });
});
