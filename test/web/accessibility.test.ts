import { expect } from 'chai';
import { seriousAxe } from './axe.js';
import type { Browser } from 'playwright-core';
import { ensureWebBuilt } from '../../src/webBuild.js';
import { buildSessionCookie, buildTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { launch, signedIn, until } from './browser.js';
import { SCOPE, SEED_ENV, seedTenant } from './seed.js';

/** axe-core's rules on every page, with data and empty: no serious or critical violation. */
describe('web app: accessibility rules (axe, Chromium)', function () {
  this.timeout(90_000);
  let server: TestServer;
  let browser: Browser;

  before(async function () {
    this.timeout(120_000);
    ensureWebBuilt(() => {});
    server = await testServer({ env: SEED_ENV });
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('finds no serious or critical violation on any page', async function () {
    this.timeout(240_000);
    const tenant = await buildTenant(server.databaseUrl);
    const seeded = await seedTenant(server, tenant.owner.apiKey, tenant.tenantId);
    const context = await signedIn(browser, server.baseUrl, await buildSessionCookie(server.databaseUrl, tenant.owner.userId, tenant.tenantId));
    const found: string[] = [];
    const settings = ['keys', 'members', 'import', 'teams', `teams/${seeded.teams.alpha}`, 'people', 'surveys', 'integrations', 'organisation', 'account'].map((p) => `/app/settings/${p}`);
    const paths = ['/app/', '/app/teams', `/app/teams/${seeded.teams.alpha}`, '/app/flow', '/app/open-work', '/app/ai', '/app/ai-impact', '/app/ai/sessions', '/app/notebook', '/app/perception', '/app/downloads', '/app/help', ...settings];
    // Two tabs walk the pages, one taking each next page: while one waits for the server the other
    // runs axe (the walk took 33 s in one tab, a good part of the suite's time).
    let next = 0;
    const walk = async () => {
      const page = await context.newPage();
      for (let path = paths[next++]; path !== undefined; path = paths[next++]) {
        await page.goto(`${path}?${SCOPE}`);
        await until(async () => (await page.locator('[aria-busy="true"]').count()) === 0 && (await page.getByText('…', { exact: true }).count()) === 0, true, 30_000).catch((error: Error) => {
          throw new Error(`${path}: ${error.message}`);
        });
        const result = await seriousAxe(page).analyze();
        for (const v of result.violations) {
          if (v.impact === 'serious' || v.impact === 'critical') found.push(`${path}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
        }
      }
    };
    await Promise.all([walk(), walk()]);
    expect(next).to.be.greaterThan(paths.length);
    expect(found).to.deep.equal([]);
    await context.close();
  });
});
