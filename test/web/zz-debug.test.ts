import { buildTenant, buildSessionCookie } from '../helpers/factories.js';
import { testServer } from '../helpers/server.js';
import { seedTenant, SCOPE } from './seed.js';
import { launch, signedIn, screenshot } from './browser.js';
describe('debug', function () {
  this.timeout(60000);
  it('pages', async () => {
    const server = await testServer();
    const t = await buildTenant(server.databaseUrl);
    await seedTenant(server, t.owner.apiKey, t.tenantId);
    const b = await launch();
    const ctx = await signedIn(b, server.baseUrl, await buildSessionCookie(server.databaseUrl, t.owner.userId, t.tenantId));
    const p = await ctx.newPage();
    p.on('console', (m) => console.log('console', m.type(), m.text().slice(0, 300)));
    p.on('pageerror', (e) => console.log('pageerror', e.message.slice(0, 300)));
    p.on('response', (r) => { if (r.status() >= 400) console.log('resp', r.status(), r.url().slice(0, 200)); });
    for (const path of ['/app/teams']) {
      await p.goto(`${path}?${SCOPE}`);
      await new Promise((r) => setTimeout(r, 3000));
      await screenshot(p, `dbg${path.replace(/\//g, '-')}`);
      console.log((await p.locator('main').innerText()).slice(0, 500));
    }
    await b.close();
    await server.close();
  });
});
