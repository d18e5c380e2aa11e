import { seriousAxe } from './axe.js';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { ensureWebBuilt } from '../../src/webBuild.js';
import { buildMember, buildSessionCookie, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import type { TestServer } from '../helpers/server.js';
import { serverWithFakeJira, type FakeJira } from '../integrations/fakes/fakeJira.js';
import { launch, personTab, screenshot, text, until } from './browser.js';

/** Serious or critical axe findings on the page as it is now. */
async function axeFindings(page: Page): Promise<string[]> {
  const result = await seriousAxe(page).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

describe('web app: Settings › Integrations › Issue trackers (Chromium)', function () {
  this.timeout(120_000);
  let jira: FakeJira;
  let server: TestServer;
  let browser: Browser;
  let tenant: BuiltTenant;

  before(async function () {
    this.timeout(180_000);
    ensureWebBuilt(() => {});
    ({ jira, api: server } = await serverWithFakeJira());
    browser = await launch();
    tenant = await buildTenant(server.databaseUrl, 'Trackers Org');
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await jira?.close();
  });

  /** The file's one tab (personTab), signed in as the person: a context of its own cost a page load's CPU again. */
  const pageOf = async (userId: string) => personTab({ server, browser }, await buildSessionCookie(server.databaseUrl, userId, tenant.tenantId));

  it('the owner connects Jira through its consent page and lands back on the page, which shows the site; then maps a project', async () => {
    const page = await pageOf(tenant.owner.userId);
    await page.goto('/app/settings/integrations');
    const jiraSection = page.getByTestId('tracker-jira');
    await until(() => jiraSection.getByText('Not connected.').count(), 1);
    expect(await page.getByTestId('tracker-linear').innerText()).to.contain('Not configured on this server.');
    await page.getByRole('link', { name: 'Connect Jira Cloud' }).click();
    // The app may add its own search parameters (the period) once it has loaded: compare what the callback set.
    const landed = () => { const u = new URL(page.url()); return Promise.resolve([u.origin + u.pathname, u.searchParams.get('tracker'), u.searchParams.get('result')]); };
    await until(landed, [`${server.baseUrl}/app/settings/integrations`, 'jira', 'connected'], 30_000);
    expect(await text(page, 'tracker-result')).to.equal('Jira Cloud is connected: its issues of the last months are being synced.');
    const { rows } = await dbFor(server.databaseUrl).pool.query('select id, display_name, state from integration_connections where tenant_id = $1', [tenant.tenantId]);
    expect(rows.map((r) => [r.display_name, r.state])).to.deep.equal([['Acme Jira', 'active']]);
    const row = page.getByTestId(`tracker-${rows[0].id}`);
    await until(async () => (await row.locator('th, td').allInnerTexts()).slice(0, 3), ['Acme Jira', 'connected', 'never']);

    await page.getByLabel('Jira project key').fill('ENG');
    await page.getByLabel('Counts for project').fill('not-a-key');
    await page.getByRole('button', { name: 'Map project' }).click();
    await until(() => page.getByRole('alert').innerText().catch(() => '').then((t) => t.includes('mapping.projects.ENG: Must have the form <owner>/<repo>')), true);
    await page.getByLabel('Counts for project').fill('acme/api');
    await page.getByRole('button', { name: 'Map project' }).click();
    await until(() => page.getByTestId(`mapping-${rows[0].id}`).innerText().catch(() => ''), 'ENG → acme/api');
    await screenshot(page, 'settings-integrations-trackers');
  });

  it('the owner maps Jira issue types and statuses to ours: saved, still there after a reload, the API\'s field error shown under its row', async () => {
    const page = await pageOf(tenant.owner.userId);
    await page.goto('/app/settings/integrations');
    const { rows } = await dbFor(server.databaseUrl).pool.query('select id from integration_connections where tenant_id = $1', [tenant.tenantId]);
    const id = rows[0].id as string;
    const form = page.getByRole('form', { name: 'Type and status mapping of Acme Jira' });
    await until(() => form.getByText('None mapped: the defaults apply.').count(), 2);

    // An empty name is caught before anything is sent.
    await form.getByRole('button', { name: 'Add type' }).click();
    expect(await form.getByLabel('Jira issue type').getAttribute('aria-invalid')).to.equal('true');
    expect(await page.locator(`#types-${id}-types-new-error`).innerText()).to.equal('Enter a name');

    await form.getByLabel('Jira issue type').fill('Story');
    await form.getByLabel('Counts as type').last().selectOption('chore');
    await form.getByRole('button', { name: 'Add type' }).click();
    await form.getByLabel('Jira issue type').fill('Problem');
    await form.getByLabel('Counts as type').last().selectOption('incident');
    await form.getByLabel('Jira issue type').press('Enter');
    await form.getByLabel('Jira Cloud status').fill('In Review');
    await form.getByLabel('Counts as state').last().selectOption('in_progress');
    await form.getByRole('button', { name: 'Add status' }).click();
    // A row's own select changes it before saving.
    await form.getByLabel('Counts as type for Story', { exact: true }).selectOption('feature');
    await form.getByRole('button', { name: 'Save types and statuses' }).click();
    await until(() => form.getByRole('status').innerText(), 'Saved. Issues synced from now on use it; Sync again rewrites the past months.');
    const stored = async () => (await dbFor(server.databaseUrl).pool.query('select settings from integration_connections where id = $1', [id])).rows[0].settings.mapping;
    expect(await stored()).to.deep.equal({ projects: { ENG: 'acme/api' }, types: { Story: 'feature', Problem: 'incident' }, states: { 'In Review': 'in_progress' } });

    await page.reload();
    await until(() => page.getByTestId(`types-${id}-types`).locator('tr').allInnerTexts().then((r) => r.map((t) => t.split('\t')[0]!.trim())), ['Problem', 'Story']);
    expect(await form.getByLabel('Counts as type for Problem', { exact: true }).inputValue()).to.equal('incident');
    expect(await form.getByLabel('Counts as type for Story', { exact: true }).inputValue()).to.equal('feature');
    expect(await form.getByLabel('Counts as state for In Review', { exact: true }).inputValue()).to.equal('in_progress');

    // "in review" differs only in case from a mapped status: the API refuses it, the message sits under that row.
    await form.getByLabel('Jira Cloud status').fill('in review');
    await form.getByLabel('Counts as state').last().selectOption('closed');
    await form.getByRole('button', { name: 'Add status' }).click();
    await form.getByRole('button', { name: 'Save types and statuses' }).click();
    const select = form.getByLabel('Counts as state for in review', { exact: true });
    await until(() => select.getAttribute('aria-invalid'), 'true');
    const describedBy = await select.getAttribute('aria-describedby');
    expect(await page.locator(`#${describedBy}`).innerText()).to.equal('Already mapped as “In Review”: names are compared without case');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).to.equal('Counts as state for in review');
    expect(await form.getByRole('alert').count(), 'a field error is not repeated in the alert').to.equal(0);
    expect((await stored()).states).to.deep.equal({ 'In Review': 'in_progress' });
    await screenshot(page, 'settings-integrations-tracker-types');
    expect(await axeFindings(page), 'accessibility of the mapping form with an error shown').to.deep.equal([]);

    // Removing the row and one type, then saving, stores exactly what is shown.
    await form.getByRole('button', { name: 'Remove in review', exact: true }).click();
    await form.getByRole('button', { name: 'Remove Problem', exact: true }).click();
    await form.getByRole('button', { name: 'Save types and statuses' }).click();
    await until(() => form.getByRole('status').innerText(), 'Saved. Issues synced from now on use it; Sync again rewrites the past months.');
    expect(await stored()).to.deep.equal({ projects: { ENG: 'acme/api' }, types: { Story: 'feature' }, states: { 'In Review': 'in_progress' } });
  });

  it('a member sees the connection but no connect, mapping or disconnect control', async () => {
    const member = await buildMember(server.databaseUrl, tenant.tenantId);
    const page = await pageOf(member.userId);
    await page.goto('/app/settings/integrations');
    await until(() => page.getByTestId('tracker-jira').getByText('Acme Jira').count(), 1);
    expect(await page.getByRole('link', { name: 'Connect Jira Cloud' }).count()).to.equal(0);
    expect(await page.getByRole('button', { name: 'Disconnect' }).count()).to.equal(0);
    expect(await page.getByLabel('Jira project key').count()).to.equal(0);
    expect(await page.getByRole('form', { name: 'Type and status mapping of Acme Jira' }).count()).to.equal(0);
  });
});
