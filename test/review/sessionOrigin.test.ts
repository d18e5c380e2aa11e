import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { apiKeys, registerImports } from '../../src/db/schema/index.js';
import { buildSessionCookie, buildTenant, dbFor } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { register } from '../organisation/helpers.js';

/**
 * A page on another origin of the same site gets the SameSite=Lax session cookie sent, and a
 * text/plain or empty POST needs no CORS preflight: such a post imported a register (and closed
 * surveys, revoked keys…) as the signed-in owner. Cookie-authenticated changes must come from our origin.
 */
describe('review: cookie-authenticated changes are refused from another origin', () => {
  let server: TestServer;
  before(async () => {
    server = await testServer();
  });
  after(async () => {
    await server.close();
  });

  const FORBIDDEN = { error: { code: 'forbidden', message: 'Cross-origin request refused' } };
  const csv = register('p1,p1@example.com,P One,employee,,,,team-a,Team A,,,');

  it('a text/plain register import with the owner session from a sibling origin is 403 and stores nothing', async () => {
    const t = await buildTenant(server.databaseUrl);
    const cookie = await buildSessionCookie(server.databaseUrl, t.owner.userId, t.tenantId);
    const res = await server.post('/api/register/imports', csv, { cookie, 'content-type': 'text/plain', origin: 'https://evil.example.com' });
    expect(res.status).to.equal(403);
    expect(res.body).to.deep.equal(FORBIDDEN);
    expect(await dbFor(server.databaseUrl).db.select().from(registerImports).where(eq(registerImports.tenantId, t.tenantId))).to.deep.equal([]);

    // The same post from our own origin, or without Origin (not a browser), works.
    const own = await server.post('/api/register/imports', csv, { cookie, 'content-type': 'text/plain', origin: new URL(server.running.app.config.appUrl).origin });
    expect(own.status).to.equal(201);
  });

  it('a cross-origin DELETE with the session is 403 and the key stays; API keys are not affected', async () => {
    const t = await buildTenant(server.databaseUrl);
    const cookie = await buildSessionCookie(server.databaseUrl, t.owner.userId, t.tenantId);
    const [key] = await dbFor(server.databaseUrl).db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.tenantId, t.tenantId));
    const refused = await server.delete(`/api/keys/${key!.id}`, { cookie, origin: 'https://evil.example.com' });
    expect(refused.status).to.equal(403);
    expect(refused.body).to.deep.equal(FORBIDDEN);
    const [still] = await dbFor(server.databaseUrl).db.select({ revokedAt: apiKeys.revokedAt }).from(apiKeys).where(eq(apiKeys.id, key!.id));
    expect(still!.revokedAt).to.equal(null);

    const byKey = await server.post('/api/register/imports', csv, { authorization: `Bearer ${t.owner.apiKey}`, 'content-type': 'text/csv', origin: 'https://evil.example.com' });
    expect(byKey.status).to.equal(201);
    // Reads are not changes: a cross-origin GET with the cookie is answered (CORS keeps its body from the page).
    expect((await server.get('/api/users/me', { cookie, origin: 'https://evil.example.com' })).status).to.equal(200);
  });

  it('every content type, by Sec-Fetch-Site or by Origin: 403 and nothing stored; our own origin and API keys pass', async () => {
    const t = await buildTenant(server.databaseUrl);
    const cookie = await buildSessionCookie(server.databaseUrl, t.owner.userId, t.tenantId);
    const imports = () => dbFor(server.databaseUrl).db.select().from(registerImports).where(eq(registerImports.tenantId, t.tenantId));
    const foreign: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'Cross-Site', origin: new URL(server.running.app.config.appUrl).origin },
      { origin: 'null' },
      { origin: 'https://evil.example.com', 'sec-fetch-site': 'same-origin' },
    ];
    const types = ['text/plain', 'text/csv', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json', null];
    for (const headers of foreign) {
      for (const type of types) {
        const res = await server.post('/api/register/imports', csv, { cookie, ...headers, ...(type ? { 'content-type': type } : {}) });
        expect(res.status, `${JSON.stringify(headers)} ${type}`).to.equal(403);
        expect(res.body).to.deep.equal(FORBIDDEN);
      }
    }
    // A handler outside the route table (the CLI login's approval form) is behind the same check.
    const approve = await server.post('/cli/login/approve', 'user_code=ABCD-EFGH&action=approve', { cookie, 'sec-fetch-site': 'cross-site', 'content-type': 'application/x-www-form-urlencoded' });
    expect(approve.status).to.equal(403);
    expect(approve.body).to.deep.equal(FORBIDDEN);
    expect(await imports()).to.deep.equal([]);

    const own = await server.post('/api/register/imports', csv, { cookie, 'content-type': 'text/plain', 'sec-fetch-site': 'same-origin', origin: new URL(server.running.app.config.appUrl).origin });
    expect(own.status).to.equal(201);
    const typed = await server.post('/api/register/imports', register('p2,p2@example.com,P Two,employee,,,,team-a,Team A,,,'), { cookie, 'content-type': 'text/plain', 'sec-fetch-site': 'none' });
    expect(typed.status).to.equal(201);
    const byKey = await server.post('/api/register/imports', register('p3,p3@example.com,P Three,employee,,,,team-a,Team A,,,'), { authorization: `Bearer ${t.owner.apiKey}`, 'content-type': 'text/csv', 'sec-fetch-site': 'cross-site' });
    expect(byKey.status).to.equal(201);
  });
});
