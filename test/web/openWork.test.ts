import { seriousAxe } from './axe.js';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { buildMember, buildSessionCookie, buildTenant, type BuiltTenant } from '../helpers/factories.js';
import { seedOpenWork, type SeededOpenWork } from '../openWork/seed.js';
import { personTab, screenshot, serverAndBrowser, until } from './browser.js';
import { SEED_ENV } from './seed.js';

/** The rows of a section's table as "cell|cell|…", in the order shown. */
const rowsOf = async (page: Page, panel: string) =>
  (await page.getByTestId(panel).locator('table tbody tr').allInnerTexts()).map((r) => r.split('\t').map((c) => c.replace(/\s+/g, ' ').trim()).join('|'));
const hrefsOf = (page: Page, panel: string) => page.getByTestId(panel).locator('table tbody a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));

/**
 * Issue 33 point 3: the "Open work" page on the tenant of test/openWork/seed.ts (rows, states and
 * ages worked out there), on the real server and Chromium.
 */
describe('web app: Open work (Chromium)', function () {
  this.timeout(90_000);
  const suite = serverAndBrowser({ env: SEED_ENV });
  let tenant: BuiltTenant;
  let seeded: SeededOpenWork;

  before(async function () {
    this.timeout(120_000);
    tenant = await buildTenant(suite.server.databaseUrl, 'Open Work Org');
    seeded = await seedOpenWork(suite.server, tenant.owner.apiKey, tenant.tenantId);
  });

  // An owner of its own per page, in the file's one tab (personTab): good until the next call.
  async function ownerPage(tenantId = tenant.tenantId, viewport = { width: 1280, height: 800 }): Promise<Page> {
    const owner = await buildMember(suite.server.databaseUrl, tenantId, 'owner');
    const page = await personTab(suite, await buildSessionCookie(suite.server.databaseUrl, owner.userId, tenantId));
    await page.setViewportSize(viewport);
    return page;
  }
  const settled = async (page: Page) => {
    await page.getByRole('heading', { level: 1, name: 'Open work' }).waitFor();
    await until(async () => (await page.locator('[aria-busy="true"]').count()) === 0, true);
  };

  const ORGANISATION_PRS = [
    'acme/api#11 Add retry to payments|Changes requested|5 d|ann|bo (changes requested)|Alpha',
    'acme/web#21 New checkout page|Approved|4 d|bo|cy (approved)|Beta',
    'acme/api#13 Bump dependencies|Waiting for review|3 d|ann|bo (approved), di (asked)|Alpha',
    'acme/tools#31 Lint rules|Waiting for review|2 d|cy|None asked|No team',
    'acme/api#12 Spike: new cache|Draft|5 h|ann|None asked|Alpha',
  ];

  it('lists the organisation\'s open PRs, failed deployments and open incidents, oldest first, linking each known item', async () => {
    const page = await ownerPage();
    await page.goto('/app/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Open work' }).click();
    await settled(page);
    expect(await page.title()).to.equal('Open work · Delivery Analytics');
    await until(() => rowsOf(page, 'open-prs'), ORGANISATION_PRS);
    expect(await hrefsOf(page, 'open-prs')).to.deep.equal([11, 21, 13, 31, 12].map((n) => `https://github.com/${n === 21 ? 'acme/web' : n === 31 ? 'acme/tools' : 'acme/api'}/pull/${n}`));
    // t1's deployment sha is its external id in hexadecimal: 7431…
    expect(await rowsOf(page, 'failed-deployments')).to.deep.equal([
      `acme/tools t1 7431000|Caused an incident|6 d|${day(seeded.at(144))}|No team`,
      `acme/web g1 6731000|Status error|3 d|${day(seeded.at(72))}|Beta`,
      `acme/api f3 6633000|Status failure|10 h|${day(seeded.at(10))}|Alpha`,
    ]);
    // Only f3 sent its URL: the others are plain text.
    expect(await hrefsOf(page, 'failed-deployments')).to.deep.equal(['https://ci.example.com/deploys/f3']);
    expect(await rowsOf(page, 'open-incidents')).to.deep.equal([
      `acme/tools INC-7 Tools down|5 d|${day(seeded.at(143))}|No team`,
      `acme/web #5 Checkout errors|2 d|${day(seeded.at(48))}|Beta`,
    ]);
    expect(await hrefsOf(page, 'open-incidents')).to.deep.equal(['https://tracker.example.com/browse/INC-7', 'https://github.com/acme/web/issues/5']);
    // The age header says the order: oldest first.
    expect(await page.getByTestId('open-prs').getByRole('columnheader', { name: 'Age' }).getAttribute('aria-sort')).to.equal('descending');
    await screenshot(page, 'open-work');
  });

  it('lists merged changes not yet deployed with the time since the merge, and says when no PR waits longer than its team\'s pickup median (issue 47)', async () => {
    const page = await ownerPage();
    await page.goto('/app/open-work');
    await settled(page);
    // acme/api #14 was merged 20 h ago, after acme/api's last successful deployment (f2, 7 d ago).
    await until(() => rowsOf(page, 'undeployed-changes'), [`acme/api#14 Merged already|20 h|${day(seeded.at(20))}|ann|Alpha`]);
    expect(await hrefsOf(page, 'undeployed-changes')).to.deep.equal(['https://github.com/acme/api/pull/14']);
    expect(await page.getByTestId('undeployed-changes').getByRole('columnheader', { name: 'Since merge' }).getAttribute('aria-sort')).to.equal('descending');
    // No merged PR of the seed was reviewed: no team has a pickup median, so none is listed.
    expect(await page.getByTestId('awaiting-review-empty').innerText()).to.equal("No pull request waiting longer than its team's pickup median.");
    expect(await page.getByTestId('awaiting-review-note').innerText()).to.include('No team has a pickup median yet');
  });

  it('switches to one team with the team picker (in the URL), with empty states where the team has nothing', async () => {
    const page = await ownerPage();
    await page.goto('/app/open-work');
    await settled(page);
    await until(() => rowsOf(page, 'open-prs'), ORGANISATION_PRS);
    // No window on this page: the month fields are not shown, the team is.
    expect(await page.getByLabel('From').count()).to.equal(0);
    await page.getByRole('combobox', { name: 'Team' }).selectOption({ label: 'Alpha' });
    await until(async () => new URL(page.url()).searchParams.get('team'), seeded.teams.alpha as string | null);
    await until(() => rowsOf(page, 'open-prs'), [ORGANISATION_PRS[0], ORGANISATION_PRS[2], ORGANISATION_PRS[4]]);
    expect(await rowsOf(page, 'failed-deployments')).to.deep.equal([`acme/api f3 6633000|Status failure|10 h|${day(seeded.at(10))}|Alpha`]);
    expect(await page.getByTestId('open-incidents-empty').innerText()).to.equal('No open incidents for Alpha.');
    expect(await page.getByTestId('open-work-intro').innerText()).to.match(/^What is in flight now for Alpha, oldest first\. Ages are counted to \d\d:\d\d\.$/);

    // A shared link names the team; another tenant's team is the API's own message.
    await page.goto(`/app/open-work?team=${seeded.teams.beta}`);
    await settled(page);
    await until(() => rowsOf(page, 'open-prs'), [ORGANISATION_PRS[1]]);

    const other = await buildTenant(suite.server.databaseUrl, 'Elsewhere');
    const outsider = await ownerPage(other.tenantId);
    await outsider.goto(`/app/open-work?team=${seeded.teams.alpha}`);
    await outsider.getByRole('heading', { level: 1, name: 'Open work' }).waitFor();
    await until(() => outsider.getByTestId('open-prs').getByRole('alert').locator('p').first().innerText(), `Team ${seeded.teams.alpha} not found`);
    await outsider.goto('/app/open-work');
    await settled(outsider);
    await until(() => outsider.getByTestId('open-prs-empty').innerText(), 'No open pull requests.');
    expect(await outsider.getByTestId('failed-deployments-empty').innerText()).to.equal('No failed production deployment waiting for recovery.');
    expect(await outsider.getByTestId('open-incidents-empty').innerText()).to.equal('No open incidents.');
  });

  it('works by keyboard: a sort header and an item link are reached with Tab', async () => {
    const page = await ownerPage();
    await page.goto('/app/open-work');
    await settled(page);
    await until(() => rowsOf(page, 'open-prs'), ORGANISATION_PRS);
    const age = page.getByTestId('open-prs').getByRole('button', { name: 'Age' });
    await age.focus();
    await page.keyboard.press('Enter');
    // Newest first now.
    await until(async () => (await rowsOf(page, 'open-prs'))[0], ORGANISATION_PRS[4]);
    // The next stops after the headers are the rows' links, in order.
    await page.getByTestId('open-prs').getByRole('button', { name: 'Team' }).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).to.equal('https://github.com/acme/api/pull/12');
  });

  it('fits a 390 px wide screen (no sideways scrolling) and passes axe there', async () => {
    const page = await ownerPage(tenant.tenantId, { width: 390, height: 844 });
    await page.goto('/app/open-work');
    await settled(page);
    await until(() => rowsOf(page, 'open-prs'), ORGANISATION_PRS);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390);
    await screenshot(page, 'open-work-390');
    const serious = (await seriousAxe(page).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 2).join(', ')}`)).to.deep.equal([]);
  });
});

/** As the page writes a moment (the browser's locale formatting, the test's own clock zone). */
const day = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
