import { expect } from 'chai';
import { buildMember, buildSessionCookie, buildTenant, dbFor, twoTenants, type BuiltTenant, type BuiltUser } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { runCli } from '../helpers/cli.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import { announceInstallation, codehostEnv, deliver } from './helpers.js';
import { serverWithTwoTenants } from '../helpers/suites.js';

const LINK = '/api/integrations/codehost/installations';

describe('code-host installations and tenants', function () {
  let api: TestServer;
  let a: BuiltTenant;
  let member: BuiltUser;
  let b: BuiltTenant;
  const q = async (text: string, values: unknown[] = []) => (await dbFor(api.databaseUrl).pool.query(text, values)).rows;

  before(async () => {
    ({ api, a, b } = await serverWithTwoTenants({ env: codehostEnv() }));
    member = await buildMember(api.databaseUrl, a.tenantId);
  });
  after(() => api.close());

  it('GET /api/integrations/codehost shows the state and the URLs to register, built from APP_URL', async () => {
    const res = await api.as(member.apiKey).get('/api/integrations/codehost');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      data: {
        enabled: true,
        webhooksAccepted: true,
        appName: 'delivery-analytics',
        webhookUrl: `${api.running.app.config.appUrl}/api/integrations/codehost/webhook`,
        setupUrl: `${api.running.app.config.appUrl}/api/integrations/codehost/setup`,
        installations: [],
      },
      meta: {},
    });
    expectRefusal(await api.get('/api/integrations/codehost'), 401, apiError('unauthorized', 'Missing or invalid credentials'));
  });

  it('only an owner links an announced installation; linking again is idempotent; another tenant\'s answers exactly as an unknown one', async () => {
    await announceInstallation(api.databaseUrl, 1001, 2002);
    const byMember = await api.as(member.apiKey).post(LINK, { installationId: 1001 });
    expectRefusal(byMember, 403, apiError('forbidden', 'Only an owner of the tenant can do this'));
    const linked = await api.as(a.owner.apiKey).post(LINK, { installationId: 1001 });
    expect(linked.status).to.equal(201);
    expect(linked.body.data).to.deep.include({ installationId: 1001, accountLogin: null, linkedByUserId: a.owner.userId, suspended: false, removed: false });
    expect(linked.body.data.linkedAt).to.be.a('string');
    expect((await api.as(a.owner.apiKey).post(LINK, { installationId: 1001 })).status).to.equal(200);
    // No existence oracle: A's installation and one the code host never announced read the same to B.
    const stolen = await api.as(b.owner.apiKey).post(LINK, { installationId: 1001 });
    const unknown = await api.as(b.owner.apiKey).post(LINK, { installationId: 1009 });
    expectRefusal(stolen, 404, apiError('not_found', 'Installation not found'));
    expectRefusal(unknown, 404, apiError('not_found', 'Installation not found'));
    expect([stolen.status, stolen.body.error]).to.deep.equal([unknown.status, unknown.body.error]);
    expect(await q('select installation_id, tenant_id from codehost_installations where installation_id in (1001, 1009)')).to.deep.equal([{ installation_id: 1001, tenant_id: a.tenantId }]);
    const invalid = await api.as(a.owner.apiKey).post(LINK, { installationId: 'abc' });
    expectRefusal(invalid, 400, { error: { code: 'validation_failed', message: 'Validation failed', details: [{ path: 'installationId', message: 'Must be a number' }] } });
  });

  it('each tenant lists only its own installations; unlinking is the owner\'s, in its own tenant', async () => {
    const listA = await api.as(a.owner.apiKey).get('/api/integrations/codehost');
    expect(listA.body.data.installations.map((i: { installationId: number }) => i.installationId)).to.deep.equal([1001]);
    const listB = await api.as(b.owner.apiKey).get('/api/integrations/codehost');
    expect(listB.body.data.installations).to.deep.equal([]);
    expectRefusal(await api.as(b.owner.apiKey).delete(`${LINK}/1001`), 404, apiError('not_found', 'Installation not found'));
    expectRefusal(await api.as(member.apiKey).delete(`${LINK}/1001`), 403, apiError('forbidden', 'Only an owner of the tenant can do this'));
    const unlinked = await api.as(a.owner.apiKey).delete(`${LINK}/1001`);
    expect(unlinked.status).to.equal(200);
    expect(unlinked.body.data).to.include({ installationId: 1001, linkedAt: null, linkedByUserId: null });
    expect((await api.as(b.owner.apiKey).post(LINK, { installationId: 1001 })).status).to.equal(201);
  });

  it('the setup callback asks a signed-in owner to confirm, and the confirmation links and redirects; others are sent to sign in or refused', async () => {
    const appUrl = api.running.app.config.appUrl;
    const anonymous = await api.get('/api/integrations/codehost/setup?installation_id=2002&setup_action=install');
    expect(anonymous.status).to.equal(302);
    expect(anonymous.headers.get('location')).to.equal(`${appUrl}/login?returnUrl=${encodeURIComponent('/api/integrations/codehost/setup?installation_id=2002&setup_action=install')}`);
    const memberCookie = await buildSessionCookie(api.databaseUrl, member.userId, a.tenantId);
    expectRefusal(await api.get('/api/integrations/codehost/setup?installation_id=2002', { cookie: memberCookie }), 403, apiError('forbidden', 'Only an owner of the tenant can link a code-host installation'));
    const ownerCookie = await buildSessionCookie(api.databaseUrl, a.owner.userId, a.tenantId);
    const page = await api.get('/api/integrations/codehost/setup?installation_id=2002&setup_action=install', { cookie: ownerCookie });
    expect(page.status).to.equal(200);
    expect(await q('select tenant_id from codehost_installations where installation_id = 2002')).to.deep.equal([{ tenant_id: null }]);
    const token = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1] as string;
    const res = await api.post('/api/integrations/codehost/setup', `installation_id=2002&csrf=${token}`, {
      'content-type': 'application/x-www-form-urlencoded', cookie: `${ownerCookie}; csrfToken=${token}`, origin: appUrl,
    });
    expect(res.status).to.equal(303);
    expect(res.headers.get('location')).to.equal(`${appUrl}/app/settings/integrations?codehost=linked&installation=2002`);
    expect(await q('select tenant_id, linked_by_user_id from codehost_installations where installation_id = 2002')).to.deep.equal([
      { tenant_id: a.tenantId, linked_by_user_id: a.owner.userId },
    ]);
  });

  it('a delivery refused while unlinked is applied when the code host redelivers it after linking', async () => {
    const first = await deliver(api, 'issues', 'issues.opened', { installationId: 3003, delivery: 'before-link' });
    expect(first.status).to.equal(202);
    expect(await q('select id from issues')).to.deep.equal([]);
    expect((await api.as(a.owner.apiKey).post(LINK, { installationId: 3003 })).status).to.equal(201);
    const again = await deliver(api, 'issues', 'issues.opened', { installationId: 3003, delivery: 'before-link' });
    expect(again.status).to.equal(200);
    expect(again.body.data.stored).to.equal(true);
    expect(await q('select tenant_id, number from issues')).to.deep.equal([{ tenant_id: a.tenantId, number: 17 }]);
  });
});

describe('codehost:link (operators)', function () {
  // Each run starts the CLI in a child process (seconds each on a loaded machine).
  this.timeout(120_000);
  it('links an installation to a tenant and refuses one linked elsewhere', async () => {
    const api = await testServer({ env: codehostEnv() });
    try {
      const { a, b } = await twoTenants(api.databaseUrl);
      const env = { DATABASE_URL: api.databaseUrl, LOG_LEVEL: 'silent' };
      const linked = await runCli(['codehost:link', `--tenant=${a.tenantId}`, '--installation=4004'], env);
      expect(linked.code, linked.stderr).to.equal(0);
      expect(JSON.parse(linked.stdout)).to.deep.include({ installationId: 4004, linkedByUserId: null });
      // The link queues the backfill of the installation's repositories (docs/codehost-deployments.md).
      const queued = await dbFor(api.databaseUrl).pool.query(`select data from pgboss.job where name = 'codehost.installation-backfill' and data->>'tenantId' = $1`, [a.tenantId]);
      expect(queued.rows.map((r) => r.data)).to.deep.equal([{ tenantId: a.tenantId, installationId: 4004 }]);
      const refused = await runCli(['codehost:link', `--tenant=${b.tenantId}`, '--installation=4004'], env);
      expect(refused.code).to.equal(1);
      expect(refused.stderr).to.contain('already linked to another tenant');
      const usage = await runCli(['codehost:link', `--tenant=${a.tenantId}`, '--installation=abc'], env);
      expect(usage.code).to.equal(2);
      const listed = await api.as(a.owner.apiKey).get('/api/integrations/codehost');
      expect(listed.body.data.installations.map((i: { installationId: number }) => i.installationId)).to.deep.equal([4004]);
    } finally {
      await api.close();
    }
  });
});

describe('code-host installations without the application configured', function () {
  it('linking is 404 and the state says disabled', async () => {
    const api = await testServer();
    try {
      const tenant = await buildTenant(api.databaseUrl);
      const res = await api.as(tenant.owner.apiKey).post(LINK, { installationId: 1 });
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ error: { code: 'not_found', message: 'The code-host application is not configured (CODEHOST_APP_ID)' } });
      const state = await api.as(tenant.owner.apiKey).get('/api/integrations/codehost');
      expect(state.body.data).to.include({ enabled: false, webhooksAccepted: false });
    } finally {
      await api.close();
    }
  });
});
