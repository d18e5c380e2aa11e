/**
 * Drill-through in the browser (issue 33): a tile opens the facts it was computed from in a panel
 * whose URL can be shared. Values from test/web/seed.ts, worked out by hand there: in 2026-01..03
 * Alpha's acme/api has 5 finished production deployments, d2 failed (status failure) and recovered
 * by d3 6 h later. Paging: 53 more successful production deployments in 2026-05 (one an hour).
 */
import { seriousAxe } from './axe.js';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { buildTenant, type BuiltTenant } from '../helpers/factories.js';
import { serverAndBrowser, text, until, memberPage, factRows } from './browser.js';
import { SCOPE, SEED_ENV, seedTenant, type Seeded } from './seed.js';

describe('web app: drill-through from the tiles (Chromium)', function () {
  this.timeout(120_000);
  const suite = serverAndBrowser({ env: SEED_ENV });
  let tenant: BuiltTenant;
  let seeded: Seeded;

  before(async function () {
    this.timeout(120_000);
    tenant = await buildTenant(suite.server.databaseUrl, 'Drill Org');
    seeded = await seedTenant(suite.server, tenant.owner.apiKey, tenant.tenantId);
    const api = suite.server.as(tenant.owner.apiKey);
    for (let i = 0; i < 53; i += 1) {
      const r = await api.post('/api/webhooks/v1/deployments', { projectKey: 'acme/api', externalId: `m${String(i).padStart(2, '0')}`, ref: 'main', sha: 'f'.repeat(40), environment: 'production', status: 'success', createdAt: new Date(Date.UTC(2026, 4, 1, i)).toISOString() });
      expect(r.status).to.equal(201);
    }
  });

  const personPage = (viewport?: { width: number; height: number }) => memberPage(suite, tenant.tenantId, viewport);

  const rows = factRows;

  it('the change failure rate tile opens its deployments, the failed one marked with why; Esc closes; the shared URL opens it again', async () => {
    const page = await personPage();
    await page.goto(`/app/?${SCOPE}`);
    await until(() => text(page, 'change-failure-rate-value'), '20% · n = 5');
    await page.getByRole('link', { name: 'List the facts behind Change failure rate' }).click();
    const panel = page.getByRole('dialog', { name: 'Change failure rate: the facts' });
    await panel.waitFor();
    expect(new URL(page.url()).searchParams.get('drill')).to.equal('deployments.change_failure_rate');
    await until(() => text(page, 'facts-count'), '5 deployments · 1 failed');
    const seen = await rows(page);
    // The columns that explain the rate first: failed, why, created, recovery time, sha, project.
    expect(seen.map((r) => [r[0], r[1], r[2]])).to.deep.equal([
      ['no', '–', '2026-03-02 12:00'],
      ['no', '–', '2026-03-01 12:00'],
      ['no', '–', '2026-02-05 06:00'],
      ['yes', 'failed: status failure; recovered by d3 after 6 h', '2026-02-05 00:00'],
      ['no', '–', '2026-01-10 00:00'],
    ]);
    // Focus is inside the panel.
    expect(await page.evaluate(() => !!document.activeElement?.closest('dialog'))).to.equal(true);
    const axe = await seriousAxe(page).include('dialog').analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).to.deep.equal([]);
    const shared = page.url();

    await page.keyboard.press('Escape');
    await until(() => panel.count(), 0);
    expect(new URL(page.url()).searchParams.get('drill')).to.equal(null);

    await page.goto(shared);
    await page.getByRole('dialog', { name: 'Change failure rate: the facts' }).waitFor();
    await until(() => text(page, 'facts-count'), '5 deployments · 1 failed');
    expect(await page.evaluate(() => !!document.activeElement?.closest('dialog'))).to.equal(true);
  });

  it('pages 50 at a time, the page in the URL; the CSV link names the same list', async () => {
    const page = await personPage();
    await page.goto('/app/?from=2026-05&to=2026-05&drill=deployments.production_deploys');
    const panel = page.getByRole('dialog', { name: 'Deployment frequency: the facts' });
    await panel.waitFor();
    await until(() => text(page, 'facts-count'), '53 deployments');
    expect(await panel.getByText('Page 1 of 2').count()).to.equal(1);
    expect((await rows(page)).length).to.equal(50);
    await panel.getByRole('button', { name: 'Next' }).click();
    await until(async () => (await rows(page)).map((r) => r[0]), ['2026-05-01 02:00', '2026-05-01 01:00', '2026-05-01 00:00']);
    expect(new URL(page.url()).searchParams.get('dpage')).to.equal('2');
    expect(await panel.getByText('Page 2 of 2').count()).to.equal(1);
    const href = await panel.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    expect(href).to.equal('/api/facts?measure=deployments.production_deploys&from=2026-05&to=2026-05&format=csv');
    const csv = await page.request.get(href!);
    expect(csv.status()).to.equal(200);
    expect((await csv.text()).trim().split('\n')).to.have.length(54);
  });

  it("a cell of the Team page's months opens that month's facts of the team", async () => {
    const page = await personPage();
    await page.goto(`/app/teams/${seeded.teams.alpha}?${SCOPE}`);
    await page.locator('a[title="List the facts behind Change failure rate, 2026-02"]').click();
    const panel = page.getByRole('dialog', { name: 'Change failure rate: the facts' });
    await panel.waitFor();
    await until(() => text(page, 'facts-count'), '2 deployments · 1 failed');
    expect((await rows(page)).map((r) => [r[2], r[1]])).to.deep.equal([['2026-02-05 06:00', '–'], ['2026-02-05 00:00', 'failed: status failure; recovered by d3 after 6 h']]);
    expect(Object.fromEntries(new URL(page.url()).searchParams)).to.deep.include({ drill: 'deployments.change_failure_rate', dmonth: '2026-02' });
    await panel.getByRole('button', { name: 'Close' }).click();
    await until(() => panel.count(), 0);
    // Focus goes back to the number it was opened from.
    expect(await page.evaluate(() => [document.activeElement?.textContent, document.activeElement?.getAttribute('title')])).to.deep.equal(['50%', 'List the facts behind Change failure rate, 2026-02']);
  });

  it("a team's cell of Flow's table opens that team's pull requests, AI-assisted ones said why", async () => {
    const page = await personPage();
    await page.goto(`/app/flow?${SCOPE}`);
    await page.locator('a[title="List the facts behind PRs merged, Alpha"]').click();
    const panel = page.getByRole('dialog', { name: 'PRs merged: the facts' });
    await panel.waitFor();
    await until(() => text(page, 'facts-count'), '3 pull requests');
    // cycle time, title, author, merged; the rest (repository, number, AI-assisted and why) in each row's details.
    expect(await rows(page)).to.deep.equal([
      ['18.0', 'change', 'ann', '2026-03-02 00:00'],
      ['24.0', 'change', 'ann', '2026-03-01 00:00'],
      ['24.0', 'change', 'ann', '2026-01-09 00:00'],
    ]);
    expect(await panel.getByRole('columnheader', { name: 'Cycle time (h)' }).count()).to.equal(1);
    await panel.getByRole('button', { name: 'Show details' }).first().click();
    const detail = await panel.locator('tr.fact-detail').innerText();
    expect(detail).to.match(/AI evidence\s+label ai-assisted/);
    expect(detail).to.match(/Repository\s+acme\/api/);
    expect(await panel.getByRole('link', { name: 'change' }).first().getAttribute('href')).to.equal('https://github.com/acme/api/pull/3');
    expect(new URL(page.url()).searchParams.get('dteam')).to.equal(seeded.teams.alpha);
  });

  it('fits a 390 px wide screen: the panel takes the width and scrolls, the page does not', async () => {
    const page = await personPage({ width: 390, height: 844 });
    await page.goto(`/app/?${SCOPE}&drill=deployments.change_failure_rate`);
    await page.getByRole('dialog').waitFor();
    await until(() => text(page, 'facts-count'), '5 deployments · 1 failed');
    const box = await page.getByRole('dialog').boundingBox();
    expect(box!.width).to.be.at.most(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390);
    // Scrolled to the list's far end, down and sideways, Close is still on the screen (issue 46 point 5).
    await page.getByRole('dialog').evaluate((d) => d.scrollTo(d.scrollWidth, d.scrollHeight));
    await until(() => page.getByRole('dialog').evaluate((d) => d.scrollTop + d.clientHeight >= d.scrollHeight - 1 && d.scrollLeft + d.clientWidth >= d.scrollWidth - 1), true);
    const close = await page.getByRole('button', { name: 'Close' }).boundingBox();
    expect([close!.x >= 0, close!.x + close!.width <= 390, close!.y >= 0, close!.y + close!.height <= 844]).to.deep.equal([true, true, true, true]);
    await page.getByRole('button', { name: 'Close' }).click({ trial: true });
    await page.getByRole('button', { name: 'Close' }).click();
    await until(() => page.getByRole('dialog').count(), 0);
  });

  it('a list to act on at 1366 px: its columns fit, filter to the failed, sort by a header, short shas with the full one in the details, p50 and p90', async () => {
    const page = await personPage({ width: 1366, height: 768 });
    await page.goto(`/app/teams/${seeded.teams.alpha}?${SCOPE}&drill=deployments.change_failure_rate`);
    const panel = page.getByRole('dialog', { name: 'Change failure rate: the facts · Alpha, Jan 2026 – Mar 2026' });
    await panel.waitFor();
    await until(() => text(page, 'facts-count'), '5 deployments · 1 failed');
    // No sideways scrolling: the columns that explain the number fit the panel.
    expect(await panel.evaluate((d) => d.scrollWidth <= d.clientWidth)).to.equal(true);
    expect(await panel.locator('thead th').allInnerTexts()).to.deep.equal(['Details', 'Failed', 'Why it counts', 'Created', 'Recovery time (h)', 'Sha', 'Project']);
    await panel.getByLabel('Only the 1 failed').check();
    await until(async () => (await rows(page)).map((r) => r[0]), ['yes']);
    expect(await panel.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).to.include('marked=true');
    await panel.getByLabel('Only the 1 failed').uncheck();
    await until(async () => (await rows(page)).length, 5);
    // Sorted by a header (on the server, over every page): created, oldest first on the second click.
    const created = panel.getByRole('columnheader', { name: 'Created' });
    await created.getByRole('button').click();
    await until(() => created.getAttribute('aria-sort'), 'descending');
    await created.getByRole('button').click();
    await until(() => created.getAttribute('aria-sort'), 'ascending');
    await until(async () => (await rows(page)).map((r) => r[2]), ['2026-01-10 00:00', '2026-02-05 00:00', '2026-02-05 06:00', '2026-03-01 12:00', '2026-03-02 12:00']);
    // A sha is 7 characters; its row's details hold the full one and the external id.
    const shas = (await rows(page)).map((r) => r[4]);
    expect(shas.every((v) => v?.length === 7)).to.equal(true);
    await panel.getByRole('button', { name: 'Show details' }).nth(1).click();
    const detail = await panel.locator('tr.fact-detail').innerText();
    expect(detail).to.match(/External id\s+d2/);
    expect(detail).to.include(shas[1]!);
    expect(detail).to.match(new RegExp(`Sha\\s+${shas[1]}[0-9a-f]{33}`));
    await page.keyboard.press('Escape');
    // A median's list: its 50th and 90th percentiles beside the count.
    await page.goto(`/app/teams/${seeded.teams.alpha}?${SCOPE}&drill=deployments.failed_deployment_recovery_time_p50_seconds`);
    await until(() => text(page, 'facts-percentiles'), 'recovery time: 50th percentile (median) 6.0 h · 90th percentile 6.0 h · n = 1');
  });
});
