/**
 * The Overview page shows the team's open-source percentile, labelled as a proxy and with the corpus
 * it ranks among (measured from the public history of N repositories, read on a date; synthetic for
 * an example corpus), beside the DORA band; the help page lists the shipped corpus's repositories (Chromium).
 */
import { expect } from 'chai';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { loadShippedSnapshot } from '../../src/benchmarks/store.js';
import { ensureWebBuilt } from '../../src/webBuild.js';
import { buildSessionCookie, buildTenant, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { launch, screenshot, signedIn, text, until } from '../web/browser.js';
import { SCOPE, SEED_ENV, seedTenant, type Seeded } from '../web/seed.js';
import { seedCorpus } from './helpers.js';

describe('web app: the open-source benchmark on the Overview (Chromium)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let browser: Browser;
  let tenant: BuiltTenant;
  let seeded: Seeded;
  let page: Page;

  before(async () => {
    ensureWebBuilt(() => {});
    server = await testServer({ env: SEED_ENV });
    tenant = await buildTenant(server.databaseUrl, 'Acme');
    seeded = await seedTenant(server, tenant.owner.apiKey, tenant.tenantId);
    await seedCorpus(server.databaseUrl);
    browser = await launch();
    page = await (await signedIn(browser, server.baseUrl, await buildSessionCookie(server.databaseUrl, tenant.owner.userId, tenant.tenantId))).newPage();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it("shows the window's last month, its percentile among open-source repository months and the DORA band, labelled as a proxy", async () => {
    await page.goto(`/app/?${SCOPE}&team=${seeded.teams.alpha}`);
    // The file's first page: a new server's first cube queries (its models compiled on first use)
    // took over 10 s in a full run at load 14, so this wait allows 30.
    await until(() => text(page, 'oss-release_frequency-percentile'), '63rd percentile of 4 repository months · open-source proxy', 30_000);
    expect(await text(page, 'oss-proxy-title')).to.equal('Open-source benchmark (open-source proxy)');
    expect(await text(page, 'oss-proxy-note')).to.equal(
      'Mar 2026: this team ranked among the repository months of the open-source corpus measured from the public history of 2 repositories, read on 2025-03-01. ' +
        'Releases stand for production deployments (lead time runs from a commit to the first release tag holding it) and a release followed within 7 days by a patch release or a revert for a failed deployment: a proxy, not a like-for-like comparison (public history holds no deployment and no incident).',
    );
    expect(await page.locator('[data-testid="oss-proxy"] caption').textContent()).to.equal(
      'Percentile among open-source repositories (open-source proxy, measured from the public history of 2 repositories, read on 2025-03-01) for Mar 2026',
    );
    expect(await page.getByTestId('oss-proxy-example').count()).to.equal(0);
    const row = async (key: string) => [await text(page, `oss-${key}-value`), await text(page, `oss-${key}-percentile`), await text(page, `oss-${key}-tier`)];
    expect(await row('pr_cycle_time')).to.deep.equal(['21.0 h', '50th percentile of 3 repository months · open-source proxy', '—']);
    expect(await row('prs_per_author')).to.deep.equal(['2', '83rd percentile of 3 repository months · open-source proxy', '—']);
    expect(await row('release_frequency')).to.deep.equal(['2', '63rd percentile of 4 repository months · open-source proxy', 'medium']);
    // Lead time: alpha's March 33 h (36 h and 30 h) among 3, 1 and 7 days: 2 of 3 slower.
    expect(await row('lead_time')).to.deep.equal(['33.0 h', '67th percentile of 3 repository months · open-source proxy', 'high']);
    expect(await row('change_failure')).to.deep.equal(['0%', '83rd percentile of 3 repository months · open-source proxy', 'elite']);
    expect(await page.locator('[data-testid="oss-proxy"] tbody th').allTextContents()).to.deep.equal([
      'PR cycle time p50', 'PRs merged per active author', 'Release frequency (production deployments a month)', 'Lead time for changes p50 (commit to release tag)', 'Change failure rate per deployment vs share of releases followed by a patch release or revert within 7 days',
    ]);
    await screenshot(page, 'overview-open-source');
  });

  it('with the shipped snapshot, lead time for changes and change failure rank among its 204 repository months with a release', async () => {
    const admin = new pg.Client({ connectionString: server.databaseUrl });
    await admin.connect();
    try {
      expect(await loadShippedSnapshot(admin)).to.equal('loaded');
      await page.goto(`/app/?${SCOPE}&team=${seeded.teams.alpha}`);
      // 33 h: 151 of the snapshot's 204 lead times are slower, none equal → 74.
      await until(() => text(page, 'oss-lead_time-percentile'), '74th percentile of 204 repository months · open-source proxy');
      expect(await text(page, 'oss-lead_time-value')).to.equal('33.0 h');
      expect(await text(page, 'oss-lead_time-tier')).to.equal('high');
      // Change failure per release, re-measured: 0 % among the 204 months with a release, 108 worse and 96 equal → 76.5.
      expect(await text(page, 'oss-change_failure-percentile')).to.equal('76th percentile of 204 repository months · open-source proxy');
      expect(await text(page, 'oss-change_failure-value')).to.equal('0%');
      expect(await page.locator('[data-testid="oss-proxy"] caption').textContent()).to.equal(
        'Percentile among open-source repositories (open-source proxy, measured from the public history of 28 repositories, read on 2026-11-27) for Mar 2026',
      );
      await screenshot(page, 'overview-open-source-shipped');
    } finally {
      await admin.end();
      await seedCorpus(server.databaseUrl, 'live');
    }
  });

  it('the help page lists the repositories the shipped corpus was measured from, and when they were read', async () => {
    await page.goto('/app/help');
    await until(() => page.getByTestId('help-corpus-repositories').locator('li').count(), 28);
    expect(await text(page, 'help-corpus-summary')).to.match(/^The open-source percentiles rank among repository months measured from the public history of 28 repositories, read on 2026-11-27 \(2025-08 to 2026-07\): /);
    const items = await page.getByTestId('help-corpus-repositories').locator('li').allTextContents();
    expect(await text(page, 'help-corpus-summary')).to.include(': release tags for deployments, a commit to the first release tag holding it for lead time for changes, for change failure, the share of releases followed within 7 days by a patch release or a revert');
    expect(items).to.include.members(['fastify/fastify', 'pytest-dev/pytest', 'prometheus/prometheus', 'tokio-rs/tokio']);
    expect(items).not.to.include.members(['rails/rails']);
    expect(await text(page, 'help-corpus-left-out')).to.include('laravel/framework (more than 60 PR authors in a month), pallets/flask (not active), rails/rails (more than 60 PR authors in a month)');
  });

  it('while the corpus is a synthetic example, the section and every percentile say it is synthetic', async () => {
    await seedCorpus(server.databaseUrl, 'snapshot');
    try {
      await page.goto(`/app/?${SCOPE}&team=${seeded.teams.alpha}`);
      await until(() => text(page, 'oss-release_frequency-percentile'), '63rd percentile of 4 repository months · open-source proxy · example corpus (synthetic)');
      expect(await text(page, 'oss-proxy-example')).to.equal(
        'Example corpus shipped with the server (synthetic repositories): its percentiles are illustrative, not measured. Set CODEHOST_PUBLIC_TOKEN to measure real open-source repositories.',
      );
      expect(await text(page, 'oss-proxy-note')).to.match(/^Mar 2026: this team ranked among the repository months of the example corpus \(synthetic\)\. /);
      expect(await text(page, 'oss-pr_cycle_time-percentile')).to.equal('50th percentile of 3 repository months · open-source proxy · example corpus (synthetic)');
      expect(await text(page, 'oss-prs_per_author-percentile')).to.equal('83rd percentile of 3 repository months · open-source proxy · example corpus (synthetic)');
      expect(await text(page, 'oss-change_failure-percentile')).to.equal('83rd percentile of 3 repository months · open-source proxy · example corpus (synthetic)');
      expect(await text(page, 'oss-lead_time-percentile')).to.equal('67th percentile of 3 repository months · open-source proxy · example corpus (synthetic)');
      await screenshot(page, 'overview-open-source-example');
    } finally {
      await seedCorpus(server.databaseUrl, 'live');
    }
  });

  it('a team without a deployment source has no release or change failure percentile, and says why', async () => {
    await page.goto(`/app/?${SCOPE}&team=${seeded.teams.beta}`);
    await until(() => text(page, 'oss-release_frequency-value'), 'no deployment source');
    expect(await text(page, 'oss-release_frequency-percentile')).to.equal('no percentile');
    expect(await text(page, 'oss-change_failure-value')).to.equal('no deployment source');
    expect(await text(page, 'oss-lead_time-value')).to.equal('no deployment source');
    expect(await text(page, 'oss-lead_time-percentile')).to.equal('no percentile');
    expect(await text(page, 'oss-pr_cycle_time-value')).to.equal('no value');
  });
});
