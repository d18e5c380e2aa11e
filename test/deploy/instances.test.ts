/**
 * The deployment's central claim, without a container engine: three `serve` processes on one
 * database behind a round-robin balancer with no affinity behave as one service. Each instance
 * answers /health naming itself, and a login session works whichever instance gets the request.
 */
import { hostname } from 'node:os';
import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { freshDatabase } from '../helpers/database.js';
import { baseEnv } from '../helpers/server.js';
import { spawnServeOnFreePort } from '../helpers/cli.js';
import { buildTenant, closeFactoryPools } from '../helpers/factories.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import { roundRobinProxy, type RoundRobin } from './roundRobin.js';

describe('three instances behind a round-robin balancer', function () {
  // Three tsx processes compiling the server at once: about 10 s idle, 30 s on a busy 2-core machine.
  this.timeout(180_000);
  let proxy: RoundRobin;
  let databaseUrl: string;
  const instances: { child: ChildProcess; port: number; output: () => string }[] = [];

  before(async () => {
    databaseUrl = await freshDatabase();
    const started = await Promise.all([1, 2, 3].map(() => spawnServeOnFreePort((port) => baseEnv(databaseUrl, port))));
    started.forEach(({ child, output, port }) => instances.push({ child, output, port }));
    proxy = await roundRobinProxy(instances.map(({ port }) => ({ host: '127.0.0.1', port })));
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

  it('a login session made on one instance works on the others', async () => {
    const tenant = await buildTenant(databaseUrl);
    const viaProxy = (path: string, init: RequestInit = {}) => fetch(`${proxy.url}${path}`, { redirect: 'manual', ...init });

    // Sign-in link requested through one instance (no mailer configured: that instance logs it)…
    const asked = await viaProxy('/auth/email', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: tenant.owner.email }) });
    expect(asked.status).to.equal(202);
    const asker = proxy.served.at(-1) as number;
    const logged = (i: number) => instances[i]!.output().split('\n').filter((l) => l.includes(tenant.owner.email) && l.includes('sign-in link'));
    // The link is sent (here: logged) after the answer, so give the asker's log a moment under load.
    for (let waited = 0; logged(asker).length === 0 && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    expect([0, 1, 2].map((i) => logged(i).length)).to.deep.equal([0, 1, 2].map((i) => (i === asker ? 1 : 0)));
    const link = new URL(JSON.parse(logged(asker)[0] as string).link);

    // …opened through the next one, which creates the session and sets the cookie…
    const opened = await viaProxy(`${link.pathname}${link.search}`);
    expect(opened.status).to.equal(303);
    expect(proxy.served.at(-1)).to.equal((asker + 1) % 3);
    const setCookie = opened.headers.getSetCookie().find((c) => c.startsWith('sessionId='));
    const cookie = (setCookie as string).split(';')[0] as string;

    // …and used on every instance, including a write through one that the others then see.
    const before = proxy.served.length;
    const made = await viaProxy('/api/keys', { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'made through one instance' }) });
    expect(made.status).to.equal(201);
    const { data: key } = (await made.json()) as { data: { id: string } };
    const remaining = [Number(made.headers.get('ratelimit-remaining'))];
    for (let i = 0; i < 2; i++) {
      const keys = await viaProxy('/api/keys', { headers: { cookie } });
      expect(keys.status).to.equal(200);
      expect(((await keys.json()) as { data: { id: string }[] }).data.map((k) => k.id)).to.include(key.id);
      remaining.push(Number(keys.headers.get('ratelimit-remaining')));
    }
    for (let i = 0; i < 3; i++) {
      const me = await viaProxy('/api/users/me', { headers: { cookie } });
      expect(me.status).to.equal(200);
      expect(((await me.json()) as { data: { user: { id: string } } }).data.user.id).to.equal(tenant.owner.userId);
    }
    // Six requests, two on each instance.
    expect(proxy.served.slice(before).sort()).to.deep.equal([0, 0, 1, 1, 2, 2]);
    // The general-API allowance is one counter in the database, not one per instance.
    const first = remaining[0] as number;
    expect(remaining).to.deep.equal([first, first - 1, first - 2]);
  });

  it('without the cookie every instance refuses the same request', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${proxy.url}/api/keys`);
      expectRefusal({ status: res.status, body: await res.json() }, 401, apiError('unauthorized', 'Missing or invalid credentials'));
    }
  });
});
