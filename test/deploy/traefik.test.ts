/**
 * The load balancer's configuration, checked by parsing: the requirements any proxy in front of
 * the servers must meet (websocket upgrade, read timeout above 30 s, compression) and no affinity.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { composeModel, readYaml, ROOT } from './composeModel.js';

const REQUIRED = { APP_URL: 'https://a.example.com', OAUTH_ENCRYPTION_KEY: 'ab'.repeat(32), S3_SECRET_ACCESS_KEY: 'cd'.repeat(24) };

/** Seconds of a Traefik duration: `120s`, `2m`, `1m30s`, or a bare number of seconds. */
function seconds(value: unknown): number {
  if (typeof value === 'number') return value;
  const text = String(value);
  if (/^\d+$/.test(text)) return Number(text);
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s)/g)];
  expect(parts.map((p) => p[0]).join(''), `duration ${text}`).to.equal(text);
  return parts.reduce((sum, [, n, unit]) => sum + Number(n) * { h: 3600, m: 60, s: 1, ms: 0.001 }[unit as 'h' | 'm' | 's' | 'ms'], 0);
}

/** Every key path in a tree, dotted, for "nothing anywhere says X" checks. */
function keyPaths(node: unknown, prefix = ''): string[] {
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) => [`${prefix}${k}`, ...keyPaths(v, `${prefix}${k}.`)]);
}

describe('Traefik configuration', () => {
  const staticConfig = readYaml('traefik/traefik.yml');
  const dynamic = readYaml('traefik/dynamic.yml');
  const model = composeModel(['compose.yaml'], REQUIRED);
  const traefik = model.services.traefik!;
  const labels = model.services.server!.labels as Record<string, string>;
  const router = 'traefik.http.routers.delivery-analytics';
  const service = 'traefik.http.services.delivery-analytics';

  it('mounts this folder as its configuration and reads the containers read-only', () => {
    expect(traefik.image).to.match(/^traefik:v3\.\d+/);
    expect(traefik.volumes).to.deep.equal(['./traefik:/etc/traefik:ro', '/var/run/docker.sock:/var/run/docker.sock:ro']);
    expect(traefik.command).to.deep.equal(['--configFile=/etc/traefik/traefik.yml']);
    expect(staticConfig.providers.file.filename).to.equal('/etc/traefik/dynamic.yml');
  });

  it('serves the published port on the `web` entry point and routes every path to the server replicas', () => {
    expect(traefik.ports).to.deep.equal(['3000:80']);
    expect(staticConfig.entryPoints.web.address).to.equal(':80');
    expect(labels['traefik.enable']).to.equal('true');
    expect(labels[`${router}.rule`]).to.equal('PathPrefix(`/`)');
    expect(labels[`${router}.entrypoints`]).to.equal('web');
    expect(labels[`${router}.service`]).to.equal('delivery-analytics');
    expect(labels[`${service}.loadbalancer.server.port`]).to.equal('3000');
    expect(model.services.server!.environment.PORT).to.equal('3000');
    expect(labels[`${service}.loadbalancer.healthcheck.path`]).to.equal('/health');
    // Only labelled containers of this stack: never the database, the store or the jobs.
    expect(staticConfig.providers.docker.exposedByDefault).to.equal(false);
    expect(staticConfig.providers.docker.constraints).to.equal('Label(`delivery-analytics.role`,`server`)');
    expect(labels['delivery-analytics.role']).to.equal('server');
    const others = Object.entries(model.services).filter(([name]) => name !== 'server');
    expect(others.map(([name]) => name)).to.have.members(['migrate', 'objstore', 'objstore-bucket', 'postgres', 'traefik']);
    for (const [name, s] of others) expect(s.labels, name).to.equal(undefined);
  });

  it('keeps the read timeout above the 30 s websocket ping interval', () => {
    const timeouts = staticConfig.entryPoints.web.transport.respondingTimeouts;
    expect(seconds(timeouts.readTimeout)).to.be.greaterThan(30);
    // An idle timeout (keep-alive between requests) below the ping interval would cut sockets too.
    expect(seconds(timeouts.idleTimeout)).to.be.greaterThan(30);
    if (timeouts.writeTimeout !== undefined) expect(seconds(timeouts.writeTimeout)).to.satisfy((s: number) => s === 0 || s > 30);
  });

  it('drops idle connections to the servers before Node does (5 s keep-alive), so no request lands on a closing socket', () => {
    expect(seconds(staticConfig.serversTransport.forwardingTimeouts.idleConnTimeout)).to.be.lessThan(5);
  });

  it('compresses text responses with gzip on the router', () => {
    expect(labels[`${router}.middlewares`]).to.equal('compress@file,security-headers@file');
    const compress = dynamic.http.middlewares.compress.compress;
    expect(compress.encodings[0]).to.equal('gzip');
    expect(compress.minResponseBodyBytes).to.equal(1024);
    // Text is never excluded (and there is no include list that could leave some out).
    expect(compress.includedContentTypes).to.equal(undefined);
    for (const type of compress.excludedContentTypes ?? []) expect(type).not.to.match(/^(text\/(html|css|plain|csv|javascript)|application\/(json|javascript))$/);
  });

  it('forwards websocket upgrades: nothing on the route touches Connection or Upgrade or buffers the body', () => {
    // Traefik forwards upgrades by default; these are the ways a configuration breaks it.
    const used = labels[`${router}.middlewares`]!.split(',').map((m) => m.replace(/@file$/, ''));
    for (const name of used) {
      const middleware = dynamic.http.middlewares[name];
      expect(middleware, name).to.be.an('object');
      expect(Object.keys(middleware).join()).to.be.oneOf(['compress', 'headers']);
      // Headers: only the dedicated security fields, none that rewrites request or response headers.
      if (middleware.headers) expect(Object.keys(middleware.headers)).to.have.members(['contentTypeNosniff', 'stsSeconds', 'stsIncludeSubdomains', 'forceSTSHeader']);
    }
    expect(staticConfig.entryPoints.web.http?.middlewares).to.equal(undefined);
    const everything = [...keyPaths(staticConfig), ...keyPaths(dynamic), ...Object.keys(labels)].join('\n');
    expect(everything).not.to.match(/buffering|customRequestHeaders|customResponseHeaders|passHostHeader/i);
  });

  it('has no sticky sessions anywhere: requests spread over the replicas with no affinity', () => {
    const everything = [...keyPaths(staticConfig), ...keyPaths(dynamic), ...Object.entries(labels).map(([k, v]) => `${k}=${v}`)].join('\n');
    expect(everything).not.to.match(/sticky|cookie|affinity/i);
    expect(readFileSync(join(ROOT, 'traefik/dynamic.yml'), 'utf8')).not.to.match(/sticky/i);
  });

  it('publishes no dashboard or API and has a container healthcheck on an unpublished ping entry point', () => {
    expect(staticConfig.api).to.equal(undefined);
    expect(staticConfig.ping.entryPoint).to.equal('ping');
    expect(Object.keys(staticConfig.entryPoints).sort()).to.deep.equal(['bi', 'cube', 'cube-sql', 'ping', 'web']);
    expect(traefik.healthcheck.test).to.deep.equal(['CMD', 'traefik', 'healthcheck', '--ping']);
  });

  it('routes the `bi` entry point (PostgreSQL STARTTLS, TLS terminated) to BI_UPSTREAM, published as BI_PORT', () => {
    expect(staticConfig.entryPoints.bi).to.deep.equal({ address: ':5432' });
    expect(dynamic.tcp.routers.bi).to.deep.equal({ entryPoints: ['bi'], rule: 'HostSNI(`*`)', service: 'bi-database', tls: {} });
    // The file is a Go template for Traefik: the upstream is the container's BI_UPSTREAM.
    const servers = dynamic.tcp.services['bi-database'].loadBalancer.servers;
    expect(servers).to.deep.equal([{ address: '{{ env "BI_UPSTREAM" }}' }]);
    const env = composeModel(['compose.yaml', 'deploy/bi.yaml'], { ...REQUIRED, BI_PORT: '15432' }).services.traefik!;
    expect(env.environment.BI_UPSTREAM).to.equal('postgres:5432');
    expect(env.ports).to.include(`15432${staticConfig.entryPoints.bi.address}`);
    // TLS is terminated (no passthrough), so the database sees the plain protocol from Traefik's address.
    expect(JSON.stringify(dynamic.tcp)).not.to.match(/passthrough/);
  });

  it('sends Strict-Transport-Security when APP_URL is https, forced (TLS ends in front of Traefik), and nosniff', () => {
    const headers = dynamic.http.middlewares['security-headers'].headers;
    expect(headers).to.deep.include({ contentTypeNosniff: true, stsIncludeSubdomains: true, forceSTSHeader: true });
    // The file is a Go template for Traefik (sprig's hasPrefix): a year when APP_URL is https, else 0 (no header).
    expect(headers.stsSeconds).to.equal('{{ if hasPrefix "https://" (env "APP_URL") }}31536000{{ else }}0{{ end }}');
    expect(traefik.environment.APP_URL).to.equal(REQUIRED.APP_URL);
    expect(labels[`${router}.middlewares`]!.split(',')).to.include('security-headers@file');
    expect(dynamic.http.routers.cube.middlewares).to.deep.equal(['security-headers']);
  });
});
