/**
 * The Teams page's comparison and drill-through, and the AI adoption page's drill-through (issue
 * 33, points 1 and 6), in Chromium on the real server. Values from test/web/seed.ts, worked out by
 * hand, window 2026-01..03, previous window 2025-10..12:
 *   Alpha: headcount 3 (Beta 1, Empty 1: the teams' median 1, not windowed: no change); production
 *   deploys 4 (d1, d3, d4, d5), before 1 (d0, 2025-11): up, better; change failure rate 20 % (n 5),
 *   before 0 % (d0 finished, not failed): up, worse; the only team with a rate, so the teams'
 *   median is its own; PRs merged 3, none before. Experience score 75.0 (n 3: February's survey,
 *   3 invited, 3 answered); Beta's 1 response withholds its score, which opens nothing.
 * AI, added here (the seed has none): Ann (a1, Alpha) uploads a session 2026-02-03 (cursor) and
 * holds a cursor seat from 2026-01-15; an uploader with no person (the owner) one on 2026-03-01.
 *   → Alpha: 1 active user, 1 session, 1 seat holder; organisation: 2 sessions.
 * AI commits: a push to acme/api (main) of k1 2026-02-03 09:30 and k2 2026-03-01 09:30; Ann's
 * session names k1, the owner's k2. → the AI commits chart: February 1 (k1: cursor, Ann), March 1.
 * Headcount (current, from the register): Alpha a1, a2, a3 (register) → 3; organisation 5 people.
 */
import { seriousAxe } from './axe.js';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { deliver, fixture } from '../activity/helpers.js';
import { buildMember, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { screenshot, serverAndBrowser, text, until, memberPage, factRows } from './browser.js';
import { SCOPE, SEED_ENV, seedTenant, type Seeded } from './seed.js';

describe('web app: Teams compared, and the AI numbers opened (Chromium)', function () {
  this.timeout(120_000);
  const suite = serverAndBrowser({ env: SEED_ENV });
  let tenant: BuiltTenant;
  let seeded: Seeded;
  let ann: string;
  let annSession: string;
  const K1 = 'a1c0ffee'.repeat(5);
  const K2 = 'b2c0ffee'.repeat(5);

  before(async function () {
    this.timeout(120_000);
    tenant = await buildTenant(suite.server.databaseUrl, 'Compare Org');
    seeded = await seedTenant(suite.server, tenant.owner.apiKey, tenant.tenantId);
    const email = `a1-${tenant.tenantId.slice(0, 8)}@example.com`;
    const annUser = await buildMember(suite.server.databaseUrl, tenant.tenantId, 'member', email);
    // The seeded tenant's installation (seed.ts) pushes two commits to acme/api's main branch.
    const push = fixture('push');
    push.repository.full_name = 'acme/api';
    push.ref = 'refs/heads/main';
    push.commits = [[K1, '2026-02-03T09:30:00Z'], [K2, '2026-03-01T09:30:00Z']].map(([id, timestamp]) => ({ ...push.commits[1], id, timestamp, message: 'change' }));
    push.head_commit = push.commits[1];
    push.after = K2;
    const pushed = await deliver(suite.server, 'push', push, { installationId: Number.parseInt(tenant.tenantId.replace(/-/g, '').slice(0, 7), 16) });
    expect(pushed.status, pushed.text).to.equal(200);
    const session = async (key: string, startedAt: string, commitShas: string[]) => {
      const r = await suite.server.as(key).post('/api/sessions', { tool: 'cursor', model: 'gpt-5', startedAt, endedAt: startedAt.replace('T09', 'T10'), projectKey: 'acme/api', commitShas });
      expect(r.status, r.text).to.equal(201);
      return r.body.data.id as string;
    };
    annSession = await session(annUser.apiKey, '2026-02-03T09:00:00Z', [K1]);
    await session(tenant.owner.apiKey, '2026-03-01T09:00:00Z', [K2]);
    const seats = await suite.server.as(tenant.owner.apiKey).post('/api/seats/imports', `email,tool,assigned_on,revoked_on\n${email},cursor,2026-01-15,\n`, { 'content-type': 'text/csv' });
    expect(seats.status, seats.text).to.be.oneOf([200, 201]);
    ann = (await dbFor(suite.server.databaseUrl).pool.query(`select person_id from person_identities where tenant_id = $1 and kind = 'email' and value = $2`, [tenant.tenantId, email])).rows[0].person_id;
  });

  const personPage = (viewport?: { width: number; height: number }) => memberPage(suite, tenant.tenantId, viewport);
  const rows = factRows;
  const cellOf = (page: Page, team: string, header: string) =>
    page.getByRole('table').first().evaluate((table, [team, header]) => {
      const col = [...table.querySelectorAll('thead th')].findIndex((th) => (th as HTMLElement).innerText.trim() === header);
      const row = [...table.querySelectorAll('tbody tr, tfoot tr')].find((tr) => (tr.querySelector('th') as HTMLElement | null)?.innerText.trim() === team);
      return row ? (row.children[col] as HTMLElement).innerText.split('\n').map((l) => l.trim()).filter(Boolean) : null;
    }, [team, header] as const);

  it('each team\'s number beside the previous window, the change named better or worse by the measure\'s direction, and the teams\' median', async () => {
    const page = await personPage();
    await page.goto(`/app/teams?${SCOPE}`);
    await until(() => cellOf(page, 'Alpha', 'Production deploys'), ['4', 'before 1 · up, better', "at the teams' median"]);
    // Its DORA band under the number (issue 47): 20 % is above the medium band's 15 %.
    expect(await cellOf(page, 'Alpha', 'Change failure rate')).to.deep.equal(['20% · n = 5', 'DORA low', 'before 0% · up, worse', "at the teams' median"]);
    // Memberships have no history: headcount has no "before" (issue 46 point 5).
    expect(await cellOf(page, 'Alpha', 'Headcount')).to.deep.equal(['3', "above the teams' median 1"]);
    expect(await cellOf(page, 'Beta', 'Headcount')).to.deep.equal(['1', "at the teams' median"]);
    // A count of nothing in the window is 0 (issue 46 point 5), before too, and counts in the teams' median (3, 0, 0).
    expect(await cellOf(page, 'Alpha', 'PRs merged')).to.deep.equal(['3', 'before 0 · up, better', "above the teams' median 0"]);
    expect(await cellOf(page, 'Beta', 'PRs merged')).to.deep.equal(['0', 'before 0 · no change', "at the teams' median"]);
    expect(await cellOf(page, 'Empty', 'Production deploys')).to.deep.equal(['no deployment source', 'before none', "teams' median 4"]);
    expect(await cellOf(page, 'Organisation', 'Change failure rate')).to.deep.equal(['20% · n = 5', 'DORA low', "teams' median 20%"]);
    expect(await cellOf(page, 'Organisation', 'Headcount')).to.deep.equal(['5', "teams' median 1"]);
    expect(await text(page, 'teams-compare-note')).to.match(/^Under each number: the previous window of equal length \(1 Oct 2025 to 31 Dec 2025\), the change named better or worse/);
    // Better and worse are words, not colour alone.
    expect(await page.locator('.change.worse').allInnerTexts()).to.deep.equal(['up, worse']);
    const axe = await seriousAxe(page).include('[data-testid="teams-table"]').analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).to.deep.equal([]);
    await screenshot(page, 'teams-compare');
  });

  it("a team's cell opens that team's facts (not the team's page); the shared URL opens it again; focus returns on close", async () => {
    const page = await personPage();
    await page.goto(`/app/teams?${SCOPE}`);
    await page.locator('a[title="List the facts behind Change failure rate, Alpha"]').click();
    const panel = page.getByRole('dialog', { name: 'Change failure rate: the facts' });
    await panel.waitFor();
    await until(() => text(page, 'facts-count'), '5 deployments · 1 failed');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).to.equal('Teams');
    expect(Object.fromEntries(new URL(page.url()).searchParams)).to.deep.include({ drill: 'deployments.change_failure_rate', dteam: seeded.teams.alpha });
    expect((await rows(page)).map((r) => [r[2], r[0]])).to.deep.equal([['2026-03-02 12:00', 'no'], ['2026-03-01 12:00', 'no'], ['2026-02-05 06:00', 'no'], ['2026-02-05 00:00', 'yes'], ['2026-01-10 00:00', 'no']]);
    const shared = page.url();
    await panel.getByRole('button', { name: 'Close' }).click();
    await until(() => panel.count(), 0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('title'))).to.equal('List the facts behind Change failure rate, Alpha');
    await page.goto(shared);
    await page.getByRole('dialog', { name: 'Change failure rate: the facts' }).waitFor();
    await until(() => text(page, 'facts-count'), '5 deployments · 1 failed');

    // The Organisation row opens the whole organisation's list.
    await page.keyboard.press('Escape');
    await page.locator('a[title="List the facts behind Production deploys"]').click();
    await until(() => text(page, 'facts-count'), '4 deployments');
    expect(new URL(page.url()).searchParams.get('dteam')).to.equal(null);
  });

  it('the experience score opens its survey counts (never an answer); a withheld score opens nothing', async () => {
    const page = await personPage();
    await page.goto(`/app/teams?${SCOPE}`);
    await until(() => cellOf(page, 'Beta', 'Experience score'), ['fewer than 3 responses', 'before none', "teams' median 75.0"]);
    const links = async (team: string) =>
      page.getByRole('table').first().evaluate((table, team) => {
        const col = [...table.querySelectorAll('thead th')].findIndex((th) => (th as HTMLElement).innerText.trim() === 'Experience score');
        const row = [...table.querySelectorAll('tbody tr')].find((tr) => (tr.querySelector('th') as HTMLElement).innerText.trim() === team)!;
        return row.children[col]!.querySelectorAll('a').length;
      }, team);
    expect(await links('Beta')).to.equal(0);
    expect(await links('Alpha')).to.equal(1);
    await page.locator(`a[title="List the facts behind Experience score, Alpha"]`).click();
    const panel = page.getByRole('dialog', { name: "Survey responses (the experience score's n): the facts" });
    await panel.waitFor();
    await until(() => text(page, 'facts-count'), '1 team month · 3 responses in all');
    expect(await panel.locator('thead th').allInnerTexts()).to.deep.equal(['Details', 'Team', 'Month', 'Invitations', 'Responses']);
    expect(await rows(page)).to.deep.equal([['Alpha', '2026-02', '3', '3']]);
  });

  it('AI adoption: a team\'s sessions and seat holders open their lists, people by name; keyboard only', async () => {
    const page = await personPage();
    await page.goto(`/app/ai?${SCOPE}`);
    const sessions = page.locator('a[title="List the facts behind AI sessions, Alpha"]');
    await sessions.waitFor();
    await sessions.focus();
    await page.keyboard.press('Enter');
    const panel = page.getByRole('dialog', { name: 'AI sessions: the facts' });
    await panel.waitFor();
    await until(() => text(page, 'facts-count'), '1 AI session');
    // started, person (by the register's name), tool, model, source; the rest in the row's details.
    expect(await rows(page)).to.deep.equal([['2026-02-03 09:00', 'Ann', 'cursor', 'gpt-5', 'upload']]);
    expect(await panel.getByRole('link', { name: '2026-02-03 09:00' }).getAttribute('href')).to.match(/^\/app\/ai\/sessions\/[0-9a-f-]{36}$/);
    expect(await page.evaluate(() => !!document.activeElement?.closest('dialog'))).to.equal(true);
    const axe = await seriousAxe(page).include('dialog').analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).to.deep.equal([]);
    await page.keyboard.press('Escape');
    await until(() => panel.count(), 0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('title'))).to.equal('List the facts behind AI sessions, Alpha');

    await page.locator('a[title="List the facts behind AI sessions"]').click();
    await until(() => text(page, 'facts-count'), '2 AI sessions');
    await page.keyboard.press('Escape');
    await page.locator('a[title="List the facts behind Seat holders, Alpha"]').click();
    await until(() => text(page, 'facts-count'), '1 seat holder');
    expect(await rows(page)).to.deep.equal([['Ann', '1']]);
    await page.keyboard.press('Escape');
    await page.locator('a[title="List the facts behind AI active users, Alpha"]').click();
    await until(() => text(page, 'facts-count'), '1 person or uploader');
    expect(await rows(page)).to.deep.equal([['Ann', '1', 'yes', 'upload']]);
    await page.keyboard.press('Escape');
    // A point of the monthly charts opens that month's list.
    await page.getByTestId('ai-sessions').getByRole('link', { name: 'Feb 2026: 1. List the facts' }).click();
    await until(() => text(page, 'facts-count'), '1 AI session');
    expect(Object.fromEntries(new URL(page.url()).searchParams)).to.deep.include({ drill: 'ai_sessions.ai_sessions', dmonth: '2026-02' });
    expect(await rows(page)).to.deep.equal([['2026-02-03 09:00', 'Ann', 'cursor', 'gpt-5', 'upload']]);
    await screenshot(page, 'ai-drill');
  });

  it("headcount opens the team's current members by name (the Organisation row's: the organisation's people)", async () => {
    const page = await personPage();
    await page.goto(`/app/teams?${SCOPE}`);
    const alpha = page.locator('a[title="List the facts behind Headcount, Alpha"]');
    await alpha.waitFor();
    expect(await alpha.innerText()).to.equal('3');
    await alpha.click();
    const panel = page.getByRole('dialog', { name: 'Headcount: the facts' });
    await panel.waitFor();
    await until(() => text(page, 'facts-count'), '3 members');
    expect(Object.fromEntries(new URL(page.url()).searchParams)).to.deep.include({ drill: 'memberships.headcount', dteam: seeded.teams.alpha });
    expect(await panel.getByRole('heading', { level: 2 }).innerText()).to.equal('Headcount: the facts · Alpha, current members, whatever the window');
    expect(await panel.locator('thead th').allInnerTexts()).to.deep.equal(['Details', 'Person', 'Membership from', 'Memberships']);
    const { pool } = dbFor(suite.server.databaseUrl);
    const members = (await pool.query(`select p.display_name from team_memberships m join people p on p.id = m.person_id where m.team_id = $1 order by m.person_id`, [seeded.teams.alpha])).rows.map((r) => r.display_name as string);
    expect([...members].sort()).to.deep.equal(['Ann', 'Bo', 'Cy']);
    expect(await rows(page)).to.deep.equal(members.map((name) => [name, 'register', '1']));
    const axe = await seriousAxe(page).include('dialog').analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).to.deep.equal([]);
    await page.keyboard.press('Escape');
    await until(() => panel.count(), 0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('title'))).to.equal('List the facts behind Headcount, Alpha');

    // The Organisation row: its 5 people, each once.
    await page.locator('a[title="List the facts behind Headcount"]').click();
    await until(() => text(page, 'facts-count'), '5 members');
    expect(new URL(page.url()).searchParams.get('dteam')).to.equal(null);
    const everyone = (await pool.query(`select p.display_name from people p where p.id in (select person_id from team_memberships where tenant_id = $1) order by p.id`, [tenant.tenantId])).rows.map((r) => r.display_name as string);
    expect(await rows(page)).to.deep.equal(everyone.map((name) => [name, 'register', '1']));
  });

  it('AI adoption: a point of the AI commits chart opens that month\'s commits, with the session that names each', async () => {
    const page = await personPage();
    await page.goto(`/app/ai?${SCOPE}`);
    const point = page.getByTestId('ai-commits').getByRole('link', { name: 'Feb 2026: 1. List the facts' });
    await point.waitFor();
    await point.focus();
    await page.keyboard.press('Enter');
    const panel = page.getByRole('dialog', { name: 'AI commits: the facts' });
    await panel.waitFor();
    await until(() => text(page, 'facts-count'), '1 AI commit');
    expect(Object.fromEntries(new URL(page.url()).searchParams)).to.deep.include({ drill: 'ai_commits.ai_commits', dmonth: '2026-02' });
    expect(await panel.locator('thead th').allInnerTexts()).to.deep.equal(['Details', 'Committed', 'Sha', 'Repository', 'AI tools', 'People']);
    expect(await rows(page)).to.deep.equal([['2026-02-03 09:30', K1.slice(0, 7), 'acme/api', 'cursor', 'Ann']]);
    // The session that names it and the person's id are in the row's details.
    await panel.getByRole('button', { name: 'Show details' }).click();
    const detail = await panel.locator('tr.fact-detail').innerText();
    expect([detail.includes(annSession), detail.includes(ann), detail.includes(K1)]).to.deep.equal([true, true, true]);
    const axe = await seriousAxe(page).include('dialog').analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).to.deep.equal([]);
    await page.keyboard.press('Escape');
    await until(() => panel.count(), 0);
    // March's point: the owner's commit (no person: the uploading user's id).
    await page.getByTestId('ai-commits').getByRole('link', { name: 'Mar 2026: 1. List the facts' }).click();
    await until(() => text(page, 'facts-count'), '1 AI commit');
    const owner = (await dbFor(suite.server.databaseUrl).pool.query(`select coalesce(nullif(display_name, ''), email) as name from users where id = $1`, [tenant.owner.userId])).rows[0].name as string;
    expect((await rows(page)).map((r) => [r[1], r[4]])).to.deep.equal([[K2.slice(0, 7), `${owner} (not in the register)`]]);
  });

  it('at 390 px the Teams panel is the whole width and the page does not scroll sideways', async () => {
    const page = await personPage({ width: 390, height: 844 });
    await page.goto(`/app/teams?${SCOPE}&drill=deployments.change_failure_rate&dteam=${seeded.teams.alpha}`);
    const panel = page.getByRole('dialog', { name: 'Change failure rate: the facts' });
    await panel.waitFor();
    await until(() => text(page, 'facts-count'), '5 deployments · 1 failed');
    const box = await panel.boundingBox();
    expect(Math.round(box!.width)).to.equal(390);
    await page.keyboard.press('Escape');
    await until(() => panel.count(), 0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.equal(390);
  });
});
