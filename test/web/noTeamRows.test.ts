import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { deliver, mergedPullRequest } from '../activity/helpers.js';
import { buildMember, buildTenant, type BuiltTenant } from '../helpers/factories.js';
import type { TestServer } from '../helpers/server.js';
import { serverAndBrowser, tabAs, text, until } from './browser.js';
import { SCOPE, SEED_ENV, seedTenant, type Seeded } from './seed.js';

/**
 * Added to seedTenant's tenant (test/web/seed.ts, left as it is), through the real API: merged pull
 * requests of acme/web (Beta's) and of acme/tools, which no team owns, from the code host's signed
 * webhook to the tenant's installation that seedTenant linked; AI sessions uploaded by people of
 * the register and by users who are on no team. Hand-worked, for the window 2026-01..2026-03:
 *
 * PRs (cycle time = merged − created; CEU by lines changed: ≤10 → 1, ≤50 → 2, ≤250 → 3; CCV = lines):
 * - Alpha (seedTenant's acme/api): 3 merged, 24, 24 and 18 h → p50 24.0 h (n 3); 15 lines each →
 *   CEU 2 + 2 + 2 = 6, CCV 45; one labelled ai-assisted → share 1/3 = 33.3 %.
 * - Beta, acme/web: 1 merged, 2026-01-19 → 01-20, 24 h, 40 + 10 = 50 lines → CEU 2, CCV 50; not
 *   ai-assisted → share 0 %.
 * - No team, acme/tools: 2026-02-01 00:00 → 12:00 (12 h, 100 + 20 = 120 lines, CEU 3, ai-assisted)
 *   and 2026-03-10 00:00 → 03-11 06:00 (30 h, 3 + 2 = 5 lines, CEU 1) → 2 merged, p50 (12 + 30) / 2
 *   = 21.0 h (n 2), CEU 4, CCV 125, share 1/2 = 50 %.
 * - Organisation: 3 + 1 + 2 = 6 merged, CEU 6 + 2 + 4 = 12, CCV 45 + 50 + 125 = 220: the rows add
 *   up. Cycle times 12, 18, 24, 24, 24, 30 → p50 24.0 h (n 6); ai-assisted 2 of 6 = 33.3 % (a median
 *   and a share are not sums of the rows).
 * Issues: seedTenant's one incident of acme/api (closed after 3 h) is Alpha's only closed issue;
 * no other issue, so no "No team" cell has one.
 * AI sessions (February 2026): Ann (a1, Alpha) 2 sessions → Alpha 1 active user; Di (b1, Beta) 1
 * → Beta 1; the owner and a user whose e-mail is not in the register, 1 each → No team 2 active
 * users. Organisation: 1 + 1 + 2 = 4. Empty: no PR, no session.
 */
async function seedNoTeamFacts(server: TestServer, tenant: BuiltTenant): Promise<void> {
  const installationId = Number.parseInt(tenant.tenantId.replace(/-/g, '').slice(0, 7), 16); // seedTenant's
  const pr = async (repo: string, n: number, created: string, merged: string, additions: number, deletions: number, labels: string[] = []) => {
    const event = mergedPullRequest(repo, {
      id: installationId * 10 + n, number: n, title: 'change', user: { login: 'bo' }, additions, deletions, changed_files: 0, commits: 0,
      labels: labels.map((name) => ({ name })), created_at: created, merged_at: merged, merge_commit_sha: `f${n}`.padEnd(40, '0'),
    });
    const r = await deliver(server, 'pull_request', event, { installationId });
    if (r.status !== 200 || r.body.data?.stored !== true) throw new Error(`pull request: ${r.status} ${r.text}`);
  };
  await pr('acme/web', 4, '2026-01-19T00:00:00Z', '2026-01-20T00:00:00Z', 40, 10);
  await pr('acme/tools', 5, '2026-02-01T00:00:00Z', '2026-02-01T12:00:00Z', 100, 20, ['ai-assisted']);
  await pr('acme/tools', 6, '2026-03-10T00:00:00Z', '2026-03-11T06:00:00Z', 3, 2);

  const tag = tenant.tenantId.slice(0, 8);
  const ann = await buildMember(server.databaseUrl, tenant.tenantId, 'member', `a1-${tag}@example.com`);
  const di = await buildMember(server.databaseUrl, tenant.tenantId, 'member', `b1-${tag}@example.com`);
  const stranger = await buildMember(server.databaseUrl, tenant.tenantId, 'member');
  const session = async (apiKey: string, startedAt: string) => {
    const r = await server.as(apiKey).post('/api/sessions', { tool: 'claude-code', model: 'claude-sonnet-4-5', startedAt, endedAt: startedAt.replace('T09', 'T10') });
    if (r.status !== 201) throw new Error(`session: ${r.status} ${r.text}`);
  };
  await session(ann.apiKey, '2026-02-03T09:00:00Z');
  await session(ann.apiKey, '2026-02-10T09:00:00Z');
  await session(di.apiKey, '2026-02-04T09:00:00Z');
  await session(tenant.owner.apiKey, '2026-02-05T09:00:00Z');
  await session(stranger.apiKey, '2026-02-06T09:00:00Z');
}

/** The table's rows as "cell|cell|…" (the first cell is the team). */
const rowsOf = async (page: Page, panel: string, part: 'tbody' | 'tfoot') =>
  (await page.getByTestId(panel).locator(`table ${part} tr`).allInnerTexts()).map((r) => r.split('\t').map((c) => c.replace(/\s+/g, ' ').trim()).join('|'));

/**
 * Issue 38, point 3, on the Flow and AI adoption pages: facts no team has are a "No team" row,
 * and the organisation's row under the teams is the cube's total, which the count columns add up to.
 */
describe('web app: the "No team" row on the Flow and AI adoption pages (Chromium)', function () {
  this.timeout(60_000);
  const suite = serverAndBrowser({ env: SEED_ENV });
  let tenant: BuiltTenant;
  let seeded: Seeded;

  before(async function () {
    this.timeout(120_000);
    tenant = await buildTenant(suite.server.databaseUrl, 'No team');
    seeded = await seedTenant(suite.server, tenant.owner.apiKey, tenant.tenantId);
    await seedNoTeamFacts(suite.server, tenant);
  });

  // Each page is opened by an owner of its own: each person has 100 API requests a minute (in the file's one tab).
  const ownPage = async () => tabAs(suite, (await buildMember(suite.server.databaseUrl, tenant.tenantId, 'owner')).userId, tenant.tenantId);

  it('Flow: a "No team" row for acme/tools, and the counts add up to the organisation\'s', async () => {
    const page = await ownPage();
    await page.goto(`/app/flow?${SCOPE}`);
    await until(() => rowsOf(page, 'flow-teams', 'tbody'), [
      'Alpha|3|24.0 h · n = 3|3.0 h · n = 1|6|45',
      'Beta|1|24.0 h · n = 1|no issue closed|2|50',
      // Counts of nothing read 0; medians and rates keep their reason.
      'Empty|0|no PR merged|no issue closed|0|0',
      'No team|2|21.0 h · n = 2|no issue closed|4|125',
    ]);
    expect(await rowsOf(page, 'flow-teams', 'tfoot')).to.deep.equal(['Organisation|6|24.0 h · n = 6|3.0 h · n = 1|12|220']);
    expect(await text(page, 'flow-teams-total-note')).to.equal('The organisation row is over every project: the teams\' rows plus “No team”, the projects no team owns.');
    // Scoped to one team: its row alone, with neither "No team" nor the organisation (rendered with the rows).
    await page.goto(`/app/flow?${SCOPE}&team=${seeded.teams.beta}`);
    await until(() => rowsOf(page, 'flow-teams', 'tbody'), ['Beta|1|24.0 h · n = 1|no issue closed|2|50']);
    expect(await page.getByTestId('flow-teams').locator('table tfoot').count()).to.equal(0);
    expect(await page.getByTestId('flow-teams-total-note').count()).to.equal(0);
  });

  it('AI adoption: a "No team" row for acme/tools and the sessions of people on no team, and active users add up', async () => {
    const page = await ownPage();
    await page.goto(`/app/ai?${SCOPE}`);
    await until(() => rowsOf(page, 'ai-teams', 'tbody'), [
      // Active users, then sessions (Ann's 2, Di's 1, the owner's and the stranger's on no team), then seat holders and idle seats
      // (none imported: the organisation's total is the cube's 0), the AI-added line share, tokens per merged PR (no telemetry: 0) and
      // the edit acceptance rate (no edit offered).
      'Alpha|33.3%|24.0 h · n = 3|1|2|none|none|0%|0|no edit offered',
      'Beta|0%|24.0 h · n = 1|1|1|none|none|0%|0|no edit offered',
      'Empty|no PR merged|no PR merged|0|0|none|none|no merged PR added a line|no PR merged|no edit offered',
      'No team|50%|21.0 h · n = 2|2|2|none|none|0%|0|no edit offered',
    ]);
    expect(await rowsOf(page, 'ai-teams', 'tfoot')).to.deep.equal(['Organisation|33.3%|24.0 h · n = 6|4|5|0|0|0%|0|no edit offered']);
    expect(await text(page, 'ai-teams-total-note')).to.equal('The organisation row is over every project and person: the teams\' rows plus “No team”, the projects no team owns and the people on no team. A person on two teams counts in both.');
  });
});
