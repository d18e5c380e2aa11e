/**
 * Issue 33 point 5, "Charts that do not mislead", and point 1 for chart points: axes from zero,
 * gaps for months without data and "Data from", month to date and the last 30/90 days, a tooltip
 * with value and n on every point, each point opening its month's facts. The browser's clock is
 * fixed at 2026-03-15 12:00 UTC, so that March 2026 is the current month. Values from
 * test/web/seed.ts, worked out by hand:
 *
 * - Production deployments of acme/api (Alpha): d0 2025-11-01, d1 01-10, d2 02-05 failure, d3 02-05
 *   06:00, d4 03-01 12:00, d5 03-02 12:00. By month: Nov 2025 1, Dec none, Jan 1, Feb 1 (d2 is a
 *   failure, not a successful deployment), Mar 2. Change failure rate: Jan 0 % n 1, Feb 50 % n 2
 *   (d2 of d2, d3), Mar 0 % n 2.
 * - Lead time for changes by deployment month: Jan 48 h (n 1), Mar p50 of 36 h and 30 h = 33 h (n 2).
 * - PRs merged: Jan 1 (#1), Mar 2 (#2 03-01, #3 03-02).
 * - Last 30 days at 2026-03-15: 2026-02-14..03-15: d4, d5 (2 deployments, none failed, CFR 0 % n 2),
 *   lead time p50 33 h n 2, incident closed 03-05 after 3 h (n 1). The 30 days before
 *   (01-15..02-13): d2, d3: CFR 50 % n 2. Last 90 days (2025-12-16..03-15): d1–d5 finished, d2 failed: 4 successful,
 *   CFR 20 % n 5.
 */
import { seriousAxe } from './axe.js';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { buildTenant, type BuiltTenant } from '../helpers/factories.js';
import { screenshot, serverAndBrowser, text, until, memberPage } from './browser.js';
import { SEED_ENV, seedTenant, type Seeded } from './seed.js';

const NOW = new Date('2026-03-15T12:00:00Z');

describe('web app: charts that do not mislead (Chromium)', function () {
  this.timeout(120_000);
  const suite = serverAndBrowser({ env: SEED_ENV });
  let tenant: BuiltTenant;
  let seeded: Seeded;

  before(async function () {
    this.timeout(120_000);
    tenant = await buildTenant(suite.server.databaseUrl, 'Charts Org');
    seeded = await seedTenant(suite.server, tenant.owner.apiKey, tenant.tenantId);
  });

  // A person of their own per page (each has 100 API requests a minute), the clock at NOW.
  const personPage = (viewport?: { width: number; height: number }) => memberPage(suite, tenant.tenantId, viewport, (page) => page.clock.setFixedTime(NOW));

  const tableOf = async (page: Page, chart: string) => {
    const figure = page.getByTestId(chart);
    await figure.getByRole('button', { name: 'Show as table' }).click();
    const rows = (await figure.locator('tbody tr').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
    await figure.getByRole('button', { name: 'Show as table' }).click();
    await figure.locator('.chart-point').first().waitFor();
    return rows;
  };
  const tip = (page: Page) => page.getByTestId('chart-tip').innerText().then((t) => t.replace(/\s+/g, ' ').trim());
  const axe = async (page: Page) => (await seriousAxe(page).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`);

  it('Overview: a window ending this month marks it month to date; axes start at zero; empty months are gaps; "Data from"', async () => {
    const page = await personPage();
    await page.goto('/app/?from=2025-10&to=2026-03');
    await until(() => text(page, 'deployment-frequency-count'), '5');
    expect(await text(page, 'scope-partial')).to.equal('Mar 2026 is month to date');
    await page.getByTestId('deployment-frequency-trend').locator('.chart-point').first().waitFor();
    expect(await text(page, 'deployment-frequency-trend-note')).to.equal('Data from Nov 2025. Mar 2026: 1–15 Mar only (dashed).');
    expect(await text(page, 'lead-time-trend-note')).to.equal('Data from Jan 2026. Mar 2026: 1–15 Mar only (dashed).');
    expect(await tableOf(page, 'deployment-frequency-trend')).to.deep.equal([
      'Oct 2025 No production deployment in Oct 2025.', 'Nov 2025 1', 'Dec 2025 No production deployment in Dec 2025.', 'Jan 2026 1', 'Feb 2026 1', 'Mar 2026 (1–15 Mar) 2',
    ]);
    // A month without data has no point (the line is broken there, spanGaps off); the others do.
    expect(await page.getByTestId('deployment-frequency-trend').locator('.chart-point').evaluateAll((els) => els.map((e) => e.getAttribute('data-month')))).to.deep.equal(['2025-11', '2026-01', '2026-02', '2026-03']);
    // On the canvas: between Nov and Jan (both 1) no line at the height of 1; between Jan and Feb
    // (both 1) the line is there (the chart's blue, not a grey grid line).
    const lineAt = (a: string, b: string) => page.evaluate(([from, to]) => {
      const fig = document.querySelector('[data-testid="deployment-frequency-trend"]')!;
      const canvas = fig.querySelector('canvas')!;
      const box = canvas.getBoundingClientRect();
      // (No named function in here: the test runner's transform would refer to a helper the page lacks.)
      const [x0, x1] = [from, to].map((m) => fig.querySelector(`.chart-point[data-month="${m}"]`)!.getBoundingClientRect()).map((r) => r.left + r.width / 2) as [number, number];
      const dot = fig.querySelector(`.chart-point[data-month="${from}"] .chart-dot`)!.getBoundingClientRect();
      const x = x0 + (x1 - x0) / 4;
      const scale = canvas.width / box.width;
      const [r, , b, alpha] = canvas.getContext('2d')!.getImageData(Math.round((x - box.left) * scale), Math.round((dot.top + dot.height / 2 - box.top) * scale), 1, 1).data;
      return alpha! > 0 && b! > 150 && r! < 120;
    }, [a, b]);
    expect(await lineAt('2025-11', '2026-01')).to.equal(false);
    expect(await lineAt('2026-01', '2026-02')).to.equal(true);
    // 48 h and 33 h: the axis still starts at zero, for durations and counts alike.
    for (const chart of ['lead-time-trend', 'deployment-frequency-trend', 'change-failure-rate-trend']) {
      expect(await page.getByTestId(chart).locator('.chart').getAttribute('data-y-min'), chart).to.equal('0');
    }
    // Hover: the month's value and n.
    await page.getByTestId('change-failure-rate-trend').locator('.chart-point[data-month="2026-02"]').hover();
    await until(() => tip(page), 'Feb 2026 50% · n = 2 Click or Enter: list the facts');
    await page.getByTestId('lead-time-trend').locator('.chart-point[data-month="2026-03"]').hover();
    await until(() => tip(page), 'Mar 2026 (1–15 Mar) 33.0 h · n = 2 Click or Enter: list the facts');
    expect(await axe(page)).to.deep.equal([]);
    await screenshot(page, 'charts-overview');
  });

  it('Overview by keyboard: one tab stop per chart, arrows move, Enter opens the partial month\'s facts, focus comes back', async () => {
    const page = await personPage();
    await page.goto('/app/?from=2026-01&to=2026-03');
    const chart = page.getByTestId('change-failure-rate-trend');
    await chart.locator('.chart-point').first().waitFor();
    await chart.getByRole('button', { name: 'Show as table' }).focus();
    await page.keyboard.press('Tab');
    await until(() => tip(page), 'Jan 2026 0% · n = 1 Click or Enter: list the facts');
    await page.keyboard.press('ArrowRight');
    await until(() => tip(page), 'Feb 2026 50% · n = 2 Click or Enter: list the facts');
    await page.keyboard.press('ArrowRight');
    await until(() => tip(page), 'Mar 2026 (1–15 Mar) 0% · n = 2 Click or Enter: list the facts');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).to.equal('Mar 2026 (1–15 Mar): 0%, n = 2. List the facts');
    // Only the month last focused is in the tab order.
    expect(await chart.locator('.chart-point[tabindex="0"]').getAttribute('data-month')).to.equal('2026-03');
    await page.keyboard.press('Enter');
    const panel = page.getByRole('dialog', { name: 'Change failure rate: the facts' });
    await panel.waitFor();
    await until(() => text(page, 'facts-count'), '2 deployments · 0 failed');
    expect(Object.fromEntries(new URL(page.url()).searchParams)).to.deep.include({ drill: 'deployments.change_failure_rate', dfrom: '2026-03-01', dto: '2026-03-15' });
    expect(await panel.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).to.equal('/api/facts?measure=deployments.change_failure_rate&from=2026-03-01&to=2026-03-15&format=csv');
    await page.keyboard.press('Escape');
    await until(() => panel.count(), 0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-month'))).to.equal('2026-03');
  });

  it('the last 30 and 90 days: tiles, partial months, the previous 30 days, the facts of the days, all in the address', async () => {
    const page = await personPage();
    await page.goto('/app/?from=2026-01&to=2026-02');
    await until(() => text(page, 'deployment-frequency-count'), '2');
    await page.getByLabel('Window', { exact: true }).selectOption({ label: 'Last 30 days' });
    await until(() => text(page, 'scope-days'), '14 Feb 2026 to 15 Mar 2026');
    expect(new URL(page.url()).searchParams.get('days')).to.equal('30');
    await until(() => text(page, 'change-failure-rate-value'), '0% · n = 2');
    expect(await text(page, 'deployment-frequency-count')).to.equal('2');
    expect(await text(page, 'lead-time-value')).to.equal('33.0 h · n = 2');
    expect(await text(page, 'time-to-restore-value')).to.equal('3.0 h · n = 1');
    await until(() => text(page, 'change-failure-rate-previous'), 'Previous window: 50% · n = 2 · down (better)');
    await page.getByTestId('deployment-frequency-trend').locator('.chart-point').first().waitFor();
    expect(await text(page, 'deployment-frequency-trend-note')).to.equal('Data from Mar 2026. Feb 2026: 14–28 Feb only (dashed). Mar 2026: 1–15 Mar only (dashed).');
    expect(await tableOf(page, 'deployment-frequency-trend')).to.deep.equal(['Feb 2026 (14–28 Feb) No production deployment from 14 Feb 2026 to 28 Feb 2026.', 'Mar 2026 (1–15 Mar) 2']);
    // The tile's facts are the window's days.
    await page.getByRole('link', { name: 'List the facts behind Change failure rate' }).click();
    const panel = page.getByRole('dialog', { name: 'Change failure rate: the facts' });
    await until(() => text(page, 'facts-count'), '2 deployments · 0 failed');
    expect(await panel.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).to.equal('/api/facts?measure=deployments.change_failure_rate&from=2026-02-14&to=2026-03-15&format=csv');
    await panel.getByRole('button', { name: 'Close' }).click();
    await until(() => panel.count(), 0);
    // A shared address opens the same window.
    await page.reload();
    await until(() => text(page, 'scope-days'), '14 Feb 2026 to 15 Mar 2026');
    await page.getByLabel('Window', { exact: true }).selectOption({ label: 'Last 90 days' });
    await until(() => text(page, 'change-failure-rate-value'), '20% · n = 5');
    expect(await text(page, 'scope-days')).to.equal('16 Dec 2025 to 15 Mar 2026');
    expect(await text(page, 'deployment-frequency-count')).to.equal('4');
    // The Teams page's link to a team keeps the days: the team's page counts the same 90 days.
    await page.goto('/app/teams?days=90');
    await page.getByRole('link', { name: 'Alpha', exact: true }).click();
    await until(() => text(page, 'scope-days'), '16 Dec 2025 to 15 Mar 2026');
    expect(new URL(page.url()).searchParams.get('days')).to.equal('90');
    await page.goto('/app/?days=90');
    await until(() => text(page, 'change-failure-rate-value'), '20% · n = 5');
    // Back to whole months: the months the days touched, no `days` in the address.
    await page.getByLabel('Window', { exact: true }).selectOption({ label: 'Months' });
    await until(() => page.getByLabel('From', { exact: true }).inputValue(), '2025-12');
    expect(new URL(page.url()).searchParams.has('days')).to.equal(false);
    expect(await page.getByLabel('To', { exact: true }).inputValue()).to.equal('2026-03');
    expect(await axe(page)).to.deep.equal([]);
  });

  it("Flow and Team: a point opens that month's facts; the Team page's charts read the cube with n", async () => {
    const page = await personPage();
    await page.goto('/app/flow?from=2026-01&to=2026-02');
    await page.getByTestId('flow-prs').getByRole('link', { name: 'Jan 2026: 1. List the facts' }).click();
    await until(() => text(page, 'facts-count'), '1 pull request');
    expect(new URL(page.url()).searchParams.get('dmonth')).to.equal('2026-01');
    expect(await page.getByRole('dialog', { name: 'PRs merged: the facts' }).count()).to.equal(1);
    await page.keyboard.press('Escape');
    expect(await axe(page)).to.deep.equal([]);

    await page.goto(`/app/teams/${seeded.teams.alpha}?from=2026-01&to=2026-02`);
    const cfr = page.getByTestId('team-change_failure_rate');
    await cfr.locator('.chart-point').first().waitFor();
    expect(await tableOf(page, 'team-change_failure_rate')).to.deep.equal(['Jan 2026 0% 1', 'Feb 2026 50% 2']);
    await cfr.locator('.chart-point[data-month="2026-02"]').hover();
    await until(() => tip(page), 'Feb 2026 50% · n = 2 Click or Enter: list the facts');
    await cfr.getByRole('link', { name: 'Feb 2026: 50%, n = 2. List the facts' }).click();
    await until(() => text(page, 'facts-count'), '2 deployments · 1 failed');
    expect(Object.fromEntries(new URL(page.url()).searchParams)).to.deep.include({ drill: 'deployments.change_failure_rate', dmonth: '2026-02' });
    await page.keyboard.press('Escape');
    expect(await axe(page)).to.deep.equal([]);
  });

  it('fits a 390 px screen: charts, points and tooltip inside the page; a tap opens the facts', async () => {
    const page = await personPage({ width: 390, height: 844 });
    await page.goto('/app/?from=2025-04&to=2026-03');
    const chart = page.getByTestId('change-failure-rate-trend');
    await chart.locator('.chart-point').first().waitFor();
    const box = (await chart.boundingBox())!;
    for (const p of await chart.locator('.chart-point').all()) {
      const b = (await p.boundingBox())!;
      expect(b.x >= box.x && b.x + b.width <= box.x + box.width, 'point inside the chart').to.equal(true);
    }
    await chart.locator('.chart-point[data-month="2026-03"]').hover();
    await until(() => tip(page), 'Mar 2026 (1–15 Mar) 0% · n = 2 Click or Enter: list the facts');
    const t = (await page.getByTestId('chart-tip').boundingBox())!;
    expect(t.x >= 0 && t.x + t.width <= 390).to.equal(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390);
    await chart.locator('.chart-point[data-month="2026-02"]').click();
    await until(() => text(page, 'facts-count'), '2 deployments · 1 failed');
    expect(await axe(page)).to.deep.equal([]);
    await screenshot(page, 'charts-390');
  });
});
