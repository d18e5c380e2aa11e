/**
 * compose.yaml and the launcher, checked by parsing (no container engine): which services run for
 * each mix of bundled and external halves, what waits for what, what is published, and which
 * values the compose file sets over the env file.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { expect } from 'chai';
import { composeModel, readYaml, ROOT, type Env, type Model } from './composeModel.js';

const REQUIRED: Env = {
  APP_URL: 'https://analytics.example.com',
  OAUTH_ENCRYPTION_KEY: 'ab'.repeat(32),
  S3_SECRET_ACCESS_KEY: 'cd'.repeat(24),
};
const DEFAULT_DB_URL = 'postgresql://delivery_analytics:delivery-analytics-insecure-default@postgres:5432/delivery_analytics';
const EXTERNAL_DB = 'postgresql://app:secret@db.internal:5432/analytics';
const EXTERNAL_S3 = 'https://s3.eu-west-1.amazonaws.com';

/** A stand-in `docker` that prints its arguments, so the launcher runs for real and we read what it would run. */
const fakeBin = (() => {
  const dir = mkdtempSync(join(tmpdir(), 'da-fake-docker-'));
  mkdirSync(join(dir, 'bin'));
  const docker = join(dir, 'bin', 'docker');
  writeFileSync(docker, '#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n');
  chmodSync(docker, 0o755);
  return { dir, bin: join(dir, 'bin') };
})();

interface Launch {
  files: string[];
  args: string[];
}

/** Runs deploy/compose.sh with `environment` as its whole environment and `envFile` as its --env-file. */
function launch(environment: Env, envFile: string, args: string[] = ['up', '-d']): Launch {
  const file = join(fakeBin.dir, `env-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, envFile);
  const result = execFileSync('sh', [join(ROOT, 'deploy/compose.sh'), '--env-file', file, ...args], {
    env: { PATH: `${fakeBin.bin}:${process.env.PATH}`, ...environment } as NodeJS.ProcessEnv,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const argv = result.trimEnd().split('\n');
  expect(argv[0]).to.equal('compose');
  const files: string[] = [];
  for (let i = 1; i < argv.length; i++) if (argv[i] === '-f') files.push(relative(ROOT, argv[++i] as string));
  return { files, args: argv.slice(1 + files.length * 2) };
}

function dependencies(model: Model, service: string): Record<string, string> {
  const deps = model.services[service]?.dependsOn ?? {};
  return Object.fromEntries(Object.entries(deps).map(([name, d]) => [name, d.condition]));
}

const envFileOf = (env: Env) => Object.entries(env).map(([k, v]) => `${k}=${v}`).join('\n') + '\n';

// At the root: the stand-in is used by the suites below until the last one.
after(() => rmSync(fakeBin.dir, { recursive: true, force: true }));

describe('compose stack: each half bundled or external', () => {
  const mixes = [
    { label: 'both bundled', extra: {}, files: ['compose.yaml'], services: ['migrate', 'objstore', 'objstore-bucket', 'postgres', 'server', 'traefik'] },
    { label: 'external database', extra: { DATABASE_URL: EXTERNAL_DB }, files: ['compose.yaml', 'deploy/external-database.yaml'], services: ['migrate', 'objstore', 'objstore-bucket', 'server', 'traefik'] },
    { label: 'external object store', extra: { S3_ENDPOINT: EXTERNAL_S3, S3_BUCKET: 'acme-transcripts', S3_ACCESS_KEY_ID: 'AKIAEXAMPLE' }, files: ['compose.yaml', 'deploy/external-object-store.yaml'], services: ['migrate', 'postgres', 'server', 'traefik'] },
    { label: 'both external', extra: { DATABASE_URL: EXTERNAL_DB, S3_ENDPOINT: EXTERNAL_S3 }, files: ['compose.yaml', 'deploy/external-database.yaml', 'deploy/external-object-store.yaml'], services: ['migrate', 'server', 'traefik'] },
  ];

  for (const mix of mixes) {
    it(`${mix.label}: the launcher picks the files, and only the bundled halves run and are waited for`, () => {
      const env = { ...REQUIRED, ...mix.extra };
      // The same answer whether the variables come from the env file or the environment.
      const fromFile = launch({}, envFileOf(env));
      const fromEnvironment = launch(env, '');
      expect(fromFile.files).to.deep.equal(mix.files);
      expect(fromEnvironment.files).to.deep.equal(mix.files);
      expect(fromFile.args.slice(-2)).to.deep.equal(['up', '-d']);

      const model = composeModel(mix.files, env);
      expect(Object.keys(model.services).sort()).to.deep.equal(mix.services);

      const dbBundled = !('DATABASE_URL' in mix.extra);
      const storeBundled = !('S3_ENDPOINT' in mix.extra);
      expect(dependencies(model, 'migrate')).to.deep.equal(dbBundled ? { postgres: 'service_healthy' } : {});
      expect(dependencies(model, 'server')).to.deep.equal({
        migrate: 'service_completed_successfully',
        ...(storeBundled ? { 'objstore-bucket': 'service_completed_successfully' } : {}),
      });
      if (storeBundled) expect(dependencies(model, 'objstore-bucket')).to.deep.equal({ objstore: 'service_healthy' });

      const server = model.services.server!.environment;
      expect(server.DATABASE_URL).to.equal(dbBundled ? DEFAULT_DB_URL : EXTERNAL_DB);
      expect(server.S3_ENDPOINT).to.equal(storeBundled ? 'http://objstore:9000' : EXTERNAL_S3);
    });
  }

  it('a variable set empty counts as not set, in the env file and in the environment', () => {
    expect(launch({}, 'DATABASE_URL=\nS3_ENDPOINT="" # bring your own later\n').files).to.deep.equal(['compose.yaml']);
    expect(launch({ DATABASE_URL: '' }, `DATABASE_URL=${EXTERNAL_DB}\n`).files).to.deep.equal(['compose.yaml']);
    expect(launch({}, `# DATABASE_URL=${EXTERNAL_DB}\nexport S3_ENDPOINT='${EXTERNAL_S3}'\n`).files).to.deep.equal(['compose.yaml', 'deploy/external-object-store.yaml']);
    // An env file saved with Windows line endings reads the same.
    expect(launch({}, 'DATABASE_URL=\r\nS3_ENDPOINT=""\r\n').files).to.deep.equal(['compose.yaml']);
  });

  it('`files` prints the COMPOSE_FILE line that makes plain `docker compose` pick the same files', () => {
    const out = execFileSync('sh', [join(ROOT, 'deploy/compose.sh'), 'files'], {
      env: { PATH: process.env.PATH, DATABASE_URL: EXTERNAL_DB, S3_ENDPOINT: EXTERNAL_S3 } as NodeJS.ProcessEnv,
      encoding: 'utf8',
    });
    expect(out).to.equal('COMPOSE_FILE=compose.yaml:deploy/external-database.yaml:deploy/external-object-store.yaml\n');
  });

  it('plain `docker compose up` (compose.yaml alone) runs everything bundled', () => {
    const model = composeModel(['compose.yaml'], REQUIRED);
    expect(Object.keys(model.services).sort()).to.deep.equal(['migrate', 'objstore', 'objstore-bucket', 'postgres', 'server', 'traefik']);
  });
});

describe('compose stack: services', () => {
  const model = composeModel(['compose.yaml'], REQUIRED);
  const s = model.services;

  it('PostgreSQL 17 and MinIO have healthchecks that their dependents wait on, and keep data in volumes', () => {
    expect(s.postgres!.image).to.match(/^postgres:17(\.|$)/);
    expect(s.postgres!.healthcheck.test.join(' ')).to.include('pg_isready');
    expect(s.postgres!.volumes).to.deep.equal(['database:/var/lib/postgresql/data']);
    expect(s.objstore!.image).to.match(/minio\/minio:RELEASE\./);
    expect(s.objstore!.healthcheck.test).to.deep.equal(['CMD', 'mc', 'ready', 'local']);
    expect(s.objstore!.volumes).to.deep.equal(['objects:/data']);
    expect(Object.keys(model.volumes).sort()).to.deep.equal(['database', 'objects']);
  });

  it('the bucket job and the migration job are one-shot; the migration job runs `migrate` on the server image', () => {
    expect(s['objstore-bucket']!.restart).to.equal('no');
    expect(s['objstore-bucket']!.command).to.deep.equal(['mb', '--ignore-existing', 'objstore/transcripts']);
    expect(s.migrate!.restart).to.equal('no');
    expect(s.migrate!.command).to.deep.equal(['migrate']);
    expect(s.migrate!.healthcheck).to.deep.equal({ disable: true });
    expect(s.migrate!.image).to.equal(s.server!.image);
    expect(s.migrate!.build).to.deep.equal(s.server!.build);
    expect(s.server!.command).to.deep.equal(['serve']);
    expect(s.server!.image).to.equal('delivery-analytics:latest');
    expect(composeModel(['compose.yaml'], { ...REQUIRED, RELEASE_VERSION: '1.4.2' }).services.server!.image).to.equal('delivery-analytics:1.4.2');
  });

  it('runs SERVER_REPLICAS servers (3 by default), restarted unless stopped, with time to drain', () => {
    expect(s.server!.deploy.replicas).to.equal('3');
    expect(composeModel(['compose.yaml'], { ...REQUIRED, SERVER_REPLICAS: '1' }).services.server!.deploy.replicas).to.equal('1');
    expect(s.server!.restart).to.equal('unless-stopped');
    expect(s.server!.stop_grace_period).to.equal('30s');
  });

  it('publishes only Traefik on PORT (3000) and the object-store console on OBJSTORE_CONSOLE_PORT (9001)', () => {
    const published = (m: Model) => Object.fromEntries(Object.entries(m.services).filter(([, v]) => v.ports).map(([k, v]) => [k, v.ports]));
    expect(published(model)).to.deep.equal({ traefik: ['3000:80'], objstore: ['9001:9001'] });
    const custom = composeModel(['compose.yaml'], { ...REQUIRED, PORT: '8080', OBJSTORE_CONSOLE_PORT: '19001' });
    expect(published(custom)).to.deep.equal({ traefik: ['8080:80'], objstore: ['19001:9001'] });
    for (const service of Object.values(model.services)) expect(service.network_mode).to.equal(undefined);
  });
});

describe('compose stack: what the compose file sets over the env file', () => {
  it('the env file is optional and every server setting in it reaches the servers and the job', () => {
    const model = composeModel(['compose.yaml'], REQUIRED);
    for (const name of ['server', 'migrate']) {
      expect(model.services[name]!.env_file).to.deep.equal([{ path: '.env', required: false }]);
    }
    // The bundled halves get only what they need, never the application's secrets.
    for (const name of ['postgres', 'objstore', 'objstore-bucket', 'traefik']) expect(model.services[name]!.env_file).to.equal(undefined);
  });

  it('sets APP_URL, OAUTH_ENCRYPTION_KEY, DATABASE_URL and the S3_* group, which win over the env file', () => {
    const env = composeModel(['compose.yaml'], REQUIRED).services.server!.environment;
    expect(env).to.deep.equal({
      APP_URL: REQUIRED.APP_URL,
      OAUTH_ENCRYPTION_KEY: REQUIRED.OAUTH_ENCRYPTION_KEY,
      DATABASE_URL: DEFAULT_DB_URL,
      S3_BUCKET: 'transcripts',
      S3_ENDPOINT: 'http://objstore:9000',
      S3_ACCESS_KEY_ID: 'delivery-analytics',
      S3_SECRET_ACCESS_KEY: REQUIRED.S3_SECRET_ACCESS_KEY,
      S3_REGION: '',
      S3_ADDRESSING: '',
      HOST: '0.0.0.0',
      PORT: '3000',
      TRUSTED_PROXIES: '172.30.57.0/24',
    });
  });

  it("trusts X-Forwarded-For from the stack's own network only, whose range STACK_SUBNET fixes", () => {
    const model = composeModel(['compose.yaml'], REQUIRED);
    expect(model.networks.default.ipam.config).to.deep.equal([{ subnet: '172.30.57.0/24' }]);
    const moved = composeModel(['compose.yaml'], { ...REQUIRED, STACK_SUBNET: '10.77.0.0/24' });
    expect(moved.networks.default.ipam.config).to.deep.equal([{ subnet: '10.77.0.0/24' }]);
    expect(moved.services.server!.environment.TRUSTED_PROXIES).to.equal('10.77.0.0/24');
  });

  it('builds the bundled database URL from DB_PASSWORD, shared by database, migration job and servers', () => {
    const m = composeModel(['compose.yaml'], { ...REQUIRED, DB_PASSWORD: 'Zq8rT2vX9kLm4Pw7' });
    const url = 'postgresql://delivery_analytics:Zq8rT2vX9kLm4Pw7@postgres:5432/delivery_analytics';
    expect(m.services.postgres!.environment).to.deep.equal({ POSTGRES_USER: 'delivery_analytics', POSTGRES_DB: 'delivery_analytics', POSTGRES_PASSWORD: 'Zq8rT2vX9kLm4Pw7' });
    expect(m.services.server!.environment.DATABASE_URL).to.equal(url);
    expect(m.services.migrate!.environment.DATABASE_URL).to.equal(url);
    // Without DB_PASSWORD the publicly known default applies (.env.example says to change it).
    expect(composeModel(['compose.yaml'], REQUIRED).services.postgres!.environment.POSTGRES_PASSWORD).to.equal('delivery-analytics-insecure-default');
  });

  it('S3_SECRET_ACCESS_KEY is both the store root password and the server key; the access key id is the root user', () => {
    const m = composeModel(['compose.yaml'], { ...REQUIRED, S3_ACCESS_KEY_ID: 'analytics', S3_BUCKET: 'acme' });
    const secret = REQUIRED.S3_SECRET_ACCESS_KEY;
    expect(m.services.objstore!.environment).to.deep.equal({ MINIO_ROOT_USER: 'analytics', MINIO_ROOT_PASSWORD: secret });
    expect(m.services['objstore-bucket']!.environment).to.deep.equal({ MC_HOST_objstore: `http://analytics:${secret}@objstore:9000` });
    expect(m.services['objstore-bucket']!.command).to.deep.equal(['mb', '--ignore-existing', 'objstore/acme']);
    expect(m.services.server!.environment).to.include({ S3_ACCESS_KEY_ID: 'analytics', S3_SECRET_ACCESS_KEY: secret, S3_BUCKET: 'acme' });
  });

  it('an external store keeps the user S3_* values; region and addressing pass through', () => {
    const env = { ...REQUIRED, S3_ENDPOINT: EXTERNAL_S3, S3_BUCKET: 'acme', S3_ACCESS_KEY_ID: 'AKIA1', S3_REGION: 'eu-west-1', S3_ADDRESSING: 'virtual-host' };
    const server = composeModel(['compose.yaml', 'deploy/external-object-store.yaml'], env).services.server!.environment;
    expect(server).to.include({ S3_ENDPOINT: EXTERNAL_S3, S3_BUCKET: 'acme', S3_ACCESS_KEY_ID: 'AKIA1', S3_REGION: 'eu-west-1', S3_ADDRESSING: 'virtual-host' });
  });

  it('behind a transaction pooler the migration job uses DATABASE_URL_DIRECT, the servers DATABASE_URL', () => {
    const direct = 'postgresql://app:secret@db.internal:5432/analytics';
    const pooled = 'postgresql://app:secret@pooler.internal:6432/analytics';
    const m = composeModel(['compose.yaml', 'deploy/external-database.yaml'], { ...REQUIRED, DATABASE_URL: pooled, DATABASE_URL_DIRECT: direct });
    expect(m.services.migrate!.environment.DATABASE_URL).to.equal(direct);
    expect(m.services.server!.environment.DATABASE_URL).to.equal(pooled);
    // DATABASE_URL_DIRECT itself reaches the servers through the env file (their listener uses it).
    expect(m.services.server!.environment.DATABASE_URL_DIRECT).to.equal(undefined);
  });

  it('refuses to start without APP_URL, OAUTH_ENCRYPTION_KEY or S3_SECRET_ACCESS_KEY, naming the variable', () => {
    for (const name of Object.keys(REQUIRED)) {
      const env = { ...REQUIRED, [name]: undefined };
      expect(() => composeModel(['compose.yaml'], env)).to.throw(new RegExp(`required variable ${name} is missing a value: set ${name}`));
    }
  });
});

describe('compose stack: PostgreSQL for BI tools (BI_PORT)', () => {
  const BI = { ...REQUIRED, BI_PORT: '5433' };
  const files = ['compose.yaml', 'deploy/bi.yaml'];

  it('the launcher adds deploy/bi.yaml when BI_PORT is set, after the halves it leaves out', () => {
    expect(launch({}, envFileOf(BI)).files).to.deep.equal(files);
    expect(launch({ ...BI, DATABASE_URL: EXTERNAL_DB }, '').files).to.deep.equal(['compose.yaml', 'deploy/external-database.yaml', 'deploy/bi.yaml']);
    expect(launch({}, envFileOf({ ...REQUIRED, BI_PORT: '' })).files).to.deep.equal(['compose.yaml']);
  });

  it('publishes BI_PORT on Traefik only (never the database port), towards the bundled database by default', () => {
    const model = composeModel(files, BI);
    const published = Object.fromEntries(Object.entries(model.services).filter(([, v]) => v.ports).map(([k, v]) => [k, v.ports]));
    expect(published).to.deep.equal({ traefik: ['3000:80', '5433:5432'], objstore: ['9001:9001'] });
    expect(model.services.traefik!.environment).to.deep.equal({ BI_UPSTREAM: 'postgres:5432', APP_URL: REQUIRED.APP_URL });
    expect(model.services.traefik!.networks).to.deep.equal({ default: { ipv4_address: '172.30.57.250' } });
    // Without BI_PORT nothing is published for BI (the entry point exists but is unreachable from outside).
    expect(composeModel(['compose.yaml'], REQUIRED).services.traefik!.ports).to.deep.equal(['3000:80']);
  });

  it('with an external database, forwards to BI_UPSTREAM (the replica or database address)', () => {
    const model = composeModel(['compose.yaml', 'deploy/external-database.yaml', 'deploy/bi.yaml'], { ...BI, DATABASE_URL: EXTERNAL_DB, BI_UPSTREAM: 'replica.internal:5432' });
    expect(Object.keys(model.services).sort()).to.deep.equal(['migrate', 'objstore', 'objstore-bucket', 'server', 'traefik']);
    expect(model.services.traefik!.environment.BI_UPSTREAM).to.equal('replica.internal:5432');
    expect(model.services.traefik!.ports).to.deep.equal(['3000:80', '5433:5432']);
  });

  it("the bundled database refuses every role but BI roles from Traefik's address, which BI_PROXY_ADDRESS moves", () => {
    const model = composeModel(files, { ...BI, STACK_SUBNET: '10.77.0.0/24', BI_PROXY_ADDRESS: '10.77.0.250' });
    expect(model.services.traefik!.networks.default.ipv4_address).to.equal('10.77.0.250');
    const script = (model.services.postgres!.entrypoint as string[]).join(' ');
    expect(script).to.include('host all /^bi_[0-9a-f]{8}_ 10.77.0.250/32 scram-sha-256\nhost all all 10.77.0.250/32 reject\n');
    expect(script).to.match(/exec docker-entrypoint\.sh postgres -c hba_file=\/tmp\/pg_hba_bi\.conf\n$/);
    // The image's healthcheck and data volume are untouched.
    expect(model.services.postgres!.healthcheck.test.join(' ')).to.include('pg_isready');
    expect(model.services.postgres!.volumes).to.deep.equal(['database:/var/lib/postgresql/data']);
  });
});

describe('compose stack: the optional full Cube (profile cube)', () => {
  it('runs only with the profile: the official image at the schema compiler\'s version, on schema/ with cube/cube.js', () => {
    expect(Object.keys(composeModel(['compose.yaml'], REQUIRED).services)).not.to.include('cube');
    const model = composeModel(['compose.yaml'], { ...REQUIRED, DB_PASSWORD: 'Zq8', CUBE_API_SECRET: 's3cret' }, ['cube']);
    const cube = model.services.cube!;
    const compiler = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')).packages['node_modules/@cubejs-backend/schema-compiler'].version;
    expect(cube.image).to.equal(`cubejs/cube:v${compiler}`);
    expect(cube.volumes).to.deep.equal(['./schema:/cube/conf/model:ro', './cube/cube.js:/cube/conf/cube.js:ro']);
    // Nothing of its own is published: Traefik is its way in (below).
    expect(cube.ports).to.equal(undefined);
    expect(cube.environment).to.deep.equal({
      CUBEJS_DB_TYPE: 'postgres', CUBEJS_DB_HOST: 'postgres', CUBEJS_DB_PORT: '5432', CUBEJS_DB_NAME: 'delivery_analytics', CUBEJS_DB_USER: 'delivery_analytics',
      CUBEJS_DB_PASS: 'Zq8', CUBEJS_API_SECRET: 's3cret', CUBEJS_PG_SQL_PORT: '15432', CUBEJS_DEV_MODE: 'false', CUBEJS_SCHEDULED_REFRESH_DEFAULT: 'false',
      DATABASE_URL: 'postgresql://delivery_analytics:Zq8@postgres:5432/delivery_analytics',
    });
    expect(dependencies(model, 'cube')).to.deep.equal({ migrate: 'service_completed_successfully' });
    expect(cube.env_file).to.equal(undefined);
  });

  it('with an external database, reads it through the CUBEJS_DB_* values and looks keys up in DATABASE_URL', () => {
    const env = { ...REQUIRED, DATABASE_URL: EXTERNAL_DB, CUBEJS_DB_HOST: 'db.internal', CUBEJS_DB_NAME: 'analytics', CUBEJS_DB_USER: 'app', CUBEJS_DB_PASS: 'secret' };
    const model = composeModel(['compose.yaml', 'deploy/external-database.yaml'], env, ['cube']);
    expect(Object.keys(model.services)).not.to.include('postgres');
    expect(model.services.cube!.environment).to.include({ CUBEJS_DB_HOST: 'db.internal', CUBEJS_DB_NAME: 'analytics', DATABASE_URL: EXTERNAL_DB });
  });
});

describe('compose stack: only the balancer publishes (issue 32)', () => {
  const staticConfig = readYaml('traefik/traefik.yml');
  const dynamic = readYaml('traefik/dynamic.yml');
  const published = (m: Model) => Object.entries(m.services).filter(([, v]) => v.ports).map(([name]) => name);
  const CUBE = ['compose.yaml', 'deploy/cube.yaml'];

  it('no service but traefik and the object-store console publishes a port, in any profile and mix of files', () => {
    const mixes: [string[], Env][] = [
      [['compose.yaml'], REQUIRED],
      [['compose.yaml', 'deploy/bi.yaml'], { ...REQUIRED, BI_PORT: '5433' }],
      [CUBE, REQUIRED],
      [['compose.yaml', 'deploy/external-database.yaml', 'deploy/external-object-store.yaml', 'deploy/bi.yaml', 'deploy/cube.yaml'], { ...REQUIRED, DATABASE_URL: EXTERNAL_DB, S3_ENDPOINT: EXTERNAL_S3, BI_PORT: '5433' }],
    ];
    const everyProfile = [...new Set(Object.values(readYaml('compose.yaml').services).flatMap((s: any) => s.profiles ?? []))] as string[];
    expect(everyProfile).to.include('cube');
    for (const [files, env] of mixes) {
      for (const profiles of [[], everyProfile]) {
        const model = composeModel(files, env, profiles);
        expect(published(model), `${files.join('+')} ${profiles.join(',')}`).to.satisfy((names: string[]) => names.every((n) => n === 'traefik' || n === 'objstore'));
        for (const service of Object.values(model.services)) expect(service.network_mode).to.equal(undefined);
      }
    }
  });

  it("Cube's SQL API goes through a Traefik TCP router with TLS, like the BI port, and its REST API through an HTTPS router", () => {
    expect(staticConfig.entryPoints['cube-sql']).to.deep.equal({ address: ':15432' });
    expect(staticConfig.entryPoints.cube).to.deep.equal({ address: ':4000' });
    expect(dynamic.tcp.routers['cube-sql']).to.deep.equal({ entryPoints: ['cube-sql'], rule: 'HostSNI(`*`)', service: 'cube-sql', tls: {} });
    expect(dynamic.tcp.services['cube-sql'].loadBalancer.servers).to.deep.equal([{ address: 'cube:15432' }]);
    expect(dynamic.http.routers.cube).to.deep.include({ entryPoints: ['cube'], service: 'cube-api', tls: {} });
    expect(dynamic.http.services['cube-api'].loadBalancer.servers).to.deep.equal([{ url: 'http://cube:4000' }]);
    // TLS is terminated (no passthrough), and the container's listeners are only reachable inside the stack.
    expect(JSON.stringify(dynamic.tcp)).not.to.match(/passthrough/);
    const model = composeModel(CUBE, REQUIRED, ['cube']);
    expect(model.services.traefik!.ports).to.deep.equal(['3000:80', '4000:4000', '15432:15432']);
    expect(composeModel(CUBE, { ...REQUIRED, CUBE_PORT: '14000', CUBE_SQL_PORT: '25432' }, ['cube']).services.traefik!.ports).to.deep.equal(['3000:80', '14000:4000', '25432:15432']);
    expect(model.services.cube!.ports).to.equal(undefined);
  });

  it('the launcher adds deploy/cube.yaml with the cube profile, from --profile or COMPOSE_PROFILES', () => {
    const launched = launch({}, envFileOf(REQUIRED), ['--profile', 'cube', 'up', '-d']);
    expect(launched.files).to.deep.equal(CUBE);
    expect(launched.args.slice(2)).to.deep.equal(['--profile', 'cube', 'up', '-d']);
    expect(launch({}, envFileOf(REQUIRED), ['--profile=cube', 'up']).files).to.deep.equal(CUBE);
    expect(launch({}, envFileOf({ ...REQUIRED, COMPOSE_PROFILES: 'other,cube' })).files).to.deep.equal(CUBE);
    expect(launch({ COMPOSE_PROFILES: 'cube' }, envFileOf(REQUIRED)).files).to.deep.equal(CUBE);
    // The environment wins over the env file, as compose has it; no profile, no Cube ports.
    expect(launch({ COMPOSE_PROFILES: '' }, envFileOf({ ...REQUIRED, COMPOSE_PROFILES: 'cube' })).files).to.deep.equal(['compose.yaml']);
    expect(launch({}, envFileOf(REQUIRED)).files).to.deep.equal(['compose.yaml']);
    expect(launch({}, envFileOf({ ...REQUIRED, BI_PORT: '5433' }), ['--profile', 'cube', 'up']).files).to.deep.equal(['compose.yaml', 'deploy/bi.yaml', 'deploy/cube.yaml']);
  });
});
