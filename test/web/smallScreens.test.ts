import { seriousAxe } from './axe.js';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { buildMember, buildSessionCookie, buildTenant, type BuiltTenant } from '../helpers/factories.js';
import { personTab, screenshot, serverAndBrowserWithBilling, until } from './browser.js';
import { SCOPE, SEED_ENV, seedTenant, type Seeded } from './seed.js';

const PHONE = { width: 390, height: 844 };

/** Issue 38, point 7: settings fit a phone, chart labels never overlap, the scatter names its teams, the Teams sort is in the URL. */
describe('web app: small screens and charts (Chromium)', function () {
  this.timeout(120_000);
  // Billing on, so that its settings page is one of those measured.
  const suite = serverAndBrowserWithBilling(SEED_ENV);
  let tenant: BuiltTenant;
  let seeded: Seeded;

  before(async function () {
    this.timeout(120_000);
    tenant = await buildTenant(suite.server.databaseUrl, 'Small Screens Org');
    seeded = await seedTenant(suite.server, tenant.owner.apiKey, tenant.tenantId);
  });

  // An owner of its own per page: each person has 100 API requests a minute, and the pages of one
  // test would otherwise wait out 429s of the tests before it. The file's one tab (personTab).
  async function ownerPage(viewport = PHONE): Promise<Page> {
    const owner = await buildMember(suite.server.databaseUrl, tenant.tenantId, 'owner');
    const page = await personTab(suite, await buildSessionCookie(suite.server.databaseUrl, owner.userId, tenant.tenantId));
    await page.setViewportSize(viewport);
    return page;
  }

  /** Waits for the page's final content: an h1, no skeleton, no "…". */
  async function settled(page: Page): Promise<void> {
    await page.getByRole('heading', { level: 1 }).waitFor();
    await until(async () => (await page.locator('[aria-busy="true"]').count()) === 0 && (await page.getByText('…', { exact: true }).count()) === 0, true);
  }

  it('every settings page fits a 390 px wide screen (no sideways scrolling) and passes axe there', async () => {
    const page = await ownerPage();
    // Each page and the link that opens it (its h1 is the link's name; a team's page, the team's
    // name): one load, then the app's own links, as a person moves through settings (Billing's
    // link loads its document itself, for its Content-Security-Policy).
    const pages: [string, string][] = [['keys', 'API keys'], ['members', 'Members'], ['import', 'Register and seats'], ['teams', 'Teams'], [`teams/${seeded.teams.alpha}`, 'Alpha'], ['people', 'People'], ['surveys', 'Surveys'], ['integrations', 'Integrations'], ['organisation', 'Organisation'], ['account', 'Account'], ['bi', 'BI access'], ['billing', 'Billing'], ['ai', 'AI']];
    const wide: string[] = [];
    await page.goto(`/app/settings/keys?${SCOPE}`);
    for (const [p, name] of pages) {
      if (p !== 'keys') {
        const links = p.startsWith('teams/') ? page.locator('.settings-page') : page.getByRole('navigation', { name: 'Settings' });
        await links.getByRole('link', { name, exact: true }).click();
      }
      await until(async () => new URL(page.url()).pathname, `/app/settings/${p}`);
      await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
      await settled(page);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      // Names the elements that reach past the screen's edge, for whoever reads a failure.
      const past = await page.evaluate((edge) => {
        return [...document.querySelectorAll('body *')]
          .filter((e) => {
            if (e.getBoundingClientRect().right <= edge + 0.5) return false;
            for (let p = e.parentElement; p; p = p.parentElement) if (getComputedStyle(p).overflowX !== 'visible') return false;
            return true;
          }).slice(0, 4).map((e) => `${e.tagName.toLowerCase()}.${e.className}`).join(' ');
      }, PHONE.width);
      if (width > PHONE.width) wide.push(`${p}: ${width} px (${past})`);
      // A table that now scrolls in its panel must still be reachable by keyboard (axe: scrollable-region-focusable).
      for (const v of (await seriousAxe(page).analyze()).violations) {
        if (v.impact === 'serious' || v.impact === 'critical') wide.push(`${p}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).slice(0, 2).join(', ')}`);
      }
      await screenshot(page, `phone-settings-${p.replace(/\//g, '-').replace(/-[0-9a-f-]{36}$/, '-one')}`);
    }
    expect(wide).to.deep.equal([]);
  });

  // Issue 46 point 5: the facts panel is wider than a phone; scrolled to its far right and bottom, its Close stays on the screen and answers.
  it('at 390 px the facts panel\'s Close stays on the screen wherever the panel is scrolled, and closes it', async () => {
    // A short screen, so that the seed's three rows make the panel scroll.
    const page = await ownerPage({ width: PHONE.width, height: 420 });
    await page.goto(`/app/?${SCOPE}&drill=pull_requests.prs_merged`);
    const panel = page.getByTestId('facts-panel');
    await panel.getByTestId('facts-count').waitFor();
    await until(async () => (await panel.locator('tbody tr').count()) > 0, true);
    const close = panel.getByRole('button', { name: 'Close', exact: true });
    /** Where Close is, and whether it is what a tap at its centre reaches. */
    const reachable = () => close.evaluate((button) => {
      const r = button.getBoundingClientRect();
      const onScreen = r.left >= 0 && r.top >= 0 && r.right <= window.innerWidth && r.bottom <= window.innerHeight;
      return onScreen && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === button;
    });
    // The list is taller than the screen: the panel scrolls (sideways too, should a column not wrap).
    expect(await panel.evaluate((d) => d.scrollHeight > d.clientHeight)).to.equal(true);
    const scrolled: Record<string, boolean> = {};
    for (const [name, x, y] of [['start', 0, 0], ['right', 1, 0], ['bottom', 0, 1], ['bottom right', 1, 1]] as const) {
      await panel.evaluate((d, to) => d.scrollTo(to.x * d.scrollWidth, to.y * d.scrollHeight), { x, y });
      scrolled[name] = await reachable();
    }
    await screenshot(page, 'phone-facts-panel');
    expect(scrolled).to.deep.equal({ start: true, right: true, bottom: true, 'bottom right': true });
    await close.click();
    await until(() => panel.count(), 0);
    expect(new URL(page.url()).searchParams.has('drill')).to.equal(false);
  });

  /** The bounding boxes of the x-axis labels a person can see on the chart, left to right. */
  async function monthLabels(page: Page, chartId: string) {
    const labels = page.getByTestId(chartId).locator('[data-axis="x"] span');
    await labels.first().waitFor();
    const boxes = await labels.evaluateAll((els) =>
      els
        .filter((e) => getComputedStyle(e).visibility !== 'hidden' && e.textContent !== '')
        .map((e) => {
          const r = e.getBoundingClientRect();
          return { text: e.textContent ?? '', left: r.left, right: r.right };
        }),
    );
    return boxes.sort((a, b) => a.left - b.left);
  }

  for (const viewport of [PHONE, { width: 1280, height: 800 }]) {
    it(`month labels of a 15-month chart never overlap at ${viewport.width} px`, async () => {
      const page = await ownerPage(viewport);
      await page.goto('/app/?from=2025-01&to=2026-03');
      await settled(page);
      const boxes = await monthLabels(page, 'deployment-frequency-trend');
      const chart = await page.getByTestId('deployment-frequency-trend').boundingBox();
      // Labels go from the first month on, thinned evenly, each inside the chart.
      expect(boxes[0]?.text).to.equal('Jan 2025');
      expect(boxes.length).to.be.greaterThan(1);
      const overlaps = boxes.slice(1).filter((b, i) => b.left < (boxes[i] as { right: number }).right).map((b, i) => `${boxes[i]!.text} / ${b.text}`);
      expect(overlaps).to.deep.equal([]);
      for (const b of boxes) expect(b.left >= chart!.x && b.right <= chart!.x + chart!.width, `${b.text} inside the chart`).to.equal(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(viewport.width);
      await screenshot(page, `chart-labels-${viewport.width}`);
    });
  }

  it('the adoption scatter names each team beside its dot and in its accessible label', async () => {
    const page = await ownerPage({ width: 1280, height: 800 });
    await page.goto(`/app/ai?${SCOPE}`);
    await settled(page);
    const scatter = page.locator('figure.scatter');
    await scatter.waitFor();
    // Alpha merged three PRs in the window (one AI-assisted, cycle time p50 24 h); Beta and Empty none.
    expect(await scatter.locator('[data-point]').allTextContents()).to.deep.equal(['Alpha']);
    expect(await scatter.getByRole('img').getAttribute('aria-label')).to.contain('Alpha: AI-assisted PR share 33.3%, PR cycle time p50 24.0 h');
    const violations = (await seriousAxe(page).include('figure.scatter').analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(violations.map((v) => v.id)).to.deep.equal([]);
    await screenshot(page, 'ai-scatter');
  });

  it('the Teams page keeps its sort in the URL: a reload shows the same order and header state', async () => {
    const page = await ownerPage({ width: 1280, height: 800 });
    await page.goto(`/app/teams?${SCOPE}`);
    const table = page.getByRole('table');
    await until(async () => (await table.locator('tbody tr').count()) >= 3, true);
    const order = () => table.locator('tbody tr th').allInnerTexts();
    expect(await order()).to.deep.equal(['Alpha', 'Beta', 'Empty']);
    await page.getByRole('button', { name: 'Team', exact: true }).click();
    await until(() => page.getByRole('columnheader', { name: 'Team', exact: true }).getAttribute('aria-sort'), 'descending');
    await until(async () => new URL(page.url()).searchParams.get('sort') + ' ' + new URL(page.url()).searchParams.get('dir'), 'name desc');
    const sorted = await order();
    expect(sorted.slice(0, 3)).to.deep.equal(['Empty', 'Beta', 'Alpha']);
    expect(new URL(page.url()).searchParams.get('from')).to.equal('2026-01');

    await page.reload();
    await until(async () => (await table.locator('tbody tr').count()) === sorted.length, true);
    expect(await order()).to.deep.equal(sorted);
    expect(await page.getByRole('columnheader', { name: 'Team', exact: true }).getAttribute('aria-sort')).to.equal('descending');

    // The menu's Teams link carries the window, not the sort: the table goes back to its default with the URL.
    await page.getByRole('link', { name: 'Teams', exact: true }).click();
    await until(async () => new URL(page.url()).searchParams.has('sort'), false);
    await until(() => page.getByRole('columnheader', { name: 'Team', exact: true }).getAttribute('aria-sort'), 'ascending');
    expect(await order()).to.deep.equal(['Alpha', 'Beta', 'Empty']);

    // A shared address opens with its sort; a sort the page does not know falls back to the default.
    await page.goto(`/app/teams?${SCOPE}&sort=prs&dir=asc`);
    await until(() => page.getByRole('columnheader', { name: 'PRs merged' }).getAttribute('aria-sort'), 'ascending');
    await page.goto(`/app/teams?${SCOPE}&sort=nope&dir=sideways`);
    await until(() => page.getByRole('columnheader', { name: 'Team', exact: true }).getAttribute('aria-sort'), 'ascending');
    expect(await order()).to.deep.equal(['Alpha', 'Beta', 'Empty']);
  });
});
