/** LOG_LEVEL, the job worker, live sockets, the semantic layer's limits, the CLI login's poll interval, TEST_HOOKS (src/config/runtime.ts). */
import { expect } from 'chai';
import { parseLogLevel, parseRuntime, parseTestHooks } from '../../src/config/runtime.js';
import { loadConfig } from '../../src/config/index.js';
import { parse, problems, VALID } from './helpers.js';

describe('configuration: runtime', () => {
  it('reads the semantic layer\'s query timeout, Continue-wait time and compile cache, within bounds', () => {
    expect(loadConfig(VALID).cube).to.deep.equal({ queryTimeoutSeconds: 120, continueWaitSeconds: 5, compileCacheDir: null });
    expect(parse({ CUBE_QUERY_TIMEOUT_SECONDS: '30', CUBE_CONTINUE_WAIT_SECONDS: '2', CUBE_COMPILE_CACHE_DIR: '/var/cache/da' }, parseRuntime).value.cube).to.deep.equal({
      queryTimeoutSeconds: 30,
      continueWaitSeconds: 2,
      compileCacheDir: '/var/cache/da',
    });
    expect(problems({ ...VALID, CUBE_QUERY_TIMEOUT_SECONDS: '0', CUBE_CONTINUE_WAIT_SECONDS: '1.5', CUBE_COMPILE_CACHE_DIR: 'cache' })).to.deep.equal([
      'CUBE_QUERY_TIMEOUT_SECONDS must be a whole number from 1 to 86400',
      'CUBE_CONTINUE_WAIT_SECONDS must be a whole number from 1 to 3600',
      'CUBE_COMPILE_CACHE_DIR must be an absolute path',
    ]);
  });

  it('the job worker and live sockets: defaults, overrides and bounds', () => {
    const { value } = parse({ JOBS_WORKER_ENABLED: 'off', JOBS_QUEUE_CONCURRENCY: '8', LIVE_MAX_CONNECTIONS_PER_TENANT: '5' }, parseRuntime);
    expect(value.jobs).to.deep.include({ workerEnabled: false, queueConcurrency: 8, pollIntervalMs: 1000 });
    expect(value.live).to.deep.equal({ maxConnectionsPerTenant: 5 });
    expect(parse({ JOBS_POLL_INTERVAL_MS: '99', JOBS_WORKER_ENABLED: 'maybe' }, parseRuntime).problems).to.deep.equal([
      'JOBS_WORKER_ENABLED must be true or false',
      'JOBS_POLL_INTERVAL_MS must be a whole number from 100 to 3600000',
    ]);
  });

  it('the CLI login\'s poll interval: RFC 8628\'s 5 s by default, 1 to 60', () => {
    expect(loadConfig(VALID).cliLogin).to.deep.equal({ pollIntervalSeconds: 5 });
    expect(parse({ CLI_LOGIN_POLL_INTERVAL_SECONDS: '1' }, parseRuntime).value.cliLogin).to.deep.equal({ pollIntervalSeconds: 1 });
    expect(problems({ ...VALID, CLI_LOGIN_POLL_INTERVAL_SECONDS: '0' })).to.deep.equal(['CLI_LOGIN_POLL_INTERVAL_SECONDS must be a whole number from 1 to 60']);
  });

  it('LOG_LEVEL: info by default, one of pino\'s levels', () => {
    expect(parse({}, parseLogLevel)).to.deep.equal({ value: 'info', problems: [] });
    expect(parse({ LOG_LEVEL: 'verbose' }, parseLogLevel).problems).to.deep.equal(['LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent']);
  });

  it('TEST_HOOKS only when NODE_ENV is test', () => {
    expect(parse({ TEST_HOOKS: 'true' }, (r) => parseTestHooks(r, 'test'))).to.deep.equal({ value: true, problems: [] });
    expect(parse({ TEST_HOOKS: 'true' }, (r) => parseTestHooks(r, 'production')).problems).to.deep.equal(['TEST_HOOKS is refused unless NODE_ENV is test']);
    expect(loadConfig(VALID).testHooks).to.equal(false);
  });
});
