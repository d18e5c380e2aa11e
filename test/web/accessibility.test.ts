import { expect } from 'chai';
import { seriousAxe } from './axe.js';
import type { Browser, Locator, Page } from 'playwright-core';
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
    const visited: string[] = [];
    // Each page: its path, its h1 (the sign that it, not the page before it, is drawn) and how a
    // person gets there. Two tabs walk, one the app's pages and one settings, each loading its
    // first page and following the app's links from there: while one waits for the server the
    // other runs axe, and axe's source is evaluated once per tab, not once per page.
    type Step = [path: string, h1: string, open: Locator | null];
    const menu = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
    const settingsMenu = (page: Page, name: string) => page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name, exact: true });
    const app = (page: Page): Step[] => [
      ['/app/', 'Overview: DORA measures', null],
      ['/app/teams', 'Teams', menu(page, 'Teams')],
      [`/app/teams/${seeded.teams.alpha}`, 'Team Alpha', page.getByRole('main').getByRole('link', { name: 'Alpha', exact: true })],
      ['/app/flow', 'Flow', menu(page, 'Flow')],
      ['/app/open-work', 'Open work', menu(page, 'Open work')],
      ['/app/ai', 'AI adoption', menu(page, 'AI adoption')],
      ['/app/ai/sessions', 'AI sessions', page.getByRole('link', { name: 'The sessions', exact: true })],
      ['/app/ai-impact', 'AI impact', menu(page, 'AI impact')],
      ['/app/notebook', 'Notebook', menu(page, 'Notebook')],
      ['/app/perception', 'Perception', menu(page, 'Perception')],
      ['/app/downloads', 'Downloads for finance', menu(page, 'Downloads')],
    ];
    const settings = (page: Page): Step[] => [
      // Help has no link of the app's own: loaded, then settings by the menus.
      ['/app/help', 'Getting data in', null],
      ['/app/settings/keys', 'API keys', menu(page, 'Settings')],
      ...([['members', 'Members'], ['import', 'Register and seats'], ['teams', 'Teams']] as const).map(([p, name]): Step => [`/app/settings/${p}`, name, settingsMenu(page, name)]),
      [`/app/settings/teams/${seeded.teams.alpha}`, 'Alpha', page.locator('.settings-page').getByRole('link', { name: 'Alpha', exact: true })],
      ...([['people', 'People'], ['surveys', 'Surveys'], ['integrations', 'Integrations'], ['organisation', 'Organisation'], ['account', 'Account']] as const).map(([p, name]): Step => [`/app/settings/${p}`, name, settingsMenu(page, name)]),
    ];
    const walk = async (steps: (page: Page) => Step[]) => {
      const page = await context.newPage();
      for (const [path, h1, open] of steps(page)) {
        if (open) await open.click();
        else await page.goto(`${path}?${SCOPE}`);
        await until(async () => new URL(page.url()).pathname, path);
        await page.getByRole('heading', { level: 1, name: h1, exact: true }).waitFor();
        await until(async () => (await page.locator('[aria-busy="true"]').count()) === 0 && (await page.getByText('…', { exact: true }).count()) === 0, true, 30_000).catch((error: Error) => {
          throw new Error(`${path}: ${error.message}`);
        });
        // The window came along (the menus keep it), so each page shows the seeded data.
        expect(new URL(page.url()).search, path).to.equal(`?${SCOPE}`);
        visited.push(path);
        const result = await seriousAxe(page).analyze();
        for (const v of result.violations) {
          if (v.impact === 'serious' || v.impact === 'critical') found.push(`${path}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
        }
      }
    };
    await Promise.all([walk(app), walk(settings)]);
    const every = ['/app/', '/app/teams', `/app/teams/${seeded.teams.alpha}`, '/app/flow', '/app/open-work', '/app/ai', '/app/ai-impact', '/app/ai/sessions', '/app/notebook', '/app/perception', '/app/downloads', '/app/help', ...['keys', 'members', 'import', 'teams', `teams/${seeded.teams.alpha}`, 'people', 'surveys', 'integrations', 'organisation', 'account'].map((p) => `/app/settings/${p}`)];
    expect([...visited].sort()).to.deep.equal([...every].sort());
    expect(found).to.deep.equal([]);
    await context.close();
  });
});
