/**
 * The AI impact page (issue 47 point 3; docs/ai-impact.md) over the hand-worked team of
 * test/aiImpact/seed.ts: a table per measure with both sides' values and n, the difference with
 * its interval or "not enough data", before/after the adoption month, and a value opening its list.
 */
import { expect } from 'chai';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { seedAiImpact, type AiSeed } from '../aiImpact/seed.js';
import { memberPage, screenshot, serverAndBrowser, text, until } from './browser.js';

describe('web app: AI impact (Chromium)', function () {
  this.timeout(120_000);
  const suite = serverAndBrowser();
  let tenant: BuiltTenant;
  let seed: AiSeed;

  before(async () => {
    tenant = await buildTenant(suite.server.databaseUrl, 'Impact Org');
    seed = await seedAiImpact(dbFor(suite.server.databaseUrl).pool, tenant.tenantId);
  });

  it('shows each measure AI-assisted against not with n and the interval, before/after, and opens the list', async () => {
    const page = await memberPage(suite, tenant.tenantId);
    await page.goto(`/app/ai-impact?from=2026-03&to=2026-03&team=${seed.teamId}`);
    const cycle = page.getByTestId('ai-impact-cycle_time');
    await cycle.waitFor();
    const cells = (side: string) => cycle.locator(`tr[data-side="${side}"] td`).allInnerTexts();
    expect(await cells('ai')).to.deep.equal(['11.5 h', '20']);
    expect(await cells('other')).to.deep.equal(['13.5 h', '20']);
    expect(await text(page, 'ai-impact-cycle_time-difference')).to.equal('−2.0 h (90 % interval −7.0 h to +3.0 h, bootstrap)');
    expect(await text(page, 'ai-impact-merged_without_review-difference')).to.match(/^\+10 pp \(90 % interval −8\.4 pp to \+28\.4 pp, normal\)$/);
    expect(await text(page, 'ai-impact-deploy_time-difference')).to.equal('Not enough data (fewer than 20 PRs on a side)');
    expect(await text(page, 'adoption-month')).to.contain('Adoption month Mar 2026: 2 of 4 people used AI.');
    expect(await page.getByTestId('before-after-cycle_time').locator('tr[data-side="before"] td').allInnerTexts()).to.deep.equal(['10.0 h', '5']);
    // Nav entry, and no person anywhere on the page.
    expect(await page.getByRole('link', { name: 'AI impact' }).count()).to.equal(1);
    // A value opens its side's PRs.
    await cycle.locator('tr[data-side="ai"] a').click();
    await page.getByRole('dialog', { name: 'PR cycle time: the facts' }).waitFor();
    await until(() => text(page, 'facts-count'), '20 pull requests');
    expect(new URL(page.url()).searchParams.get('dsplit')).to.equal('ai');
  });

  it('gives each measure per AI attribution level and the shipping deployments\' change failure rate, a level opening its own PRs', async () => {
    const page = await memberPage(suite, tenant.tenantId);
    await page.goto(`/app/ai-impact?from=2026-03&to=2026-03&team=${seed.teamId}`);
    const levels = page.getByTestId('ai-impact-cycle_time-levels');
    await levels.waitFor();
    const row = (level: string) => levels.locator(`tr[data-level="${level}"]`).allInnerTexts();
    expect(await Promise.all(['high', 'medium', 'low', 'none'].map(row))).to.deep.equal([['High\tNo value\t0'], ['Medium\t11.5 h\t20'], ['Low\tNo value\t0'], ['None\t13.5 h\t20']]);
    const cfr = page.getByTestId('ai-impact-change_failure_rate');
    expect(await cfr.locator('tr[data-side="ai"] td').allInnerTexts()).to.deep.equal(['30%', '10']);
    expect(await cfr.locator('tr[data-side="other"] td').allInnerTexts()).to.deep.equal(['10%', '20']);
    expect(await text(page, 'ai-impact-change_failure_rate-difference')).to.equal('Not enough data (fewer than 20 deployments on a side)');
    await screenshot(page, 'ai-impact-levels');
    await levels.locator('tr[data-level="medium"] a').click();
    await page.getByRole('dialog', { name: 'PR cycle time: the facts' }).waitFor();
    await until(() => text(page, 'facts-count'), '20 pull requests');
    expect(new URL(page.url()).searchParams.get('dsplit')).to.equal('medium');
  });

  it('asks for the comparison as the nav link is hovered, and shows that answer on the click without asking again', async () => {
    const page = await memberPage(suite, tenant.tenantId);
    await page.goto(`/app/flow?from=2026-03&to=2026-03&team=${seed.teamId}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const asked: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname === '/api/ai-impact') asked.push(url.search);
    });
    const link = page.getByRole('link', { name: 'AI impact' });
    const prefetched = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/ai-impact');
    await link.hover();
    expect((await prefetched).status()).to.equal(200);
    expect(asked).to.deep.equal([`?from=2026-03&to=2026-03&team=${seed.teamId}&levels=omit`]);
    await link.click();
    await page.getByTestId('ai-impact-cycle_time').waitFor();
    expect(await page.getByTestId('ai-impact-cycle_time').locator('tr[data-side="ai"] td').allInnerTexts()).to.deep.equal(['11.5 h', '20']);
    expect(asked).to.have.length(1);
  });
});
