import { expect } from 'chai';
import { buildTenant } from '../helpers/factories.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import { testServer } from '../helpers/server.js';
import { fromNewAddress } from './helpers.js';

const SECRET = 'an-admin-secret-of-some-length';

describe('GET /api/config-report (global administrator)', () => {
  it('without ADMIN_SECRET nobody is administrator: 401 with or without the header, 403 for a tenant key', async () => {
    const api = await testServer();
    try {
      const t = await buildTenant(api.databaseUrl);
      const client = fromNewAddress(api);
      const none = await client.get('/api/config-report');
      expect(none.status).to.equal(401);
      expect(none.body).to.deep.equal({ error: { code: 'unauthorized', message: 'Missing or invalid credentials' } });
      for (const value of ['', 'anything', SECRET]) {
        expectRefusal(await client.get('/api/config-report', { 'x-admin-secret': value }), 401, apiError('unauthorized', 'Missing or invalid credentials'), value);
      }
      const tenant = await api.as(t.owner.apiKey).get('/api/config-report');
      expect(tenant.status).to.equal(403);
      expect(tenant.body).to.deep.equal({ error: { code: 'forbidden', message: 'Only the global administrator can do this' } });
    } finally {
      await api.close();
    }
  });

  it('with ADMIN_SECRET: 401 for a wrong secret, 403 for a tenant key, and the report names no value', async () => {
    const env = {
      ADMIN_SECRET: SECRET,
      RELEASE_VERSION: '1.4.2',
      S3_BUCKET: 'transcripts-bucket-name',
      S3_ENDPOINT: 'http://127.0.0.1:9',
      S3_ACCESS_KEY_ID: 'AKIA-ACCESS-KEY-ID',
      S3_SECRET_ACCESS_KEY: 'very-secret-s3-key',
      MAILER_API_KEY: 'mailer-key-value',
      DOCS_WEBHOOK_SECRET: 'docs-hook-secret',
      TRACKER2_CLIENT_ID: 'tracker-client-id',
      TRACKER2_CLIENT_SECRET: 'tracker-client-secret',
      CODEHOST2_CLIENT_ID: 'gitlab-client-id',
      CODEHOST2_CLIENT_SECRET: 'gitlab-client-secret',
      CODEHOST2_REDIRECT_URI: 'https://analytics.example.com/auth/gitlab/callback',
      CODEHOST2_BASE_URL: 'https://gitlab.internal.example.com',
      IDP2_CLIENT_ID: 'entra-client-id',
      IDP2_CLIENT_SECRET: 'entra-client-secret',
      LLM_B_API_KEY: 'llm-b-key-value',
      AI_MODELS: 'anthropic:model-one,anthropic:model-two',
    };
    const api = await testServer({ env });
    try {
      const t = await buildTenant(api.databaseUrl);
      const client = fromNewAddress(api);
      expectRefusal(await client.get('/api/config-report', { 'x-admin-secret': `${SECRET}x` }), 401, apiError('unauthorized', 'Missing or invalid credentials'));
      expectRefusal(await client.get('/api/config-report', { 'x-admin-secret': SECRET.slice(1) }), 401, apiError('unauthorized', 'Missing or invalid credentials'));
      expectRefusal(await api.as(t.owner.apiKey).get('/api/config-report'), 403, apiError('forbidden', 'Only the global administrator can do this'));
      // Admin credentials win over a bearer: the header decides.
      const res = await api.with({ 'x-admin-secret': SECRET }).get('/api/config-report');
      expect(res.status).to.equal(200);
      expect(res.headers.get('ratelimit-limit')).to.equal('100');
      expect(res.body).to.deep.equal({
        data: {
          release: { version: '1.4.2', known: true },
          production: false,
          database: { directUrl: false },
          objectStore: { kind: 's3', configured: true, addressing: 'path', addressingDerived: true },
          codehostApp: { configured: false, webhookSecret: false, name: false },
          signIn: {
            email: true,
            codehost: { provider: 'github', configured: false, customEndpoint: false },
            idp1: { provider: 'google', configured: false, customEndpoint: false },
            codehost2: { provider: 'gitlab', configured: true, customEndpoint: true },
            idp2: { provider: 'microsoft', configured: true, customEndpoint: false },
          },
          integrations: { tracker1: false, tracker2: true, docs: false, chat: false },
          billing: { configured: false },
          llmObservability: { configured: false },
          mailer: { configured: true },
          secrets: { docsWebhookSecret: true, chatSigningSecret: false, codehostPublicToken: false, adminSecret: true },
          ai: { provider: false, models: true, keys: { llmA: false, llmB: true, llmC: false, llmD: false }, promptLogging: false },
          jobs: { workerEnabled: res.body.data.jobs.workerEnabled },
          staleIntegrations: { codehost_installation: 0, jira_connection: 0, linear_connection: 0 },
        },
        meta: {},
      });
      for (const [name, value] of Object.entries(env)) {
        if (name === 'RELEASE_VERSION') continue;
        expect(res.text, name).not.to.include(value);
      }
      expect(res.text).not.to.include(api.databaseUrl);
    } finally {
      await api.close();
    }
  });

  it('reports a local store, or none, without its directory', async () => {
    const api = await testServer({ env: { ADMIN_SECRET: SECRET, LOCAL_OBJECT_STORE_DIR: '/tmp/da-objects-report-test' } });
    try {
      const res = await api.with({ 'x-admin-secret': SECRET }).get('/api/config-report');
      expect(res.body.data.objectStore).to.deep.equal({ kind: 'local', configured: true });
      expect(res.body.data.release).to.deep.equal({ version: 'dev', known: false });
      expect(res.text).not.to.include('da-objects-report-test');
    } finally {
      await api.close();
    }
  });
});
