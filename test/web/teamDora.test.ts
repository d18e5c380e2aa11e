/**
 * Each team's DORA bands on the Teams page, the Team page and the Overview (issue 47 point 4), in
 * Chromium on the real server. Values and bands from test/cube/teamDoraSeed.ts (March 2026), worked
 * out there by hand: Alpha high overall (recovery 23 h is high, the rest elite), Beta medium over 2 of
 * 4 measures; the organisation rated by its median project (0.53 a day = 3.7 a week: high), not its
 * total (1.1 a day, which would be elite).
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { buildTenant, type BuiltTenant } from '../helpers/factories.js';
import { codehostEnv } from '../activity/helpers.js';
import { memberPage, serverAndBrowser, text, until } from './browser.js';
import { seedTeamDora, type SeededTeamDora } from '../cube/teamDoraSeed.js';

describe('web app: DORA bands per team (Chromium)', function () {
  this.timeout(120_000);
  const suite = serverAndBrowser({ env: codehostEnv() });
  const SCOPE = 'from=2026-03&to=2026-03';
  let tenant: BuiltTenant;
  let seeded: SeededTeamDora;

  before(async function () {
    this.timeout(120_000);
    tenant = await buildTenant(suite.server.databaseUrl, 'Team DORA web');
    seeded = await seedTeamDora(suite.server, tenant.owner.apiKey, tenant.tenantId);
  });

  const cellOf = (page: Page, team: string, header: string) =>
    page.getByRole('table').first().evaluate((table, [team, header]) => {
      const col = [...table.querySelectorAll('thead th')].findIndex((th) => (th as HTMLElement).innerText.trim() === header);
      const row = [...table.querySelectorAll('tbody tr, tfoot tr')].find((tr) => (tr.querySelector('th') as HTMLElement | null)?.innerText.trim() === team);
      return row ? (row.children[col] as HTMLElement).innerText.split('\n').map((l) => l.trim()).filter(Boolean) : null;
    }, [team, header] as const);

  it('the Teams page: lead time and recovery time beside the other DORA measures, a band under each, and each team\'s overall band', async () => {
    const page = await memberPage(suite, tenant.tenantId);
    await page.goto(`/app/teams?${SCOPE}`);
    await until(() => cellOf(page, 'Alpha', 'DORA band'), ['high', 'over 4 of 4 measures']);
    expect(await cellOf(page, 'Beta', 'DORA band')).to.deep.equal(['medium', 'over 2 of 4 measures']);
    expect(await cellOf(page, 'Organisation', 'DORA band')).to.deep.equal(['high', 'over 4 of 4 measures']);
    expect((await cellOf(page, 'Alpha', 'Lead time for changes p50'))!.slice(0, 2)).to.deep.equal(['12.0 h · n = 3', 'DORA elite']);
    expect((await cellOf(page, 'Alpha', 'Failed deployment recovery p50'))!.slice(0, 2)).to.deep.equal(['23.0 h · n = 1', 'DORA high']);
    expect((await cellOf(page, 'Beta', 'Lead time for changes p50'))![0]).to.equal('no deployed change');
    expect((await cellOf(page, 'Beta', 'Deployment frequency'))!.slice(0, 2)).to.deep.equal(['0.45 per week', 'DORA medium']);
    // The organisation: its total rate shown, its band from the median project, said under it.
    expect((await cellOf(page, 'Organisation', 'Deployment frequency'))!.slice(0, 3)).to.deep.equal(['1.1 per day', 'DORA high', 'median project 3.7 per week · n = 2']);
    expect(await text(page, 'teams-dora-note')).to.include("the organisation's from its median project's rate, not the total");
  });

  it('the Team page: the team\'s DORA measures, each band, and its overall band', async () => {
    const page = await memberPage(suite, tenant.tenantId);
    await page.goto(`/app/teams/${seeded.teams.alpha}?${SCOPE}`);
    await until(() => text(page, 'team-dora-overall-tier'), 'high');
    const rows = await page.getByTestId('team-dora').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => (c as HTMLElement).innerText.replace(/\s+/g, ' ').trim())));
    expect(rows).to.deep.equal([
      ['Deployment frequency', '1.0 per day · 31 deployments', 'elite'],
      ['Lead time for changes', '12.0 h · n = 3', 'elite'],
      ['Change failure rate', '3.1% · n = 32', 'elite'],
      ['Failed deployment recovery time', '23.0 h · n = 1', 'high'],
      ['Time to restore service', 'no incident closed', '—'],
    ]);
  });

  it('the Overview: the organisation\'s frequency rated by the median project, and says so', async () => {
    const page = await memberPage(suite, tenant.tenantId);
    await page.goto(`/app/?${SCOPE}`);
    await until(() => text(page, 'deployment-frequency-tier'), 'DORA 2023: high');
    expect(await text(page, 'deployment-frequency-median')).to.equal("Rated from the median project's rate, 3.7 per week (n = 2 projects), not the organisation's total");
    expect(await text(page, 'dora-overall-tier')).to.equal('high');
  });
});
