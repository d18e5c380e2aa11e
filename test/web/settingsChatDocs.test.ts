/**
 * Settings › Integrations › Slack and Notion in Chromium, against a fake Slack and a fake Notion:
 * the owner picks a digest channel per team among the channels `conversations.list` gives, and a
 * parent page among the pages Notion's search shows the integration; both saved, still shown after
 * a reload; a page that Notion no longer opens is refused under the field. Members see no picker.
 */
import { seriousAxe } from './axe.js';
import { expect } from 'chai';
import type { Browser, Locator, Page, Request } from 'playwright-core';
import { ensureWebBuilt } from '../../src/webBuild.js';
import { buildMember, buildSessionCookie, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { fakeNotion, type FakeNotion, type FakePage } from '../integrations/fakes/notion.js';
import { fakeSlack, type FakeSlack } from '../integrations/fakes/slack.js';
import { installSlack, slackEnv } from '../integrations/slackHelpers.js';
import { launch, liveAnswered, liveEvents, personTab, screenshot, text, until } from './browser.js';

/** Serious or critical axe findings on the page as it is now. */
async function axeFindings(page: Page): Promise<string[]> {
  const result = await seriousAxe(page).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

describe('web app: Settings › Integrations › Slack digests and Notion parent page (Chromium)', function () {
  this.timeout(120_000);
  let slack: FakeSlack;
  let notion: FakeNotion;
  let server: TestServer;
  let browser: Browser;
  let tenant: BuiltTenant;
  let reports: FakePage;
  let handbook: FakePage;
  const teams: Record<string, string> = {};
  const q = (sql: string, params: unknown[] = []) => dbFor(server.databaseUrl).pool.query(sql, params);
  const settingsOf = async (kind: string) => (await q('select settings from integration_connections where tenant_id = $1 and kind = $2', [tenant.tenantId, kind])).rows[0].settings;

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt(() => {});
    slack = await fakeSlack();
    notion = await fakeNotion();
    server = await testServer({ env: { ...slackEnv(slack), DOCS_CLIENT_ID: notion.clientId, DOCS_CLIENT_SECRET: notion.clientSecret, NOTION_API_BASE_URL: notion.url, DOCS_WEBHOOK_SECRET: 'secret_notion-verification-token' } });
    browser = await launch();
    tenant = await buildTenant(server.databaseUrl, 'Chat Docs Org');
    for (const [slug, name, enabled] of [['alpha', 'Alpha', true], ['beta', 'Beta', true], ['gamma', 'Gamma', false]] as const) {
      teams[slug] = (await q('insert into teams (tenant_id, slug, name, enabled) values ($1, $2, $3, $4) returning id', [tenant.tenantId, slug, name, enabled])).rows[0].id;
    }
    expect((await installSlack(server, server.databaseUrl, tenant)).location).to.equal(`${server.baseUrl}/app/settings/integrations?slack=connected`);
    reports = notion.addPage('Delivery reports');
    handbook = notion.addPage('Team handbook');
    const cookie = await buildSessionCookie(server.databaseUrl, tenant.owner.userId, tenant.tenantId);
    const consent = await fetch(new URL((await server.get('/api/integrations/notion/connect', { cookie })).headers.get('location') as string), { redirect: 'manual' });
    const back = new URL(consent.headers.get('location') as string);
    expect((await server.get(`${back.pathname}${back.search}`, { cookie })).headers.get('location')).to.equal(`${server.baseUrl}/app/settings/integrations?notion=connected`);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await slack?.close();
    await notion?.close();
  });

  /** The file's one tab (personTab), signed in as the person: a context of its own cost a page load's CPU again. */
  const pageOf = async (userId: string) => personTab({ server, browser }, await buildSessionCookie(server.databaseUrl, userId, tenant.tenantId));
  const options = (select: Locator) => select.locator('option').allInnerTexts();

  it('the owner picks a digest channel per enabled team from the channels Slack lists; saved, kept after a reload, and stopped again', async () => {
    const page = await pageOf(tenant.owner.userId);
    await page.goto('/app/settings/integrations');
    const digests = page.getByTestId('slack-digests');
    await until(() => digests.locator('tbody th').allInnerTexts(), ['Alpha', 'Beta']);
    const alpha = page.getByRole('combobox', { name: 'Digest channel of Alpha' });
    expect(await options(alpha)).to.deep.equal(['No digest', '#general', '#delivery']);
    expect(await alpha.inputValue()).to.equal('');
    expect(await page.getByRole('button', { name: 'Save digest channel of Alpha' }).isDisabled(), 'nothing changed yet').to.equal(true);

    await alpha.selectOption({ label: '#delivery' });
    await page.getByRole('button', { name: 'Save digest channel of Alpha' }).click();
    await until(() => digests.locator('tr', { hasText: 'Alpha' }).getByRole('status').innerText(), 'Saved.');
    expect((await settingsOf('slack')).digestChannels).to.deep.equal({ [teams.alpha!]: 'C0DELIVERY' });
    await screenshot(page, 'settings-integrations-slack-digests');

    await page.reload();
    await until(() => page.getByRole('combobox', { name: 'Digest channel of Alpha' }).inputValue(), 'C0DELIVERY');
    expect(await page.getByRole('combobox', { name: 'Digest channel of Beta' }).inputValue()).to.equal('');

    // A channel Slack no longer lists stays visible as such rather than showing as "No digest".
    slack.channels = slack.channels.filter((c) => c.id !== 'C0DELIVERY');
    await page.reload();
    await until(() => options(page.getByRole('combobox', { name: 'Digest channel of Alpha' })), ['No digest', 'C0DELIVERY (not listed by Slack)', '#general']);
    expect(await page.getByRole('combobox', { name: 'Digest channel of Alpha' }).inputValue()).to.equal('C0DELIVERY');

    await page.getByRole('combobox', { name: 'Digest channel of Alpha' }).selectOption({ label: 'No digest' });
    await page.getByRole('button', { name: 'Save digest channel of Alpha' }).click();
    await until(async () => (await settingsOf('slack')).digestChannels, {});
  });

  it('the owner picks the parent page among the pages Notion shows the integration; a page Notion no longer opens is refused under the field', async () => {
    const page = await pageOf(tenant.owner.userId);
    await page.goto('/app/settings/integrations');
    await until(() => text(page, 'notion-parent'), 'Choose a parent page to start the monthly team pages.');
    const picker = page.getByRole('form', { name: 'Parent page' });
    const select = picker.getByLabel('Parent page');
    await until(() => options(select), ['Choose a page', 'Delivery reports', 'Team handbook']);

    // Unshared at Notion after the list was shown: Notion's 404 comes back as the field's error.
    await select.selectOption({ label: 'Team handbook' });
    notion.pages.delete(handbook.id.replace(/-/g, ''));
    await picker.getByRole('button', { name: 'Use as parent page' }).click();
    await until(() => select.getAttribute('aria-invalid'), 'true');
    expect(await page.locator(`#${await select.getAttribute('aria-describedby')}`).innerText()).to.equal('Notion cannot open this page for the integration (object_not_found); share it with the integration first');
    expect(await page.evaluate(() => document.activeElement?.tagName)).to.equal('SELECT');
    expect((await settingsOf('notion')).parentPageId ?? null).to.equal(null);

    await select.selectOption({ label: 'Delivery reports' });
    await picker.getByRole('button', { name: 'Use as parent page' }).click();
    await until(() => text(page, 'notion-parent'), 'Monthly team pages are written under “Delivery reports”.');
    expect((await settingsOf('notion')).parentPageId).to.equal(reports.id);
    await screenshot(page, 'settings-integrations-notion-parent');
    expect(await axeFindings(page), 'accessibility of both pickers').to.deep.equal([]);

    await page.reload();
    await until(() => page.getByRole('form', { name: 'Parent page' }).getByLabel('Parent page').inputValue(), reports.id);
    expect(await text(page, 'notion-parent')).to.equal('Monthly team pages are written under “Delivery reports”.');
    expect(await page.getByRole('button', { name: 'Use as parent page' }).isDisabled(), 'already the parent').to.equal(true);
  });

  it('a member sees both connections but neither picker', async () => {
    const member = await buildMember(server.databaseUrl, tenant.tenantId);
    const page = await pageOf(member.userId);
    await page.goto('/app/settings/integrations');
    await until(() => text(page, 'notion-parent'), 'Monthly team pages are written under page ' + reports.id + '.');
    expect(await text(page, 'slack-state')).to.match(/^Acme Workspace: Connected/);
    expect(await page.getByTestId('slack-digests').count()).to.equal(0);
    expect(await page.getByRole('form', { name: 'Parent page' }).count()).to.equal(0);
  });

  it('a live data event refreshes our own answers on the page but does not ask Slack or Notion again', async () => {
    const page = await pageOf(tenant.owner.userId);
    const teamLists: string[] = [];
    const onRequest = (r: Request) => void (new URL(r.url()).pathname === '/api/teams' && teamLists.push(r.url()));
    page.on('request', onRequest);
    await page.goto('/app/settings/integrations');
    // The channel picker has Slack's channels (beyond "No digest"): Slack was asked once.
    await until(async () => (await page.getByRole('combobox', { name: 'Digest channel of Alpha' }).locator('option').count()) > 1, true);
    // Likewise the parent-page picker has Notion's pages: Notion was asked once, before we count.
    await until(async () => (await page.getByRole('form', { name: 'Parent page' }).getByLabel('Parent page').locator('option').count()) > 1, true);
    await until(() => text(page, 'live'), 'Live');
    const vendorCalls = () => ({ slack: slack.calls.filter((c) => c.method === 'conversations.list').length, notion: notion.calls.filter((c) => c.path === '/v1/search').length });
    const before = vendorCalls();
    const listsBefore = teamLists.length;
    const heard = await liveEvents(page);
    const posted = await server.as(tenant.owner.apiKey).post('/api/webhooks/v1/deployments', { projectKey: 'acme/live', externalId: 'live-1', ref: 'main', sha: 'abcdef1', environment: 'production', status: 'success' });
    expect(posted.status).to.equal(201);
    // The event reached the page: the team list (ours) was asked again.
    await until(async () => teamLists.length > listsBefore, true);
    await liveAnswered(page, heard + 1);
    expect(vendorCalls()).to.deep.equal(before);
    page.off('request', onRequest);
  });
});
