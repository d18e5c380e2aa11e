import { expect } from 'chai';
import { ConfigError, decodeEncryptionKey, deriveAddressing, loadConfig, type Env } from '../../src/config.js';
import { runCli } from '../helpers/cli.js';

const VALID: Env = {
  APP_URL: 'https://analytics.example.com',
  OAUTH_ENCRYPTION_KEY: 'k'.repeat(32),
  DATABASE_URL: 'postgresql://app:secret@db.internal:5432/analytics',
};

function problems(env: Env): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('configuration', () => {
  it('applies the defaults of the spec', () => {
    const config = loadConfig(VALID);
    expect(config).to.deep.include({ port: 3000, host: '0.0.0.0', nodeEnv: 'development', releaseVersion: 'dev', logLevel: 'info' });
    expect(config.database.directUrl).to.equal(null);
    expect(config.jobs).to.deep.equal({
      workerEnabled: true, pollIntervalMs: 1000, queueConcurrency: 2, workflowConcurrency: 2, retentionDays: 7, shutdownGraceMs: 20000,
    });
    expect(config.objectStore).to.deep.equal({ kind: 'none' });
  });

  it('reads the semantic layer\'s query timeout and Continue-wait time, within bounds', () => {
    expect(loadConfig(VALID).cube).to.deep.equal({ queryTimeoutSeconds: 120, continueWaitSeconds: 5 });
    expect(loadConfig({ ...VALID, CUBE_QUERY_TIMEOUT_SECONDS: '30', CUBE_CONTINUE_WAIT_SECONDS: '2' }).cube).to.deep.equal({ queryTimeoutSeconds: 30, continueWaitSeconds: 2 });
    expect(problems({ ...VALID, CUBE_QUERY_TIMEOUT_SECONDS: '0', CUBE_CONTINUE_WAIT_SECONDS: '1.5' })).to.deep.equal([
      'CUBE_QUERY_TIMEOUT_SECONDS must be a whole number from 1 to 86400',
      'CUBE_CONTINUE_WAIT_SECONDS must be a whole number from 1 to 3600',
    ]);
  });

  it('turns every integration off when its settings are absent', () => {
    const config = loadConfig(VALID);
    expect(config.codehostApp).to.equal(null);
    expect(config.signIn).to.deep.equal({ email: false, codehost: null, idp1: null, codehost2: null, idp2: null });
    expect(config.integrations).to.deep.equal({ tracker1: null, tracker2: null, docs: null, chat: null });
    expect(config.billing).to.equal(null);
    expect(config.llmObservability).to.equal(null);
    expect(config.adminSecret).to.equal(null);
  });

  it('is frozen, nested objects included', () => {
    const config = loadConfig(VALID);
    expect(Object.isFrozen(config)).to.equal(true);
    expect(Object.isFrozen(config.jobs)).to.equal(true);
    expect(Reflect.set(config, 'port', 1)).to.equal(false);
    expect(config.port).to.equal(3000);
  });

  for (const name of ['APP_URL', 'OAUTH_ENCRYPTION_KEY', 'DATABASE_URL']) {
    it(`names ${name} when it is missing`, () => {
      expect(problems({ ...VALID, [name]: undefined })).to.deep.equal([`${name} is required`]);
    });
  }

  it('lists every problem at once', () => {
    const found = problems({ S3_BUCKET: 'b', PORT: 'x', JOBS_WORKER_ENABLED: 'maybe' });
    expect(found).to.include('APP_URL is required');
    expect(found).to.include('OAUTH_ENCRYPTION_KEY is required');
    expect(found).to.include('DATABASE_URL is required');
    expect(found).to.include('PORT must be a whole number from 0 to 65535');
    expect(found).to.include('JOBS_WORKER_ENABLED must be true or false');
    expect(found.some((p) => p.includes('missing S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY'))).to.equal(true);
  });

  it('never prints a value, only names', () => {
    const secret = 'postgresql-but-not-really-s3cr3t';
    const found = problems({ ...VALID, DATABASE_URL: secret, OAUTH_ENCRYPTION_KEY: 'short-s3cr3t', S3_SECRET_ACCESS_KEY: 'another-s3cr3t' });
    expect(found.join('\n')).not.to.include('s3cr3t');
    expect(found).to.have.length(3);
  });

  it('checks the shape of DATABASE_URL and DATABASE_URL_DIRECT', () => {
    expect(problems({ ...VALID, DATABASE_URL: 'mysql://u:p@h:3306/d' })).to.deep.equal([
      'DATABASE_URL must have the shape postgresql://<user>:<password>@<host>:<port>/<database>',
    ]);
    expect(problems({ ...VALID, DATABASE_URL: 'postgresql://u:p@h:5432/' })).to.have.length(1);
    expect(problems({ ...VALID, DATABASE_URL_DIRECT: 'nonsense' })[0]).to.match(/^DATABASE_URL_DIRECT must have the shape/);
    expect(loadConfig({ ...VALID, DATABASE_URL: 'postgres://u:p@h:5432/d' }).database.url).to.equal('postgres://u:p@h:5432/d');
  });

  it('BI access: DATABASE_URL_BI, BI_PORT, BI_HOST (default: APP_URL\'s host) and BI_DATABASE are optional and checked', () => {
    expect(loadConfig(VALID).bi).to.deep.equal({ databaseUrl: null, publicPort: null, publicHost: 'analytics.example.com', database: null });
    const replica = 'postgresql://app:secret@replica.internal:5432/analytics';
    expect(loadConfig({ ...VALID, DATABASE_URL_BI: replica, BI_PORT: '6432', BI_HOST: 'bi.example.com', BI_DATABASE: 'analytics_tools' }).bi)
      .to.deep.equal({ databaseUrl: replica, publicPort: 6432, publicHost: 'bi.example.com', database: 'analytics_tools' });
    expect(problems({ ...VALID, DATABASE_URL_BI: 'nonsense', BI_PORT: '0', BI_HOST: 'bi.example.com/x', BI_DATABASE: 'a"b' })).to.deep.equal([
      'DATABASE_URL_BI must have the shape postgresql://<user>:<password>@<host>:<port>/<database>',
      'BI_PORT must be a whole number from 1 to 65535',
      'BI_HOST must be a host name (letters, digits, dots and hyphens)',
      'BI_DATABASE must be a database name (a letter or _, then letters, digits, _, $ or -; at most 63)',
    ]);
  });

  describe('TRUSTED_PROXIES', () => {
    it('trusts no proxy when unset', () => {
      expect(loadConfig(VALID).trustedProxies).to.deep.equal([]);
    });

    it('reads addresses and CIDR networks of both families', () => {
      expect(loadConfig({ ...VALID, TRUSTED_PROXIES: '172.30.0.0/16, ::1,10.0.0.1' }).trustedProxies).to.deep.equal([
        { address: '172.30.0.0', prefix: 16, family: 4 },
        { address: '::1', prefix: 128, family: 6 },
        { address: '10.0.0.1', prefix: 32, family: 4 },
      ]);
    });

    for (const bad of ['traefik', '10.0.0.0/33', '10.0.0.0/8/1', '::1/129', '10.0.0.0/x']) {
      it(`refuses ${bad}`, () => {
        expect(problems({ ...VALID, TRUSTED_PROXIES: bad })).to.deep.equal([
          'TRUSTED_PROXIES must be a comma-separated list of IP addresses or CIDR networks (e.g. 172.30.0.0/16,::1)',
        ]);
      });
    }
  });

  describe('OAUTH_ENCRYPTION_KEY', () => {
    it('accepts 64 hex characters, base64, base64url and a 32-byte string', () => {
      const bytes = Buffer.alloc(32, 7);
      expect(decodeEncryptionKey(bytes.toString('hex'))).to.deep.equal(bytes);
      expect(decodeEncryptionKey(bytes.toString('base64'))).to.deep.equal(bytes);
      const urlSafe = Buffer.alloc(32, 0xfb);
      expect(decodeEncryptionKey(urlSafe.toString('base64url'))).to.deep.equal(urlSafe);
      expect(decodeEncryptionKey('x'.repeat(32))).to.deep.equal(Buffer.from('x'.repeat(32)));
    });

    it('refuses anything that is not 32 bytes', () => {
      expect(problems({ ...VALID, OAUTH_ENCRYPTION_KEY: 'x'.repeat(31) })).to.deep.equal([
        'OAUTH_ENCRYPTION_KEY must be exactly 32 bytes (64 hex characters, base64 of 32 bytes, or a 32-byte string)',
      ]);
      expect(problems({ ...VALID, OAUTH_ENCRYPTION_KEY: Buffer.alloc(33).toString('hex') })).to.have.length(1);
    });
  });

  describe('production', () => {
    it('requires an https APP_URL', () => {
      expect(problems({ ...VALID, NODE_ENV: 'production', APP_URL: 'http://analytics.example.com' })).to.deep.equal([
        'APP_URL must use https when NODE_ENV is production',
      ]);
      expect(problems({ ...VALID, NODE_ENV: 'production' })).to.deep.equal([]);
    });

    it('refuses LOCAL_OBJECT_STORE_DIR', () => {
      expect(problems({ ...VALID, NODE_ENV: 'production', LOCAL_OBJECT_STORE_DIR: '/tmp/x' })).to.deep.equal([
        'LOCAL_OBJECT_STORE_DIR is refused when NODE_ENV is production (configure the S3_* group)',
      ]);
    });
  });

  describe('object store group', () => {
    const S3 = { S3_BUCKET: 'transcripts', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' };

    it('is enabled by S3_BUCKET with region auto by default', () => {
      expect(loadConfig({ ...VALID, ...S3 }).objectStore).to.deep.equal({
        kind: 's3', bucket: 'transcripts', endpoint: 'http://127.0.0.1:9000', accessKeyId: 'id', secretAccessKey: 'secret',
        region: 'auto', addressing: 'path', addressingDerived: true,
      });
    });

    for (const name of ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_BUCKET']) {
      it(`names ${name} when the group lacks it`, () => {
        const found = problems({ ...VALID, ...S3, [name]: undefined });
        expect(found).to.have.length(1);
        expect(found[0]).to.match(new RegExp(`^object store group \\(S3_BUCKET\\) is partially configured: missing ${name} `));
      });
    }

    it('derives the addressing style from the endpoint', () => {
      expect(deriveAddressing('https://s3.eu-west-1.amazonaws.com')).to.equal('virtual-host');
      expect(deriveAddressing('http://minio:9000')).to.equal('path');
      expect(deriveAddressing('http://10.0.0.5:9000')).to.equal('path');
      expect(deriveAddressing('https://acct.r2.cloudflarestorage.com')).to.equal('path');
    });

    it('honours an explicit S3_ADDRESSING and rejects other values', () => {
      const store = loadConfig({ ...VALID, ...S3, S3_ADDRESSING: 'virtual-host' }).objectStore;
      expect(store).to.include({ addressing: 'virtual-host', addressingDerived: false });
      expect(problems({ ...VALID, ...S3, S3_ADDRESSING: 'subdomain' })).to.deep.equal(['S3_ADDRESSING must be path or virtual-host']);
    });

    it('uses LOCAL_OBJECT_STORE_DIR outside production when no bucket is set', () => {
      expect(loadConfig({ ...VALID, LOCAL_OBJECT_STORE_DIR: '/tmp/objects' }).objectStore).to.deep.equal({ kind: 'local', dir: '/tmp/objects' });
    });
  });

  describe('credential groups', () => {
    const GROUPS: Record<string, string[]> = {
      'code-host application group (CODEHOST_APP_ID)': ['CODEHOST_APP_ID', 'CODEHOST_APP_PRIVATE_KEY'],
      codehost: ['CODEHOST_CLIENT_ID', 'CODEHOST_CLIENT_SECRET'],
      idp1: ['IDP1_CLIENT_ID', 'IDP1_CLIENT_SECRET', 'IDP1_REDIRECT_URI'],
      codehost2: ['CODEHOST2_CLIENT_ID', 'CODEHOST2_CLIENT_SECRET', 'CODEHOST2_REDIRECT_URI'],
      idp2: ['IDP2_CLIENT_ID', 'IDP2_CLIENT_SECRET'],
      tracker1: ['TRACKER1_CLIENT_ID', 'TRACKER1_SECRET', 'TRACKER1_REDIRECT_URI'],
      tracker2: ['TRACKER2_CLIENT_ID', 'TRACKER2_CLIENT_SECRET'],
      docs: ['DOCS_CLIENT_ID', 'DOCS_CLIENT_SECRET'],
      chat: ['CHAT_CLIENT_ID', 'CHAT_CLIENT_SECRET'],
    };
    for (const [label, names] of Object.entries(GROUPS)) {
      for (const missing of names) {
        it(`${label}: names ${missing} when the rest is set`, () => {
          const env: Env = { ...VALID };
          for (const n of names) if (n !== missing) env[n] = 'value';
          const found = problems(env);
          expect(found).to.have.length(1);
          expect(found[0]).to.include(`${label.startsWith('code-host') ? label : label + ' ('}`);
          expect(found[0]).to.include(`missing ${missing}`);
        });
      }
    }

    it('code-host application group: webhook secret and name alone are partial', () => {
      expect(problems({ ...VALID, CODEHOST_APP_WEBHOOK_SECRET: 's' })[0]).to.include('missing CODEHOST_APP_ID, CODEHOST_APP_PRIVATE_KEY');
    });

    it('turns complete groups on', () => {
      const config = loadConfig({ ...VALID, CODEHOST_APP_ID: '1', CODEHOST_APP_PRIVATE_KEY: 'pem', TRACKER2_CLIENT_ID: 'a', TRACKER2_CLIENT_SECRET: 'b', MAILER_API_KEY: 'm' });
      expect(config.codehostApp).to.deep.equal({ appId: '1', privateKey: 'pem', webhookSecret: null, name: null });
      expect(config.integrations.tracker2).to.deep.equal({ TRACKER2_CLIENT_ID: 'a', TRACKER2_CLIENT_SECRET: 'b' });
      expect(config.signIn.email).to.equal(true);
    });
  });

  describe('sign-in providers', () => {
    const GITHUB = { CODEHOST_CLIENT_ID: 'gh-id', CODEHOST_CLIENT_SECRET: 'gh-secret' };
    const GOOGLE = { IDP1_CLIENT_ID: 'g-id', IDP1_CLIENT_SECRET: 'g-secret', IDP1_REDIRECT_URI: 'https://analytics.example.com/auth/google/callback' };
    const GITLAB = { CODEHOST2_CLIENT_ID: 'gl-id', CODEHOST2_CLIENT_SECRET: 'gl-secret', CODEHOST2_REDIRECT_URI: 'https://analytics.example.com/auth/gitlab/callback' };
    const MICROSOFT = { IDP2_CLIENT_ID: 'ms-id', IDP2_CLIENT_SECRET: 'ms-secret' };

    it('complete groups: the providers with their default endpoints and redirect URIs', () => {
      const config = loadConfig({ ...VALID, ...GITHUB, ...GOOGLE, ...GITLAB, ...MICROSOFT });
      expect(config.signIn).to.deep.equal({
        email: false,
        codehost: { clientId: 'gh-id', clientSecret: 'gh-secret', redirectUri: 'https://analytics.example.com/auth/github/callback', overridden: false, baseUrl: 'https://github.com', apiUrl: 'https://api.github.com' },
        idp1: { clientId: 'g-id', clientSecret: 'g-secret', redirectUri: 'https://analytics.example.com/auth/google/callback', overridden: false, issuer: 'https://accounts.google.com' },
        codehost2: { clientId: 'gl-id', clientSecret: 'gl-secret', redirectUri: 'https://analytics.example.com/auth/gitlab/callback', overridden: false, issuer: 'https://gitlab.com' },
        idp2: { clientId: 'ms-id', clientSecret: 'ms-secret', redirectUri: 'https://analytics.example.com/auth/microsoft/callback', overridden: false, tenant: 'organizations', issuer: 'https://login.microsoftonline.com/organizations/v2.0' },
      });
    });

    it('overrides: GitHub Enterprise (API under /api/v3 unless CODEHOST_API_URL), self-managed GitLab, IDP2_TENANT, issuers', () => {
      const config = loadConfig({
        ...VALID, ...GITHUB, ...GOOGLE, ...GITLAB, ...MICROSOFT,
        CODEHOST_BASE_URL: 'https://ghe.example.com/', CODEHOST2_BASE_URL: 'https://gitlab.example.com', IDP1_ISSUER: 'https://idp.example.com/google', IDP2_TENANT: 'contoso.onmicrosoft.com',
      });
      expect(config.signIn.codehost).to.include({ baseUrl: 'https://ghe.example.com', apiUrl: 'https://ghe.example.com/api/v3', overridden: true });
      expect(config.signIn.codehost2).to.include({ issuer: 'https://gitlab.example.com', overridden: true });
      expect(config.signIn.idp1).to.include({ issuer: 'https://idp.example.com/google', overridden: true });
      expect(config.signIn.idp2).to.include({ tenant: 'contoso.onmicrosoft.com', issuer: 'https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0', overridden: false });
      const api = loadConfig({ ...VALID, ...GITHUB, CODEHOST_API_URL: 'https://api.ghe.example.com', ...MICROSOFT, IDP2_ISSUER: 'https://login.example.com/tenant/v2.0' });
      expect(api.signIn.codehost).to.include({ baseUrl: 'https://github.com', apiUrl: 'https://api.ghe.example.com', overridden: true });
      expect(api.signIn.idp2).to.include({ issuer: 'https://login.example.com/tenant/v2.0', overridden: true });
    });

    const OVERRIDES: Record<string, [string, string]> = {
      CODEHOST_BASE_URL: ['codehost (', 'missing CODEHOST_CLIENT_ID, CODEHOST_CLIENT_SECRET'],
      CODEHOST_API_URL: ['codehost (', 'missing CODEHOST_CLIENT_ID, CODEHOST_CLIENT_SECRET'],
      IDP1_ISSUER: ['idp1 (', 'missing IDP1_CLIENT_ID, IDP1_CLIENT_SECRET, IDP1_REDIRECT_URI'],
      CODEHOST2_BASE_URL: ['codehost2 (', 'missing CODEHOST2_CLIENT_ID, CODEHOST2_CLIENT_SECRET, CODEHOST2_REDIRECT_URI'],
      IDP2_TENANT: ['idp2 (', 'missing IDP2_CLIENT_ID, IDP2_CLIENT_SECRET'],
      IDP2_ISSUER: ['idp2 (', 'missing IDP2_CLIENT_ID, IDP2_CLIENT_SECRET'],
    };
    for (const [name, [label, missing]] of Object.entries(OVERRIDES)) {
      it(`${name} alone makes its group partial (boot error)`, () => {
        const value = name === 'IDP2_TENANT' ? 'organizations' : 'https://override.example.com';
        const found = problems({ ...VALID, [name]: value });
        expect(found).to.have.length(1);
        expect(found[0]).to.include(label).and.to.include(missing).and.to.include(`(set: ${name})`);
      });
    }

    it('refuses malformed overrides, a path as tenant, and plain http in production', () => {
      expect(problems({ ...VALID, ...GITHUB, CODEHOST_BASE_URL: 'github.com' })).to.deep.equal(['CODEHOST_BASE_URL must be an http(s) URL']);
      expect(problems({ ...VALID, ...MICROSOFT, IDP2_TENANT: '../common' })).to.deep.equal(['IDP2_TENANT must be a tenant id, a domain, organizations, common or consumers']);
      expect(problems({ ...VALID, ...GOOGLE, IDP1_REDIRECT_URI: 'not a url' })).to.deep.equal(['IDP1_REDIRECT_URI must be an http(s) URL']);
      expect(problems({ ...VALID, NODE_ENV: 'production', MAILER_API_KEY: 'm', ...GITLAB, CODEHOST2_BASE_URL: 'http://gitlab.internal' }))
        .to.deep.equal(['CODEHOST2_BASE_URL must use https when NODE_ENV is production']);
    });
  });

  describe('flag-enabled groups', () => {
    it('billing: the flag requires every billing variable', () => {
      const found = problems({ ...VALID, BILLING_ENABLED: 'true', BILLING_API_KEY: 'k' });
      expect(found).to.deep.equal([
        'billing group (BILLING_ENABLED) is partially configured: missing BILLING_WEBHOOK_SECRET, BILLING_CLIENT_TOKEN, BILLING_INDIVIDUAL_PRICE_ID, BILLING_SMALL_TEAM_PRICE_ID, BILLING_LARGE_TEAM_PRICE_ID, BILLING_ENTERPRISE_PRICE_ID',
      ]);
      expect(loadConfig({ ...VALID, BILLING_API_KEY: 'k' }).billing).to.equal(null);
    });

    it('AI: AI_MODELS entries name their provider (or AI_PROVIDER\'s), whose key must be set; a base URL belongs to its key', () => {
      expect(problems({ ...VALID, AI_MODELS: 'openai:gpt-a,llama3:8b', LLM_A_BASE_URL: 'http://127.0.0.1:1/v1' })).to.deep.equal([
        'LLM_A group (LLM_A_API_KEY) is partially configured: missing LLM_A_API_KEY (set: LLM_A_BASE_URL)',
        'AI_MODELS names openai (openai:gpt-a) but LLM_A_API_KEY is not set',
        'AI_MODELS entry llama3:8b names no provider: write openai:, anthropic:, google:, compatible: before it, or set AI_PROVIDER',
      ]);
      const config = loadConfig({ ...VALID, AI_PROVIDER: 'compatible', AI_MODELS: 'llama3:8b,anthropic:claude-b', LLM_B_API_KEY: 'b', LLM_D_API_KEY: 'd' });
      expect(config.ai.models).to.deep.equal([{ provider: 'compatible', model: 'llama3:8b' }, { provider: 'anthropic', model: 'claude-b' }]);
      expect(config.ai.timeoutMs).to.equal(60_000);
    });

    it('LLM observability: the flag requires both keys; the base URL is optional', () => {
      expect(problems({ ...VALID, LLMOBS_ENABLED: 'true', LLMOBS_PUBLIC_KEY: 'p' })).to.deep.equal([
        'LLM observability group (LLMOBS_ENABLED) is partially configured: missing LLMOBS_SECRET_KEY',
      ]);
      expect(loadConfig({ ...VALID, LLMOBS_ENABLED: 'true', LLMOBS_PUBLIC_KEY: 'p', LLMOBS_SECRET_KEY: 's' }).llmObservability)
        .to.deep.equal({ publicKey: 'p', secretKey: 's', baseUrl: null, recordContent: false });
    });
  });

  describe('the built CLI', () => {
    it('exits non-zero listing every problem, one line each, before binding', async function () {
      this.timeout(20000);
      const result = await runCli(['serve'], { S3_BUCKET: 'b', S3_SECRET_ACCESS_KEY: 'very-s3cr3t-value', PORT: '1' });
      expect(result.code).to.equal(1);
      const lines = result.stderr.trim().split('\n');
      expect(lines[0]).to.equal('configuration problems:');
      expect(lines.slice(1).map((l) => l.trim())).to.deep.equal([
        'APP_URL is required',
        'OAUTH_ENCRYPTION_KEY is required',
        'DATABASE_URL is required',
        'object store group (S3_BUCKET) is partially configured: missing S3_ENDPOINT, S3_ACCESS_KEY_ID (set: S3_BUCKET, S3_SECRET_ACCESS_KEY)',
      ]);
      expect(result.stderr + result.stdout).not.to.include('s3cr3t');
    });
  });

  describe('issue trackers (Jira, Linear)', () => {
    const jira = { TRACKER1_CLIENT_ID: 'jira-id', TRACKER1_SECRET: 'jira-secret', TRACKER1_REDIRECT_URI: 'https://analytics.example.com/api/integrations/jira/callback' };
    const linear = { TRACKER2_CLIENT_ID: 'linear-id', TRACKER2_CLIENT_SECRET: 'linear-secret' };

    it('reads each group with the vendors\' endpoints, or the overrides; Linear\'s callback is under APP_URL', () => {
      const config = loadConfig({ ...VALID, ...jira, ...linear, LINEAR_API_BASE_URL: 'http://127.0.0.1:4010/' });
      expect(config.trackers).to.deep.equal({
        jira: { clientId: 'jira-id', clientSecret: 'jira-secret', redirectUri: 'https://analytics.example.com/api/integrations/jira/callback', authBaseUrl: 'https://auth.atlassian.com', apiBaseUrl: 'https://api.atlassian.com' },
        linear: { clientId: 'linear-id', clientSecret: 'linear-secret', redirectUri: `${config.appUrl}/api/integrations/linear/callback`, authBaseUrl: 'https://linear.app', apiBaseUrl: 'http://127.0.0.1:4010' },
      });
      expect(loadConfig(VALID).trackers).to.deep.equal({ jira: null, linear: null });
    });

    it('an override set without its credentials makes the group partial; production refuses a plain-http one', () => {
      expect(problems({ ...VALID, JIRA_API_BASE_URL: 'https://jira.example.com' })).to.deep.equal([
        'tracker1 (TRACKER1_CLIENT_ID, TRACKER1_SECRET, TRACKER1_REDIRECT_URI) is partially configured: missing TRACKER1_CLIENT_ID, TRACKER1_SECRET, TRACKER1_REDIRECT_URI (set: JIRA_API_BASE_URL)',
      ]);
      expect(problems({ ...VALID, ...linear, NODE_ENV: 'production', APP_URL: 'https://analytics.example.com', LINEAR_AUTH_BASE_URL: 'http://linear.internal' })).to.include('LINEAR_AUTH_BASE_URL must use https when NODE_ENV is production');
    });
  });
});
