import { expect } from 'chai';
import { safeReturnUrl } from '../../src/identity/returnUrl.js';
import { buildTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { fromNewAddress, hiddenField, insertLoginToken } from '../auth/helpers.js';

// Dot segments collapse when the URL is resolved: `/.//evil.example` became `//evil.example`,
// which a browser follows to https://evil.example (open redirect after sign-in).
const DOT_SEGMENT_ESCAPES = ['/.//evil.example', '/a/..//evil.example/x', '/..//evil.example', '/%2e//evil.example', '/%2e%2e//evil.example'];

describe('review: return URLs never become scheme-relative', () => {
  it('safeReturnUrl refuses paths whose dot segments resolve to //host', () => {
    for (const value of DOT_SEGMENT_ESCAPES) expect(safeReturnUrl(value), value).to.equal('/');
    // Harmless dot segments still resolve to a path of this site.
    expect(safeReturnUrl('/a/./b/../c?x=1#y')).to.equal('/a/c?x=1#y');
  });

  describe('over HTTP', () => {
    let server: TestServer;
    before(async () => {
      server = await testServer();
    });
    after(async () => {
      await server.close();
    });

    it('the magic-link callback and the login page keep the browser on the site', async () => {
      const t = await buildTenant(server.databaseUrl);
      const client = fromNewAddress(server);
      const token = await insertLoginToken(server.databaseUrl, t.owner.email, { returnUrl: '/.//evil.example' });
      const opened = await client.get(`/auth/email/callback?token=${token}`);
      expect(opened.status).to.equal(303);
      expect(opened.headers.get('location')).to.equal('/');

      const page = await client.get(`/login?returnUrl=${encodeURIComponent('/a/..//evil.example')}`);
      expect(page.status).to.equal(200);
      expect(hiddenField(page.text, 'returnUrl')).to.equal('/');
    });
  });
});
