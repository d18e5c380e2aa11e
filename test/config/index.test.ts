/** loadConfig as a whole (src/config/index.ts): defaults, freezing, every problem at once, the small loaders. */
import { expect } from 'chai';
import { loadConfig, loadDatabaseConfig, loadLogLevel, loadSealingConfig, ConfigError } from '../../src/config/index.js';
import { runCli } from '../helpers/cli.js';
import { problems, VALID } from './helpers.js';

describe('configuration', () => {
  it('applies the defaults of the spec', () => {
    const config = loadConfig(VALID);
    expect(config).to.deep.include({ port: 3000, host: '0.0.0.0', nodeEnv: 'development', releaseVersion: 'dev', logLevel: 'info', testHooks: false });
    expect(config.database.directUrl).to.equal(null);
    expect(config.jobs).to.deep.equal({
      workerEnabled: true, pollIntervalMs: 1000, queueConcurrency: 2, workflowConcurrency: 2, retentionDays: 7, shutdownGraceMs: 20000,
    });
    expect(config.objectStore).to.deep.equal({ kind: 'none' });
    expect(config.appUrl).to.equal('https://analytics.example.com');
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

  it('lists every problem at once, group by group in a fixed order', () => {
    const found = problems({ S3_BUCKET: 'b', PORT: 'x', JOBS_WORKER_ENABLED: 'maybe', LOG_LEVEL: 'loud', BILLING_ENABLED: 'true', TEST_HOOKS: 'true' });
    expect(found).to.deep.equal([
      'APP_URL is required',
      'OAUTH_ENCRYPTION_KEY is required',
      'DATABASE_URL is required',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
      'object store group (S3_BUCKET) is partially configured: missing S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY (set: S3_BUCKET)',
      'billing group (BILLING_ENABLED) is partially configured: missing BILLING_API_KEY, BILLING_WEBHOOK_SECRET, BILLING_CLIENT_TOKEN, BILLING_INDIVIDUAL_PRICE_ID, BILLING_SMALL_TEAM_PRICE_ID, BILLING_LARGE_TEAM_PRICE_ID, BILLING_ENTERPRISE_PRICE_ID',
      'JOBS_WORKER_ENABLED must be true or false',
      'PORT must be a whole number from 0 to 65535',
      'TEST_HOOKS is refused unless NODE_ENV is test',
    ]);
  });

  it('never prints a value, only names', () => {
    const secret = 'postgresql-but-not-really-s3cr3t';
    const found = problems({ ...VALID, DATABASE_URL: secret, OAUTH_ENCRYPTION_KEY: 'short-s3cr3t', S3_SECRET_ACCESS_KEY: 'another-s3cr3t' });
    expect(found.join('\n')).not.to.include('s3cr3t');
    expect(found).to.have.length(3);
  });

  it('the commands\' loaders read only their own variables', () => {
    expect(loadDatabaseConfig({ DATABASE_URL: VALID.DATABASE_URL })).to.deep.equal({ databaseUrl: VALID.DATABASE_URL, logLevel: 'info' });
    expect(() => loadDatabaseConfig({ DATABASE_URL: 'nonsense', LOG_LEVEL: 'loud' })).to.throw(ConfigError).with.property('problems').that.deep.equals([
      'DATABASE_URL must have the shape postgresql://<user>:<password>@<host>:<port>/<database>',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    ]);
    expect(loadSealingConfig({ DATABASE_URL: VALID.DATABASE_URL, OAUTH_ENCRYPTION_KEY: 'k'.repeat(32) }).oauthEncryptionKey).to.deep.equal(Buffer.from('k'.repeat(32)));
    expect(() => loadSealingConfig({ DATABASE_URL: VALID.DATABASE_URL })).to.throw(ConfigError).with.property('problems').that.deep.equals(['OAUTH_ENCRYPTION_KEY is required']);
    expect(loadLogLevel({ LOG_LEVEL: 'debug' })).to.equal('debug');
    expect(() => loadLogLevel({ LOG_LEVEL: 'loud' })).to.throw(ConfigError);
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
});
