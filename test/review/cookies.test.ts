import { expect } from 'chai';
import { buildTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { fromNewAddress } from '../auth/helpers.js';

/**
 * A cookie value we never issued (another site of the same registrable domain can set one on
 * ours) must read as "no cookie": it was a 500 on every request of that browser.
 */
describe('review: malformed cookies are absent credentials, not server errors', () => {
  let server: TestServer;
  before(async () => {
    server = await testServer();
  });
  after(async () => {
    await server.close();
  });

  it('an undecodable sessionId is 401 on the API and an undecodable csrfToken still renders /login', async () => {
    const client = fromNewAddress(server);
    const me = await client.get('/api/users/me', { cookie: 'sessionId=%zz' });
    expect(me.status).to.equal(401);
    expect(me.body).to.deep.equal({ error: { code: 'unauthorized', message: 'Missing or invalid credentials' } });

    const page = await client.get('/login', { cookie: 'csrfToken=%E0%A4%A; sessionId=%' });
    expect(page.status).to.equal(200);
    expect(page.headers.getSetCookie().some((c) => /^csrfToken=[A-Za-z0-9_-]{43};/.test(c))).to.equal(true);
  });

  it('an API key still works next to a malformed cookie', async () => {
    const t = await buildTenant(server.databaseUrl);
    const res = await server.get('/api/users/me', { authorization: `Bearer ${t.owner.apiKey}`, cookie: 'sessionId=%zz' });
    expect(res.status).to.equal(200);
  });
});
