import { expect } from 'chai';
import { activeConnections, connectionByExternalId, connectionsOf, deleteConnection, replaceTokens, saveConnection, setConnectionState, tokensOf } from '../../src/integrations/shared/connections.js';
import { createState, stateValid, STATE_TTL_SECONDS } from '../../src/integrations/shared/oauthState.js';
import { dbFor, twoTenants, type BuiltTenant } from '../helpers/factories.js';
import { freshDatabase } from '../helpers/database.js';
import { TEST_KEY } from '../helpers/server.js';

const master = Buffer.from(TEST_KEY, 'hex');
const OTHER_MASTER = Buffer.alloc(32, 7);

describe('integration connections (shared base of the vendor integrations)', () => {
  let url: string;
  let a: BuiltTenant;
  let b: BuiltTenant;
  before(async () => {
    url = await freshDatabase();
    ({ a, b } = await twoTenants(url));
  });

  const connect = (tenant: BuiltTenant, externalId = 'site-1') =>
    saveConnection(dbFor(url).db, master, {
      tenantId: tenant.tenantId, kind: 'jira', externalId, displayName: 'Acme Jira', scopes: 'read:jira-work offline_access',
      connectedBy: tenant.owner.userId, accessToken: `access-secret-${tenant.tenantId}`, refreshToken: `refresh-secret-${tenant.tenantId}`,
      expiresAt: new Date('2026-12-01T00:00:00Z'),
    });

  it('stores tokens sealed: the row holds no plaintext, and they open only for their own row and key', async () => {
    const row = await connect(a);
    const { rows } = await dbFor(url).pool.query('select * from integration_connections where id = $1', [row.id]);
    const text = JSON.stringify(rows[0]);
    expect(text).not.to.contain('access-secret');
    expect(text).not.to.contain('refresh-secret');
    expect(tokensOf(master, row)).to.deep.equal({ accessToken: `access-secret-${a.tenantId}`, refreshToken: `refresh-secret-${a.tenantId}`, expiresAt: new Date('2026-12-01T00:00:00Z') });
    expect(() => tokensOf(OTHER_MASTER, row)).to.throw();
    // A ciphertext copied onto another tenant's row does not open there.
    const other = await connect(b);
    expect(() => tokensOf(master, { ...other, accessTokenSealed: row.accessTokenSealed })).to.throw();
  });

  it('reconnecting the same site replaces the tokens, clears needs-reconnect and keeps the settings; one row per tenant and site', async () => {
    const first = await connect(a, 'site-2');
    await setConnectionState(dbFor(url).db, first.id, 'needs_reconnect', 'The grant was revoked at Jira');
    const again = await connect(a, 'site-2');
    expect(again.id).to.equal(first.id);
    expect([again.state, again.stateDetail]).to.deep.equal(['active', null]);
    await replaceTokens(dbFor(url).db, master, again, { accessToken: 'rotated', refreshToken: 'rotated-refresh', expiresAt: null });
    const [reread] = (await connectionsOf(dbFor(url).db, a.tenantId, 'jira')).filter((c) => c.id === first.id);
    expect(tokensOf(master, reread!)).to.deep.equal({ accessToken: 'rotated', refreshToken: 'rotated-refresh', expiresAt: null });
  });

  it('lists and deletes only the tenant’s own connections; the inbound lookup finds the tenant by the vendor’s id', async () => {
    const mine = await connect(a, 'site-3');
    expect((await connectionsOf(dbFor(url).db, b.tenantId)).map((c) => c.tenantId)).to.deep.equal([b.tenantId]);
    expect(await deleteConnection(dbFor(url).db, b.tenantId, mine.id)).to.equal(false);
    expect((await connectionByExternalId(dbFor(url).db, 'jira', 'site-3'))?.tenantId).to.equal(a.tenantId);
    expect(await deleteConnection(dbFor(url).db, a.tenantId, mine.id)).to.equal(true);
    expect(await connectionByExternalId(dbFor(url).db, 'jira', 'site-3')).to.equal(null);
  });

  it('activeConnections: the active ones of the kinds asked, of one tenant or of every tenant, oldest first', async () => {
    const { db } = dbFor(url);
    const { a: c, b: d } = await twoTenants(url);
    const save = async (tenant: BuiltTenant, kind: 'jira' | 'linear' | 'slack' | 'notion', externalId: string, state: 'active' | 'needs_reconnect' = 'active') => {
      const row = await saveConnection(db, master, {
        tenantId: tenant.tenantId, kind, externalId, displayName: null, scopes: null, connectedBy: tenant.owner.userId, accessToken: 't', refreshToken: null, expiresAt: null,
      });
      if (state !== 'active') await setConnectionState(db, row.id, state, 'revoked');
      return row.id;
    };
    const cSlack = await save(c, 'slack', 'T-c');
    const cJira = await save(c, 'jira', 'site-c');
    await save(c, 'linear', 'org-c', 'needs_reconnect');
    const dSlack = await save(d, 'slack', 'T-d');
    await save(d, 'notion', 'ws-d', 'needs_reconnect');
    const dLinear = await save(d, 'linear', 'org-d');
    const ours = (rows: { id: string; tenantId: string }[]) => rows.filter((r) => r.tenantId === c.tenantId || r.tenantId === d.tenantId).map((r) => r.id);

    expect(ours(await activeConnections(db, 'slack'))).to.deep.equal([cSlack, dSlack]);
    expect(ours(await activeConnections(db, ['jira', 'linear']))).to.deep.equal([cJira, dLinear]);
    expect(ours(await activeConnections(db, 'notion'))).to.deep.equal([]);
    expect((await activeConnections(db, 'slack', d.tenantId)).map((r) => r.id)).to.deep.equal([dSlack]);
    expect((await activeConnections(db, ['jira', 'linear'], c.tenantId)).map((r) => r.id)).to.deep.equal([cJira]);
    expect(await activeConnections(db, 'linear', c.tenantId)).to.deep.equal([]);
  });

  it('refuses a kind or state the product does not know (database constraint)', async () => {
    const err = await dbFor(url).pool
      .query(`insert into integration_connections (tenant_id, kind, external_id, access_token_sealed) values ($1, 'trello', 'x', 'x')`, [a.tenantId])
      .catch((e) => e);
    expect(err.constraint).to.equal('integration_connections_kind_check');
  });
});

describe('integration OAuth state', () => {
  const claims = { tenantId: '00000000-0000-4000-8000-00000000000a', userId: '00000000-0000-4000-8000-00000000000b', kind: 'linear' as const };
  const now = Date.parse('2026-11-24T12:00:00Z');

  it('is valid only for the same tenant, user and kind, signed by this service, before it expires', () => {
    const state = createState(master, claims, now);
    expect(stateValid(master, state, claims, now)).to.equal(true);
    expect(stateValid(master, state, { ...claims, tenantId: '00000000-0000-4000-8000-00000000000c' }, now)).to.equal(false);
    expect(stateValid(master, state, { ...claims, userId: '00000000-0000-4000-8000-00000000000c' }, now)).to.equal(false);
    expect(stateValid(master, state, { ...claims, kind: 'jira' }, now)).to.equal(false);
    expect(stateValid(OTHER_MASTER, state, claims, now)).to.equal(false);
    expect(stateValid(master, state, claims, now + STATE_TTL_SECONDS * 1000 + 1000)).to.equal(false);
    const [body, sig] = state.split('.');
    expect(stateValid(master, `${body}x.${sig}`, claims, now)).to.equal(false);
    for (const junk of [undefined, 42, '', 'a.b.c', 'x'.repeat(600)]) expect(stateValid(master, junk, claims, now)).to.equal(false);
  });

  it('differs on every call (a nonce), so two connect clicks do not share a state', () => {
    expect(createState(master, claims, now)).not.to.equal(createState(master, claims, now));
  });
});
