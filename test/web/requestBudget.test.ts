import { expect } from 'chai';
import type { Page, Request, Response, WebSocket } from 'playwright-core';
import { buildSessionCookie, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { liveAnswered, liveEvents, personTab, serverAndBrowser, text, until } from './browser.js';
import { SCOPE, SEED_ENV, seedTenant } from './seed.js';
import { seedRatesAndUnowned } from './seedRates.js';

/**
 * The cube queries a page sent, as parsed JSON, with their statuses; `stop()` removes the listener
 * (the file's one tab goes on to the next test).
 */
type SentQuery = { measures?: string[]; dimensions?: string[]; filters?: { member: string; values?: string[] }[] };
function cubeRequests(page: Page): { status: number; query: SentQuery }[] & { stop: () => void } {
  const seen: { status: number; query: SentQuery }[] = [];
  const onResponse = (res: Response) => {
    const url = new URL(res.url());
    if (url.pathname === '/cubejs-api/v1/load') seen.push({ status: res.status(), query: JSON.parse(url.searchParams.get('query') ?? '{}') });
  };
  page.on('response', onResponse);
  return Object.assign(seen, { stop: () => void page.off('response', onResponse) });
}
/** The tiles' query (the window's totals and whether any project sends deployments), once per load of the Overview: counts its refreshes. */
const isSources = (q: { measures?: string[] }) => q.measures?.includes('projects.deployment_sources') === true;

/**
 * Every general-API request a page sends (`/api/*`, `/cubejs-api/*`; the live websocket aside), as
 * `GET /api/users/me` or `cube {query}`, and how many are still unanswered; `stop()` removes the listeners.
 */
function apiRequests(page: Page): { sent: string[]; open: () => number; events: string[]; stop: () => void } {
  const sent: string[] = [];
  const events: string[] = [];
  let open = 0;
  // A data event during the load refreshes the page (its requests would count twice): listed, so a failure says so.
  const onSocket = (ws: WebSocket) => ws.on('framereceived', (f) => { const kind = /"kind":"([^"]+)"/.exec(String(f.payload))?.[1]; if (kind && kind !== 'live.ready') events.push(kind); });
  const isApi = (req: Request) => /^\/(api|cubejs-api)\//.test(new URL(req.url()).pathname);
  const onRequest = (req: Request) => {
    if (!isApi(req)) return;
    const url = new URL(req.url());
    const query = url.searchParams.get('query');
    sent.push(query ? `cube ${query}` : `${req.method()} ${url.pathname}`);
    open += 1;
  };
  const answered = (req: Request) => { if (isApi(req)) open -= 1; };
  page.on('websocket', onSocket);
  page.on('request', onRequest);
  page.on('requestfinished', answered);
  page.on('requestfailed', answered);
  const stop = () => {
    page.off('websocket', onSocket);
    page.off('request', onRequest);
    page.off('requestfinished', answered);
    page.off('requestfailed', answered);
  };
  return { sent, open: () => open, events, stop };
}
const isCorpus = (q: { measures?: string[] }) => q.measures?.includes('benchmarks.repository_months') === true;

describe('web app: within the general API budget of 100 requests a minute (Chromium)', function () {
  this.timeout(60_000);
  const suite = serverAndBrowser({ env: SEED_ENV });
  let tenant: BuiltTenant;
  let teams: Record<string, string>;

  // For the counts below: a tenant of its own (and so a person of their own: the allowance the first
  // test uses up is not theirs), seeded first so that its last data event is long sent when they run.
  let other: BuiltTenant;
  let otherTeams: Record<string, string>;

  before(async () => {
    tenant = await buildTenant(suite.server.databaseUrl);
    teams = (await seedTenant(suite.server, tenant.owner.apiKey, tenant.tenantId)).teams;
    other = await buildTenant(suite.server.databaseUrl, 'Budget');
    otherTeams = (await seedTenant(suite.server, other.owner.apiKey, other.tenantId)).teams;
    await seedRatesAndUnowned(suite.server, other.owner.apiKey);
  });

  /** The file's one tab (personTab), signed in as the tenant's owner: a context of its own cost a page load's CPU again. */
  const ownerTab = async (of: BuiltTenant) => personTab(suite, await buildSessionCookie(suite.server.databaseUrl, of.owner.userId, of.tenantId));

  it('a page refused with 429 waits the Retry-After and shows its numbers, not an error', async () => {
    const page = await ownerTab(tenant);
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
    requests.stop();
  });

  it('a burst of webhook batches refreshes an open Overview at most once per 2 s, and never re-asks for the corpus (waits for every event answered)', async () => {
    const page = await ownerTab(tenant);
    const requests = cubeRequests(page);
    await page.goto(`/app/?${SCOPE}`);
    await until(() => text(page, 'deployment-frequency-count'), '4');
    await until(() => text(page, 'live'), 'Live');
    await until(async () => requests.filter((r) => isCorpus(r.query)).length, 1);
    // The load's own answer must be in before counting, or a late one would count as a refresh.
    await until(async () => requests.filter((r) => isSources(r.query)).length, 1);
    requests.length = 0;
    // The tiles' query, timed where the page calls fetch (resource timing's startTime, the page's
    // clock): a request may then wait for a free connection, so the time it leaves says less.
    const since = await page.evaluate(() => { performance.setResourceTimingBufferSize(10_000); return performance.now(); });
    const refreshStarts = () => page.evaluate((after) => performance.getEntriesByType('resource')
      .filter((e) => e.startTime > after && e.name.includes('/cubejs-api/v1/load') && decodeURIComponent(e.name).includes('projects.deployment_sources'))
      .map((e) => e.startTime), since);
    // Five batches, each after the page heard the previous one's event (the server gathers a
    // tenant's changes for 1 s), so that events reach the page faster than its 2 s refresh gap.
    let heard = await liveEvents(page);
    for (let i = 1; i <= 5; i += 1) {
      const r = await suite.server.as(tenant.owner.apiKey).post('/api/webhooks/v1/deployments', { projectKey: 'acme/api', externalId: `burst-${i}`, ref: 'main', sha: `abcdef${i}`, environment: 'production', status: 'success', createdAt: '2026-03-21T00:00:00Z' });
      expect(r.status).to.equal(201);
      await until(async () => (await liveEvents(page)) > heard, true);
      heard = await liveEvents(page);
    }
    // Every event heard has been answered: no refresh waits for its gap or is still fetching.
    await liveAnswered(page, heard);
    expect(await text(page, 'deployment-frequency-count')).to.equal('9');
    // No more refreshes than events, each at least the 2 s gap after the one before (less a few ms
    // between the gap's timer and fetch; without the gap they follow the server's 1 s window); the
    // corpus was never asked again.
    const refreshes = await refreshStarts();
    expect(refreshes.length).to.be.within(1, heard);
    refreshes.slice(1).forEach((at, i) => expect(at - refreshes[i]!, `gap before refresh ${i + 2}`).to.be.at.least(1_950));
    expect(requests.filter((r) => isCorpus(r.query))).to.deep.equal([]);
    expect(await text(page, 'deployment-frequency-count')).to.equal('9');
    requests.stop();
  });

  /**
   * The exact number of API requests of a cold page load (a new document in the file's one tab, its
   * storage cleared; API answers are `no-store`, so none comes from the cache), counted once the page shows all it shows and no request is open. On the test server (billing
   * off, so no `/api/billing/notice`): the Overview 8 (the tiles' query, the previous window, the
   * trend, the unowned deployments, the teams list, the open-source month and corpus, and
   * `/api/users/me`), 7 with a team filter (no unowned count), Teams 4 (the teams list, every
   * team's facts, the organisation's, `/api/users/me`). Before the deployment-rate and total-row
   * changes were folded into existing queries: 9, 8 and 6 (docs/web.md "Within the request budget").
   */
  describe('a cold page load sends exactly its requests', () => {
    const settled = async (page: Page, requests: { open: () => number; events: string[] }) => {
      await until(() => text(page, 'live'), 'Live');
      await until(async () => requests.open(), 0);
      expect(requests.events, 'no data event while the page loaded').to.deep.equal([]);
    };
    const overviewDone = async (page: Page) => {
      await until(async () => page.getByTestId('deployment-frequency-trend').count(), 1);
      await until(async () => (await text(page, 'oss-proxy')).includes('…'), false);
    };

    it('the Overview of the organisation: 8', async () => {
      const page = await ownerTab(other);
      const requests = apiRequests(page);
      await page.goto(`/app/?${SCOPE}`);
      await until(() => text(page, 'deployment-frequency-value'), '0.86 per week · 11 deployments');
      await until(() => text(page, 'deployment-frequency-unowned'), 'Includes 2 from projects no team owns');
      await until(() => text(page, 'deployment-frequency-previous'), 'Previous window: 0.11 per week · 1 deployment · since 1 Nov 2025 · up (better)');
      await overviewDone(page);
      await settled(page, requests);
      expect(requests.sent.length, requests.sent.join('\n')).to.equal(8);
      requests.stop();
    });

    it('the Overview of a team: 7', async () => {
      const page = await ownerTab(other);
      const requests = apiRequests(page);
      await page.goto(`/app/?${SCOPE}&team=${otherTeams.beta}`);
      await until(() => text(page, 'deployment-frequency-value'), '1.2 per week · 5 deployments');
      await until(() => text(page, 'deployment-frequency-previous'), 'Previous window: 0 deployments');
      await overviewDone(page);
      await settled(page, requests);
      expect(requests.sent.length, requests.sent.join('\n')).to.equal(7);
      requests.stop();
    });

    it('Teams: 5 (the previous window of every team is one more query)', async () => {
      const page = await ownerTab(other);
      const requests = apiRequests(page);
      await page.goto(`/app/teams?${SCOPE}`);
      const table = page.getByRole('table');
      await until(async () => table.locator('tbody tr').count(), 4);
      await until(async () => (await table.locator('tfoot tr').innerText()).split('\t')[0], 'Organisation');
      await settled(page, requests);
      expect(requests.sent.length, requests.sent.join('\n')).to.equal(5);
      requests.stop();
    });
  });
});
