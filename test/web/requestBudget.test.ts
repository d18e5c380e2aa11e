import { expect } from 'chai';
import type { Page, Response } from 'playwright-core';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { pageAs, serverAndBrowser, text, until } from './browser.js';
import { SCOPE, SEED_ENV, seedTenant } from './seed.js';

/** The cube queries a page sent, as parsed JSON, with their statuses. */
type SentQuery = { measures?: string[]; dimensions?: string[]; filters?: { member: string; values?: string[] }[] };
function cubeRequests(page: Page): { status: number; query: SentQuery }[] {
  const seen: { status: number; query: SentQuery }[] = [];
  page.on('response', (res: Response) => {
    const url = new URL(res.url());
    if (url.pathname === '/cubejs-api/v1/load') seen.push({ status: res.status(), query: JSON.parse(url.searchParams.get('query') ?? '{}') });
  });
  return seen;
}
/** Asked once per load of the Overview (whether any project sends deployments): counts its refreshes. */
const isSources = (q: { measures?: string[] }) => JSON.stringify(q.measures) === '["projects.deployment_sources"]';
const isCorpus = (q: { measures?: string[] }) => q.measures?.includes('benchmarks.repository_months') === true;

describe('web app: within the general API budget of 100 requests a minute (Chromium)', function () {
  this.timeout(60_000);
  const suite = serverAndBrowser({ env: SEED_ENV });
  let tenant: BuiltTenant;
  let teams: Record<string, string>;

  before(async () => {
    tenant = await buildTenant(suite.server.databaseUrl);
    teams = (await seedTenant(suite.server, tenant.owner.apiKey, tenant.tenantId)).teams;
  });

  it('a page refused with 429 waits the Retry-After and shows its numbers, not an error', async () => {
    const page = await pageAs(suite, tenant.owner.userId, tenant.tenantId);
    const requests = cubeRequests(page);
    await page.goto(`/app/?${SCOPE}`);
    await until(() => text(page, 'deployment-frequency-count'), '4');
    // The person has used up this minute's allowance; it comes back in 5 s (time enough for the next page to ask, even on a loaded machine).
    const key = `general:user:${tenant.tenantId}:${tenant.owner.userId}`;
    const updated = await dbFor(suite.server.databaseUrl).pool.query('update rate_limits set points = 1000, expire = $2 where key = $1', [key, Date.now() + 5_000]);
    expect(updated.rowCount).to.equal(1);
    requests.length = 0;
    await page.goto(`/app/?${SCOPE}&team=${teams.alpha}`);
    await until(() => text(page, 'deployment-frequency-count'), '4', 20_000);
    // The team's own query: a late answer to the first page's (unfiltered) one cannot count here.
    const teamSources = requests.filter((r) => isSources(r.query) && r.query.filters?.[0]?.values?.[0] === teams.alpha);
    expect(teamSources.map((r) => r.status)).to.deep.equal([429, 200]);
    expect(await page.getByRole('alert').count()).to.equal(0);
  });

  it('a burst of webhook batches refreshes an open Overview at most once per 2 s, and never re-asks for the corpus', async () => {
    const page = await pageAs(suite, tenant.owner.userId, tenant.tenantId);
    const requests = cubeRequests(page);
    await page.goto(`/app/?${SCOPE}`);
    await until(() => text(page, 'deployment-frequency-count'), '4');
    await until(() => text(page, 'live'), 'Live');
    await until(async () => requests.filter((r) => isCorpus(r.query)).length, 1);
    // The load's own answer must be in before counting, or a late one would count as a refresh.
    await until(async () => requests.filter((r) => isSources(r.query)).length, 1);
    requests.length = 0;
    for (let i = 1; i <= 5; i += 1) {
      const r = await suite.server.as(tenant.owner.apiKey).post('/api/webhooks/v1/deployments', { projectKey: 'acme/api', externalId: `burst-${i}`, ref: 'main', sha: `abcdef${i}`, environment: 'production', status: 'success', createdAt: '2026-03-21T00:00:00Z' });
      expect(r.status).to.equal(201);
    }
    await until(() => text(page, 'deployment-frequency-count'), '9');
    await new Promise((r) => setTimeout(r, 2_500));
    // Five events: one refresh at the first, one at the end of its 2 s gap for the other four.
    expect(requests.filter((r) => isSources(r.query)).length).to.be.within(1, 2);
    expect(requests.filter((r) => isCorpus(r.query))).to.deep.equal([]);
    expect(await text(page, 'deployment-frequency-count')).to.equal('9');
  });
});
