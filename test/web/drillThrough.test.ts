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
    // project, environment, externalId, sha, status, created, failed, why.
    expect(seen.map((r) => [r[2], r[4], r[5], r[6], r[7]])).to.deep.equal([
      ['d5', 'success', '2026-03-02 12:00', 'no', '–'],
      ['d4', 'success', '2026-03-01 12:00', 'no', '–'],
      ['d3', 'success', '2026-02-05 06:00', 'no', '–'],
      ['d2', 'failure', '2026-02-05 00:00', 'yes', 'failed: status failure; recovered by d3 after 6 h'],
      ['d1', 'success', '2026-01-10 00:00', 'no', '–'],
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
    await until(async () => (await rows(page)).map((r) => r[2]), ['m02', 'm01', 'm00']);
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
    expect((await rows(page)).map((r) => [r[2], r[7]])).to.deep.equal([['d3', '–'], ['d2', 'failed: status failure; recovered by d3 after 6 h']]);
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
    // repository, number, title, author, opened, merged, cycle time, AI-assisted, because.
    expect((await rows(page)).map((r) => [r[0], r[1], r[5], r[6], r[7], r[8]])).to.deep.equal([
      ['acme/api', '3', '2026-03-02 00:00', '18.0 h', 'yes', 'label ai-assisted'],
      ['acme/api', '2', '2026-03-01 00:00', '24.0 h', 'no', '–'],
      ['acme/api', '1', '2026-01-09 00:00', '24.0 h', 'no', '–'],
    ]);
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
    await page.getByRole('button', { name: 'Close' }).click();
    await until(() => page.getByRole('dialog').count(), 0);
  });
});
