import { expect } from 'chai';
import { freshDatabase } from '../helpers/database.js';
import { buildTenant, dbFor } from '../helpers/factories.js';
import { TEST_KEY } from '../helpers/server.js';
import { postgresAdapter, purgeExpiredOAuthRecords } from '../../src/oauth/adapter.js';
import { oauthKeys, sha256hex } from '../../src/auth/crypto.js';

describe('OAuth Postgres adapter', () => {
  let url: string;
  const key = oauthKeys(Buffer.from(TEST_KEY, 'hex')).storage;

  before(async () => {
    url = await freshDatabase();
  });

  it('stores sha256 of the id and an encrypted payload, bound to its row', async () => {
    const { db, pool } = dbFor(url);
    const AccessToken = postgresAdapter(db, key);
    const tokens = new AccessToken('AccessToken');
    await tokens.upsert('bearer-value-1', { jti: 'bearer-value-1', grantId: 'g1', accountId: 'secret-account' }, 3600);
    const { rows } = await pool.query(`select id, payload, grant_id from oauth_records where model = 'AccessToken'`);
    expect(rows[0].id).to.equal(sha256hex('bearer-value-1'));
    expect(rows[0].grant_id).to.equal(sha256hex('g1'));
    expect(rows[0].payload).to.not.include('secret-account');
    expect(await tokens.find('bearer-value-1')).to.deep.include({ accountId: 'secret-account' });

    // A payload copied onto another row does not decrypt there.
    await tokens.upsert('bearer-value-2', { jti: 'bearer-value-2' }, 3600);
    await pool.query(`update oauth_records set payload = $1 where id = $2`, [rows[0].payload, sha256hex('bearer-value-2')]);
    expect(await tokens.find('bearer-value-2')).to.equal(undefined);
    // Another key cannot read it either.
    const Other = postgresAdapter(db, oauthKeys(Buffer.alloc(32, 7)).storage);
    expect(await new Other('AccessToken').find('bearer-value-1')).to.equal(undefined);
  });

  it('consumes atomically: of two concurrent redemptions one wins, the other fails and revokes the grant', async () => {
    const { db, pool } = dbFor(url);
    const Adapter = postgresAdapter(db, key);
    const codes = new Adapter('AuthorizationCode');
    const tokens = new Adapter('AccessToken');
    await codes.upsert('code-1', { jti: 'code-1', grantId: 'grant-x' }, 60);
    await tokens.upsert('at-1', { jti: 'at-1', grantId: 'grant-x' }, 3600);
    const results = await Promise.allSettled([codes.consume('code-1'), codes.consume('code-1')]);
    expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(1);
    const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(failed.reason.error).to.equal('invalid_grant');
    expect(await tokens.find('at-1')).to.equal(undefined);
    const { rows } = await pool.query(`select count(*)::int as n from oauth_records where grant_id = $1`, [sha256hex('grant-x')]);
    expect(rows[0].n).to.equal(0);
  });

  it('purges expired records, expired tenant bindings and day-old clients that never got a grant', async () => {
    const { db, pool } = dbFor(url);
    const tenant = await buildTenant(url);
    const Adapter = postgresAdapter(db, key);
    await new Adapter('AccessToken').upsert('old', { jti: 'old' }, 1);
    await pool.query(`update oauth_records set expires_at = now() - interval '1 minute' where id = $1`, [sha256hex('old')]);
    const clients = new Adapter('Client');
    await clients.upsert('unused-client', { client_id: 'unused-client' } as never, 0);
    await clients.upsert('used-client', { client_id: 'used-client' } as never, 0);
    await pool.query(`update oauth_records set created_at = now() - interval '2 days' where model = 'Client'`);
    await pool.query(
      `insert into mcp_grants (grant_id, tenant_id, user_id, client_id, permissions, expires_at) values ('live', $1, $2, 'used-client', '{read}', now() + interval '1 day'), ('gone', $1, $2, 'used-client', '{read}', now() - interval '1 second')`,
      [tenant.tenantId, tenant.owner.userId],
    );
    expect(await purgeExpiredOAuthRecords(db)).to.equal(3);
    expect(await clients.find('used-client')).to.deep.include({ client_id: 'used-client' });
    expect(await clients.find('unused-client')).to.equal(undefined);
    const { rows } = await pool.query(`select grant_id from mcp_grants`);
    expect(rows.map((r) => r.grant_id)).to.deep.equal(['live']);
  });
});
