/** The Overview page shows the team's open-source percentile, labelled as a proxy (and as synthetic while the corpus is the shipped example), beside the DORA band (Chromium). */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
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
    await until(() => text(page, 'oss-release_frequency-percentile'), '63rd percentile of 4 repository months · open-source proxy');
    expect(await text(page, 'oss-proxy-title')).to.equal('Open-source benchmark (open-source proxy)');
    expect(await text(page, 'oss-proxy-note')).to.match(/^Mar 2026: this team ranked among the repository months of sampled open-source repositories\. .*a proxy, not a like-for-like comparison\.$/);
    expect(await page.getByTestId('oss-proxy-example').count()).to.equal(0);
    const row = async (key: string) => [await text(page, `oss-${key}-value`), await text(page, `oss-${key}-percentile`), await text(page, `oss-${key}-tier`)];
    expect(await row('pr_cycle_time')).to.deep.equal(['21.0 h', '50th percentile of 3 repository months · open-source proxy', '—']);
    expect(await row('prs_per_author')).to.deep.equal(['2', '83rd percentile of 3 repository months · open-source proxy', '—']);
    expect(await row('release_frequency')).to.deep.equal(['2', '63rd percentile of 4 repository months · open-source proxy', 'medium']);
    expect(await row('change_failure')).to.deep.equal(['0%', '67th percentile of 3 repository months · open-source proxy', 'elite']);
    await screenshot(page, 'overview-open-source');
  });

  it('while the corpus is the example shipped with the server, the section and every percentile say it is synthetic', async () => {
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
      expect(await text(page, 'oss-change_failure-percentile')).to.equal('67th percentile of 3 repository months · open-source proxy · example corpus (synthetic)');
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
    expect(await text(page, 'oss-pr_cycle_time-value')).to.equal('no value');
  });
});
