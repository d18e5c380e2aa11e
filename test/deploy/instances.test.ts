/**
 * The deployment's central claim, without a container engine: three `serve` processes on one
 * database behind a round-robin balancer with no affinity behave as one service. Each instance
 * answers /health naming itself, and a login session works whichever instance gets the request.
 */
import { hostname } from 'node:os';
import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { freePort } from '../../src/dev.js';
import { freshDatabase } from '../helpers/database.js';
import { baseEnv } from '../helpers/server.js';
import { spawnServe } from '../helpers/cli.js';
import { buildSessionCookie, buildTenant, closeFactoryPools } from '../helpers/factories.js';
import { roundRobinProxy, type RoundRobin } from './roundRobin.js';

describe('three instances behind a round-robin balancer', function () {
  this.timeout(60_000);
  let proxy: RoundRobin;
  let databaseUrl: string;
  const instances: { child: ChildProcess; port: number }[] = [];

  before(async () => {
    databaseUrl = await freshDatabase();
    const ports = [await freePort(), await freePort(), await freePort()];
    const started = await Promise.all(ports.map((port) => spawnServe(baseEnv(databaseUrl, port))));
    started.forEach(({ child }, i) => instances.push({ child, port: ports[i] as number }));
    proxy = await roundRobinProxy(ports.map((port) => ({ host: '127.0.0.1', port })));
  });

  after(async () => {
    await proxy?.close();
    await Promise.all(
      instances.map(({ child }) => new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      })),
    );
    await closeFactoryPools();
  });

  it('answers /health from each instance, each naming itself in X-Served-By', async () => {
    const names: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${proxy.url}/health`);
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ status: 'ok' });
      names.push(res.headers.get('x-served-by') as string);
    }
    const expected = instances.map(({ child }) => `${hostname()}/${child.pid}`);
    // Round robin with no affinity: 1, 2, 3, 1, 2, 3.
    expect(names).to.deep.equal([...expected, ...expected]);
    expect(new Set(names).size).to.equal(3);
  });

  it('a login session works on every instance: a key made through one is listed by the other two', async () => {
    const tenant = await buildTenant(databaseUrl);
    const cookie = await buildSessionCookie(databaseUrl, tenant.owner.userId, tenant.tenantId);
    const start = proxy.served.length;

    const made = await fetch(`${proxy.url}/api/keys`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'made through one instance' }),
    });
    expect(made.status).to.equal(201);
    const { data: key } = (await made.json()) as { data: { id: string; name: string } };

    const seen: string[][] = [];
    const remaining: number[] = [Number(made.headers.get('ratelimit-remaining'))];
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${proxy.url}/api/keys`, { headers: { cookie } });
      expect(res.status).to.equal(200);
      seen.push(((await res.json()) as { data: { id: string }[] }).data.map((k) => k.id));
      remaining.push(Number(res.headers.get('ratelimit-remaining')));
    }
    // Three requests, three different instances.
    expect(new Set(proxy.served.slice(start))).to.have.lengthOf(3);
    for (const ids of seen) expect(ids).to.include(key.id);
    // The general-API allowance is one counter in the database, not one per instance.
    const first = remaining[0] as number;
    expect(remaining).to.deep.equal([first, first - 1, first - 2]);
  });

  it('without the cookie every instance refuses the same request', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${proxy.url}/api/keys`);
      expect(res.status).to.equal(401);
    }
  });
});
