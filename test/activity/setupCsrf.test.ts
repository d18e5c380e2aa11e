import { expect } from 'chai';
import { buildMember, buildSessionCookie, dbFor, twoTenants, type BuiltTenant } from '../helpers/factories.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { announceInstallation, codehostEnv, deliver, FIXTURE_INSTALLATION } from './helpers.js';

const SETUP = '/api/integrations/codehost/setup';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** The hidden CSRF field of a rendered page and the cookie that was set with it. */
function csrfOf(res: { text: string; headers: Headers }): { token: string; cookie: string } {
  const token = /name="csrf" value="([^"]+)"/.exec(res.text)?.[1];
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('csrfToken='))?.split(';')[0];
  expect(token, 'csrf field').to.be.a('string');
  expect(cookie).to.equal(`csrfToken=${token}`);
  return { token: token as string, cookie: cookie as string };
}

describe('code-host setup callback: GET confirms, a CSRF-protected POST links', function () {
  let api: TestServer;
  let a: BuiltTenant;
  let b: BuiltTenant;
  let ownerCookie: string;
  let appUrl: string;
  const q = async (text: string, values: unknown[] = []) => (await dbFor(api.databaseUrl).pool.query(text, values)).rows;
  const linkedTo = async (id: number) => (await q('select tenant_id from codehost_installations where installation_id = $1', [id]))[0]?.tenant_id ?? null;
  const confirm = (cookie: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    api.post(SETUP, new URLSearchParams(fields).toString(), { ...FORM, cookie, ...headers });

  before(async () => {
    api = await testServer({ env: codehostEnv() });
    appUrl = api.running.app.config.appUrl;
    ({ a, b } = await twoTenants(api.databaseUrl, { a: 'Acme <Delivery> & Co' }));
    ownerCookie = await buildSessionCookie(api.databaseUrl, a.owner.userId, a.tenantId);
    // What the code host's `installation` events leave: an owner links only what it announced.
    await announceInstallation(api.databaseUrl, 7001, 7002, 7009);
  });
  after(() => api.close());

  it('GET with an owner session changes nothing and shows the installation, the tenant and the form', async () => {
    const res = await api.get(`${SETUP}?installation_id=7001&setup_action=install`, { cookie: ownerCookie });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).to.equal('no-store');
    expect(res.text).to.contain('<dd id="installation">7001</dd>');
    expect(res.text).to.contain('<dd id="tenant">Acme &lt;Delivery&gt; &amp; Co</dd>');
    expect(res.text).to.contain('not yet known');
    expect(res.text).to.contain(`<form method="post" action="${SETUP}">`);
    expect(res.text).to.contain('<input type="hidden" name="installation_id" value="7001">');
    csrfOf(res);
    expect(await linkedTo(7001)).to.equal(null);
  });

  it('GET shows the account login once the installation event was received, still linking nothing', async () => {
    // Installation events of an unlinked installation are recorded (account, state), nothing else.
    expect((await deliver(api, 'installation', 'installation.created')).status).to.equal(200);
    const res = await api.get(`${SETUP}?installation_id=${FIXTURE_INSTALLATION}&setup_action=install`, { cookie: ownerCookie });
    expect(res.status).to.equal(200);
    expect(res.text).to.contain('<dd id="account">acme-corp</dd>');
    expect(await linkedTo(FIXTURE_INSTALLATION)).to.equal(null);
  });

  it('POST without the token, with a wrong one, or without the cookie is 403 and links nothing', async () => {
    const { token, cookie } = csrfOf(await api.get(`${SETUP}?installation_id=7001`, { cookie: ownerCookie }));
    const both = `${ownerCookie}; ${cookie}`;
    const missing = await confirm(both, { installation_id: '7001' });
    expect(missing.status).to.equal(403);
    expect(missing.body).to.deep.equal({ error: { code: 'forbidden', message: 'Invalid or missing CSRF token; reload the page and try again' } });
    expectRefusal(await confirm(both, { installation_id: '7001', csrf: 'x'.repeat(43) }), 403, apiError('forbidden', 'Invalid or missing CSRF token; reload the page and try again'));
    expectRefusal(await confirm(both, { installation_id: '7001', csrf: '' }), 403, apiError('forbidden', 'Invalid or missing CSRF token; reload the page and try again'));
    // An attacker's page can send the field but not our cookie.
    expectRefusal(await confirm(ownerCookie, { installation_id: '7001', csrf: token }), 403, apiError('forbidden', 'Invalid or missing CSRF token; reload the page and try again'));
    expect(await linkedTo(7001)).to.equal(null);
  });

  it('POST from a foreign Origin is 403 even with a valid token', async () => {
    const { token, cookie } = csrfOf(await api.get(`${SETUP}?installation_id=7001`, { cookie: ownerCookie }));
    const res = await confirm(`${ownerCookie}; ${cookie}`, { installation_id: '7001', csrf: token }, { origin: 'https://evil.example' });
    expect(res.status).to.equal(403);
    expect(res.body).to.deep.equal({ error: { code: 'forbidden', message: 'Cross-origin request refused' } });
    expect(await linkedTo(7001)).to.equal(null);
  });

  it('POST with the token links and redirects where the callback used to; GET then says it is linked', async () => {
    const { token, cookie } = csrfOf(await api.get(`${SETUP}?installation_id=7001`, { cookie: ownerCookie }));
    const res = await confirm(`${ownerCookie}; ${cookie}`, { installation_id: '7001', csrf: token }, { origin: appUrl });
    expect(res.status).to.equal(303);
    expect(res.headers.get('location')).to.equal(`${appUrl}/app/settings/integrations?codehost=linked&installation=7001`);
    expect(await q('select tenant_id, linked_by_user_id from codehost_installations where installation_id = 7001')).to.deep.equal([
      { tenant_id: a.tenantId, linked_by_user_id: a.owner.userId },
    ]);
    // Confirming again is idempotent for the same tenant.
    expect((await confirm(`${ownerCookie}; ${cookie}`, { installation_id: '7001', csrf: token })).status).to.equal(303);
    const page = await api.get(`${SETUP}?installation_id=7001`, { cookie: ownerCookie });
    expect(page.status).to.equal(200);
    expect(page.text).to.contain('id="already-linked"');
    expect(page.text).not.to.contain('<form');
  });

  it('another tenant\'s installation reads to an owner exactly as one the code host never announced: the same 404 page and the same 404 on post', async () => {
    const otherCookie = await buildSessionCookie(api.databaseUrl, b.owner.userId, b.tenantId);
    const page = await api.get(`${SETUP}?installation_id=7001`, { cookie: otherCookie });
    const unknown = await api.get(`${SETUP}?installation_id=7777`, { cookie: otherCookie });
    for (const res of [page, unknown]) {
      expect(res.status).to.equal(404);
      expect(res.text).to.contain('id="unknown-installation"');
      expect(res.text).not.to.contain('<form');
      expect(res.text).to.contain('not yet known');
    }
    expect(page.text.replaceAll('7001', 'N')).to.equal(unknown.text.replaceAll('7777', 'N'));
    // A valid token from any of our pages still does not move the installation, nor tell it apart.
    const { token, cookie } = csrfOf(await api.get(`${SETUP}?installation_id=7009`, { cookie: otherCookie }));
    const taken = await confirm(`${otherCookie}; ${cookie}`, { installation_id: '7001', csrf: token });
    const never = await confirm(`${otherCookie}; ${cookie}`, { installation_id: '7777', csrf: token });
    expectRefusal(taken, 404, apiError('not_found', 'Installation not found'));
    expectRefusal(never, 404, apiError('not_found', 'Installation not found'));
    expect(await linkedTo(7001)).to.equal(a.tenantId);
    expect(await q('select * from codehost_installations where installation_id = 7777')).to.deep.equal([]);
  });

  it('a member gets 403 on both steps; an invalid id with a valid token is 400', async () => {
    const member = await buildMember(api.databaseUrl, a.tenantId);
    const memberCookie = await buildSessionCookie(api.databaseUrl, member.userId, a.tenantId);
    expectRefusal(await api.get(`${SETUP}?installation_id=7002`, { cookie: memberCookie }), 403, apiError('forbidden', 'Only an owner of the tenant can link a code-host installation'));
    const { token, cookie } = csrfOf(await api.get(`${SETUP}?installation_id=7002`, { cookie: ownerCookie }));
    const byMember = await confirm(`${memberCookie}; ${cookie}`, { installation_id: '7002', csrf: token });
    expectRefusal(byMember, 403, apiError('forbidden', 'Only an owner of the tenant can link a code-host installation'));
    expect(await linkedTo(7002)).to.equal(null);
    const invalid = await confirm(`${ownerCookie}; ${cookie}`, { installation_id: 'abc', csrf: token });
    expect(invalid.status).to.equal(400);
    expect(invalid.body.error.code).to.equal('validation_failed');
  });

  it('without a session: GET redirects to sign in, POST is 401', async () => {
    const anonymous = await api.get(`${SETUP}?installation_id=7003&setup_action=install`);
    expect(anonymous.status).to.equal(302);
    expect(anonymous.headers.get('location')).to.equal(`${appUrl}/login?returnUrl=${encodeURIComponent(`${SETUP}?installation_id=7003&setup_action=install`)}`);
    const post = await api.post(SETUP, 'installation_id=7003&csrf=abc', { ...FORM, cookie: 'csrfToken=abc' });
    expectRefusal(post, 401, apiError('unauthorized', 'Missing or invalid credentials'));
    expect(await q('select * from codehost_installations where installation_id = 7003')).to.deep.equal([]);
  });
});
