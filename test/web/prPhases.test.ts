/**
 * The PR cycle in phases on Flow and Team (issue 47 point 1): a stacked bar per month whose
 * segments, and the table's cells, open the PRs behind each median. Values from test/web/seed.ts:
 * three PRs merged without review or known commit, each shipped by a deployment (Jan: one, Mar:
 * two), so only deploy segments show; Feb has none.
 */
import { expect } from 'chai';
import { buildTenant, type BuiltTenant } from '../helpers/factories.js';
import { serverAndBrowser, text, until, memberPage } from './browser.js';
import { SCOPE, SEED_ENV, seedTenant, type Seeded } from './seed.js';

describe('web app: PR cycle in phases (Chromium)', function () {
  this.timeout(120_000);
  const suite = serverAndBrowser({ env: SEED_ENV });
  let tenant: BuiltTenant;
  let seeded: Seeded;

  before(async function () {
    this.timeout(120_000);
    tenant = await buildTenant(suite.server.databaseUrl, 'Phases Org');
    seeded = await seedTenant(suite.server, tenant.owner.apiKey, tenant.tenantId);
  });

  it('Flow shows a deploy segment per month with a merged PR, which opens its PRs; Team shows the same bar for the team', async () => {
    const page = await memberPage(suite, tenant.tenantId);
    await page.goto(`/app/flow?${SCOPE}`);
    const bars = page.getByTestId('flow-phase-bars');
    await bars.waitFor();
    const segments = () => bars.locator('.phase-segment').evaluateAll((els) => els.map((e) => `${e.closest('[data-month]')?.getAttribute('data-month')}:${e.getAttribute('data-phase')}`));
    await until(segments, ['2026-01:deploy', '2026-03:deploy']);
    const march = bars.locator('[data-month="2026-03"] .phase-segment');
    expect(await march.getAttribute('aria-label')).to.match(/^Deploy time p50, Mar 2026: .+, n = 2\. List the facts$/);
    await march.click();
    await page.getByRole('dialog', { name: 'Deploy time p50: the facts' }).waitFor();
    await until(() => text(page, 'facts-count'), '2 pull requests');
    const url = new URL(page.url());
    expect([url.searchParams.get('drill'), url.searchParams.get('dmonth')]).to.deep.equal(['pull_requests.deploy_time_p50_seconds', '2026-03']);

    await page.goto(`/app/teams/${seeded.teams.alpha}?${SCOPE}`);
    const team = page.getByTestId('team-phase-bars');
    await team.waitFor();
    await until(() => team.locator('.phase-segment').count(), 2);
    // The table's cell opens the same list.
    await team.locator('tbody tr', { hasText: 'Jan 2026' }).locator('td[data-phase="deploy"] a').click();
    await until(() => text(page, 'facts-count'), '1 pull request');
  });
});
