import { expect } from 'chai';
import { and, eq } from 'drizzle-orm';
import { apiKeys, loginSessions, tenantMemberships } from '../../src/db/schema/index.js';
import { sha256 } from '../../src/auth/secrets.js';
import { buildMember, buildSessionCookie, buildTenant, dbFor, type BuiltTenant, type BuiltUser } from '../helpers/factories.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import type { TestServer } from '../helpers/server.js';
import { serverWithTwoTenants } from '../helpers/suites.js';

const NOT_FOUND = { error: { code: 'not_found', message: 'Member not found' } };
const FORBIDDEN = { error: { code: 'forbidden', message: 'You do not have permission to do this' } };
const LAST_OWNER_DEMOTE = { error: { code: 'last_owner', message: "This is the tenant's last owner and cannot be made a member; make someone else an owner first" } };
const LAST_OWNER_REMOVE = { error: { code: 'last_owner', message: "This is the tenant's last owner and cannot be removed; make someone else an owner first" } };

describe('members API', () => {
  let api: TestServer, a: BuiltTenant, b: BuiltTenant;
  let member: BuiltUser;
  before(async () => {
    ({ api, a, b } = await serverWithTwoTenants());
    member = await buildMember(api.databaseUrl, a.tenantId, 'member');
  });
  after(() => api.close());

  const roleOf = async (tenantId: string, userId: string) => {
    const [row] = await dbFor(api.databaseUrl).db.select({ role: tenantMemberships.role }).from(tenantMemberships)
      .where(and(eq(tenantMemberships.tenantId, tenantId), eq(tenantMemberships.userId, userId)));
    return row?.role ?? null;
  };

  it('lists the tenant’s people with their roles, to owners and members alike, and nobody of another tenant', async () => {
    for (const key of [a.owner.apiKey, member.apiKey]) {
      const res = await api.as(key).get('/api/members');
      expect(res.status).to.equal(200);
      expect(res.body.meta).to.deep.equal({ page: 1, perPage: 25, total: 2 });
      expect(res.body.data.map((m: any) => [m.userId, m.email, m.role, m.displayName])).to.deep.equal([
        [a.owner.userId, a.owner.email, 'owner', null],
        [member.userId, member.email, 'member', null],
      ]);
      expect(Date.parse(res.body.data[0].joinedAt)).to.be.a('number').and.not.NaN;
    }
    const other = await api.as(b.owner.apiKey).get('/api/members');
    expect(other.body.data.map((m: any) => m.userId)).to.deep.equal([b.owner.userId]);
    expectRefusal(await api.get('/api/members'), 401, apiError('unauthorized', 'Missing or invalid credentials'));
  });

  it('an owner changes a role; the key of the person changed carries the new role at once', async () => {
    const t = await buildTenant(api.databaseUrl);
    const m = await buildMember(api.databaseUrl, t.tenantId, 'member');
    expectRefusal(await api.as(m.apiKey).get('/api/invitations'), 403, apiError('forbidden', 'You do not have permission to do this'));

    const promoted = await api.as(t.owner.apiKey).patch(`/api/members/${m.userId}`, { role: 'owner' });
    expect(promoted.status).to.equal(200);
    expect(promoted.body).to.deep.include({ meta: {} });
    expect(promoted.body.data).to.include({ userId: m.userId, email: m.email, role: 'owner' });
    expect(await roleOf(t.tenantId, m.userId)).to.equal('owner');
    expect((await api.as(m.apiKey).get('/api/invitations')).status).to.equal(200);

    const demoted = await api.as(m.apiKey).patch(`/api/members/${m.userId}`, { role: 'member' });
    expect(demoted.status).to.equal(200);
    expect(await roleOf(t.tenantId, m.userId)).to.equal('member');
  });

  it('a member can change and remove nobody (403), not even themself', async () => {
    for (const [method, path, body] of [
      ['PATCH', `/api/members/${a.owner.userId}`, { role: 'member' }],
      ['PATCH', `/api/members/${member.userId}`, { role: 'owner' }],
      ['DELETE', `/api/members/${a.owner.userId}`, undefined],
      ['DELETE', `/api/members/${member.userId}`, undefined],
    ] as const) {
      const res = await api.as(member.apiKey).request(method, path, body);
      expect(res.status, `${method} ${path}`).to.equal(403);
      expect(res.body).to.deep.equal(FORBIDDEN);
    }
    expect(await roleOf(a.tenantId, a.owner.userId)).to.equal('owner');
    expect(await roleOf(a.tenantId, member.userId)).to.equal('member');
  });

  it('validates the role against the known roles (owner, member) and refuses other fields', async () => {
    const bad = await api.as(a.owner.apiKey).patch(`/api/members/${member.userId}`, { role: 'admin' });
    expect(bad.status).to.equal(400);
    expect(bad.body.error.code).to.equal('validation_failed');
    expect(bad.body.error.details.map((d: any) => d.path)).to.deep.equal(['role']);
    const missing = await api.as(a.owner.apiKey).patch(`/api/members/${member.userId}`, {});
    expect(missing.body.error.details).to.deep.equal([{ path: 'role', message: 'Required' }]);
    const extra = await api.as(a.owner.apiKey).patch(`/api/members/${member.userId}`, { role: 'owner', email: 'x@example.com' });
    expectRefusal(extra, 400, { error: { code: 'validation_failed', message: 'Validation failed', details: [{ path: 'body', message: 'Unknown field: email' }] } });
  });

  it('never removes or demotes the last owner (409 last_owner); with a second owner both work', async () => {
    const t = await buildTenant(api.databaseUrl);
    const demote = await api.as(t.owner.apiKey).patch(`/api/members/${t.owner.userId}`, { role: 'member' });
    expect(demote.status).to.equal(409);
    expect(demote.body).to.deep.equal(LAST_OWNER_DEMOTE);
    const remove = await api.as(t.owner.apiKey).delete(`/api/members/${t.owner.userId}`);
    expect(remove.status).to.equal(409);
    expect(remove.body).to.deep.equal(LAST_OWNER_REMOVE);
    expect(await roleOf(t.tenantId, t.owner.userId)).to.equal('owner');

    // Setting the role it already has is no change and no conflict.
    expect((await api.as(t.owner.apiKey).patch(`/api/members/${t.owner.userId}`, { role: 'owner' })).status).to.equal(200);

    const second = await buildMember(api.databaseUrl, t.tenantId, 'owner');
    expect((await api.as(t.owner.apiKey).patch(`/api/members/${t.owner.userId}`, { role: 'member' })).status).to.equal(200);
    expect(await roleOf(t.tenantId, t.owner.userId)).to.equal('member');
    const last = await api.as(second.apiKey).delete(`/api/members/${second.userId}`);
    expect(last.body).to.deep.equal(LAST_OWNER_REMOVE);
  });

  it('two owners demoting each other at the same moment: exactly one succeeds', async () => {
    for (let round = 0; round < 5; round += 1) {
      const t = await buildTenant(api.databaseUrl);
      const other = await buildMember(api.databaseUrl, t.tenantId, 'owner');
      const answers = await Promise.all([
        api.as(t.owner.apiKey).patch(`/api/members/${other.userId}`, { role: 'member' }),
        api.as(other.apiKey).patch(`/api/members/${t.owner.userId}`, { role: 'member' }),
      ]);
      // The loser's own key lost its owner role with the winner's change, so it is a 403 or a 409.
      expect(answers.map((r) => r.status).filter((s) => s === 200)).to.have.length(1);
      expect(answers.map((r) => r.status).filter((s) => s !== 200)[0]).to.be.oneOf([403, 409]);
      const { rows } = await dbFor(api.databaseUrl).pool.query(`select count(*)::int as n from tenant_memberships where tenant_id = $1 and role = 'owner'`, [t.tenantId]);
      expect(rows[0].n).to.equal(1);
    }
  });

  it('removing someone ends their access to the tenant: keys revoked, sessions moved off it', async () => {
    const t = await buildTenant(api.databaseUrl);
    const m = await buildMember(api.databaseUrl, t.tenantId, 'member');
    // They also belong to another tenant, where their session is to land.
    await buildMember(api.databaseUrl, b.tenantId, 'member', m.email);
    const cookie = await buildSessionCookie(api.databaseUrl, m.userId, t.tenantId);
    expect((await api.with({ cookie }).get('/api/users/me')).body.data.activeTenant.id).to.equal(t.tenantId);

    const removed = await api.as(t.owner.apiKey).delete(`/api/members/${m.userId}`);
    expect(removed.status).to.equal(200);
    expect(removed.body.data).to.include({ userId: m.userId, email: m.email, role: 'member' });
    expect(await roleOf(t.tenantId, m.userId)).to.equal(null);
    expectRefusal(await api.as(m.apiKey).get('/api/members'), 401, apiError('unauthorized', 'Missing or invalid credentials'));
    const [key] = await dbFor(api.databaseUrl).db.select().from(apiKeys).where(eq(apiKeys.keyHash, sha256(m.apiKey)));
    expect(key!.revokedAt).to.be.instanceOf(Date);
    const me = await api.with({ cookie }).get('/api/users/me');
    expect(me.body.data.activeTenant.id).to.equal(b.tenantId);
    const sessions = await dbFor(api.databaseUrl).db.select().from(loginSessions).where(eq(loginSessions.userId, m.userId));
    expect(sessions.map((s) => s.activeTenantId)).to.deep.equal([null]);

    expect((await api.as(t.owner.apiKey).delete(`/api/members/${m.userId}`)).body).to.deep.equal(NOT_FOUND);
  });

  it('another tenant’s person, an unknown id and a malformed id are 404 for every endpoint, and nothing changes', async () => {
    for (const id of [a.owner.userId, member.userId, '6d1f8a52-6b0e-4c5b-9d1e-1f2a3b4c5d6e', 'not-a-uuid']) {
      const patch = await api.as(b.owner.apiKey).patch(`/api/members/${id}`, { role: 'member' });
      expect(patch.status, id).to.equal(404);
      expect(patch.body).to.deep.equal(NOT_FOUND);
      const del = await api.as(b.owner.apiKey).delete(`/api/members/${id}`);
      expect(del.status, id).to.equal(404);
      expect(del.body).to.deep.equal(NOT_FOUND);
    }
    expect(await roleOf(a.tenantId, a.owner.userId)).to.equal('owner');
    expect(await roleOf(a.tenantId, member.userId)).to.equal('member');
  });

  it('a session changes roles from our own origin only (CSRF: Origin), like every cookie-authenticated change', async () => {
    const t = await buildTenant(api.databaseUrl);
    const m = await buildMember(api.databaseUrl, t.tenantId, 'member');
    const cookie = await buildSessionCookie(api.databaseUrl, t.owner.userId, t.tenantId);
    const foreign = await api.with({ cookie, origin: 'https://evil.example' }).patch(`/api/members/${m.userId}`, { role: 'owner' });
    expect(foreign.status).to.equal(403);
    expect(foreign.body.error).to.deep.equal({ code: 'forbidden', message: 'Cross-origin request refused' });
    expect(await roleOf(t.tenantId, m.userId)).to.equal('member');
    const ours = await api.with({ cookie, origin: api.baseUrl }).patch(`/api/members/${m.userId}`, { role: 'owner' });
    expect(ours.status).to.equal(200);
    expect(await roleOf(t.tenantId, m.userId)).to.equal('owner');
  });
});
