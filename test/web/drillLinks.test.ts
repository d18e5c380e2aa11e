/**
 * Issue 46 points 2 and 3 in the browser: a drill-through's shared link carries its organisation
 * (`dorg`), so a member whose active organisation is another one is switched to the link's, and a
 * person who is not one of its members is told so instead of seeing a list of their own
 * organisation; and the deployments another source replaced are listed apart, not counted.
 *
 * Beta (September 2026, project beta/app): the webhook API reported 09-03 and 09-10; the project
 * then took code-host deployments, whose records are 09-02 and 09-11. One source per period: the
 * code host counts from 09-02 on, so September is 2 (09-11, 09-02) and the webhook rows are
 * replaced. Alpha has one deployment of its own in September (alpha-1).
 */
import { expect } from 'chai';
import type { Page, Request } from 'playwright-core';
import { buildMember, buildSessionCookie, buildTenant, dbFor, type BuiltTenant, type BuiltUser } from '../helpers/factories.js';
import { factRows, personTab, serverAndBrowser, text, until } from './browser.js';

const SCOPE = 'from=2026-09&to=2026-09';

describe('web app: a drill link carries its organisation; replaced deployments listed apart (Chromium)', function () {
  this.timeout(120_000);
  const suite = serverAndBrowser();
  let alpha: BuiltTenant;
  let beta: BuiltTenant;
  /** A member of both organisations. */
  let both: BuiltUser;
  /** A member of Alpha only. */
  let alphaOnly: BuiltUser;

  before(async () => {
    const { server } = suite;
    alpha = await buildTenant(server.databaseUrl, 'Alpha Org');
    beta = await buildTenant(server.databaseUrl, 'Beta Org');
    both = await buildMember(server.databaseUrl, alpha.tenantId);
    await buildMember(server.databaseUrl, beta.tenantId, 'member', both.email);
    alphaOnly = await buildMember(server.databaseUrl, alpha.tenantId);
    const post = async (tenant: BuiltTenant, projectKey: string, externalId: string, day: string) => {
      const res = await server.as(tenant.owner.apiKey).post('/api/webhooks/v1/deployments', { projectKey, externalId, ref: 'main', sha: 'a'.repeat(40), environment: 'production', status: 'success', createdAt: `${day}T12:00:00Z` });
      expect(res.status).to.equal(201);
    };
    await post(alpha, 'alpha/app', 'alpha-1', '2026-09-05');
    await post(beta, 'beta/app', 'ci-0903', '2026-09-03');
    await post(beta, 'beta/app', 'ci-0910', '2026-09-10');
    // The code host's records, as its webhook or backfill stores them (metadata.source).
    const { pool } = dbFor(server.databaseUrl);
    const [project] = (await pool.query('select id from projects where tenant_id = $1 and project_key = $2', [beta.tenantId, 'beta/app'])).rows;
    for (const [id, day] of [['702', '2026-09-02'], ['711', '2026-09-11']] as const) {
      await pool.query(
        `insert into deployments (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task, is_production, created_at, metadata)
         values ($1, $2, 'codehost', $3, 'main', $4, 'production', 'success', 'deploy', true, $5, '{"source": "deployments"}')`,
        [beta.tenantId, project.id, `gh-deployment-${id}`, 'b'.repeat(40), `${day}T12:00:00Z`],
      );
    }
    const put = await server.as(beta.owner.apiKey).put(`/api/deployment-sources/${project.id}`, { source: 'deployments' });
    expect(put.status, JSON.stringify(put.body)).to.equal(200);
  });

  /** The file's one tab (personTab), signed in as the person with that organisation active: a context of its own cost a page load's CPU again. */
  const tabAs = async (userId: string, tenantId: string) => personTab(suite, await buildSessionCookie(suite.server.databaseUrl, userId, tenantId));

  let shared: string | undefined;
  /** Opens Beta's deployment frequency list from its tile, as the member of both with Beta active: the link to share. */
  async function betaLink(): Promise<string> {
    if (shared) return shared;
    const page = await tabAs(both.userId, beta.tenantId);
    await page.goto(`/app/?${SCOPE}`);
    await page.getByRole('link', { name: 'List the facts behind Deployment frequency' }).click();
    await page.getByRole('dialog', { name: 'Deployment frequency: the facts' }).waitFor();
    await until(() => text(page, 'facts-count'), '2 deployments');
    const url = new URL(page.url());
    expect(url.searchParams.get('dorg')).to.equal(beta.tenantId);
    shared = `${url.pathname}${url.search}`;
    return shared;
  }

  // The external id is a detail column since the lists lead with what explains the number: each
  // seeded deployment is told by its day, which the Created column shows.
  const BY_DAY: Record<string, string> = { '2026-09-02': 'gh-deployment-702', '2026-09-11': 'gh-deployment-711', '2026-09-03': 'ci-0903', '2026-09-10': 'ci-0910', '2026-09-05': 'alpha-1' };
  const externalIds = async (page: Page) => (await factRows(page)).map((r) => BY_DAY[r.find((c) => /^\d{4}-\d{2}-\d{2} /.test(c))?.slice(0, 10) ?? ''] ?? r.join('|'));

  it('lists the deployments another source replaced apart, marked, outside the count; their CSV is its own', async () => {
    const page = await tabAs(both.userId, beta.tenantId);
    await page.goto(`/app/?${SCOPE}&drill=deployments.production_deploys`);
    const panel = page.getByRole('dialog', { name: 'Deployment frequency: the facts' });
    await panel.waitFor();
    await until(() => text(page, 'facts-count'), '2 deployments');
    const replaced = page.getByTestId('facts-replaced');
    await until(() => replaced.getByRole('heading').innerText(), 'Not counted: 2 deployments replaced by another source');
    const countedRows = await panel.locator('table').first().locator('tbody tr:not(.fact-detail)').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => (c as HTMLElement).innerText.trim())));
    const counted = countedRows.map((r) => BY_DAY[r.find((c) => /^\d{4}-\d{2}-\d{2} /.test(c))?.slice(0, 10) ?? ''] ?? r.join('|'));
    expect(counted).to.deep.equal(['gh-deployment-711', 'gh-deployment-702']);
    await until(
      () => replaced.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => (c as HTMLElement).innerText.trim())).map((r) => [r[0], r[1], r.at(-1)])),
      [['ci-0910', 'replaced by code-host deployments', 'deployments'], ['ci-0903', 'replaced by code-host deployments', 'deployments']],
    );
    expect(await replaced.locator('thead th').allInnerTexts()).to.deep.equal(['External id', 'Why it counts', 'Created', 'Sha', 'Project', 'Environment', 'Status', 'Replaced by']);
    expect(await externalIds(page)).to.deep.equal(['gh-deployment-711', 'gh-deployment-702', 'ci-0910', 'ci-0903']);
    const csv = new URL(String(await page.getByTestId('facts-replaced-csv').getAttribute('href')), suite.server.baseUrl);
    expect(Object.fromEntries(csv.searchParams)).to.deep.equal({ measure: 'deployments.production_deploys', from: '2026-09', to: '2026-09', replaced: 'true', format: 'csv' });
  });

  it("a member of both opening Beta's link while Alpha is active is switched to Beta and sees Beta's list", async () => {
    const link = await betaLink();
    const page = await tabAs(both.userId, alpha.tenantId);
    const asked: string[] = [];
    const onRequest = (r: Request) => {
      if (r.url().includes('/api/facts')) asked.push('facts');
      if (r.method() === 'PATCH' && r.url().endsWith('/api/users/me')) asked.push('switch');
    };
    page.on('request', onRequest);
    await page.goto(link);
    await page.getByRole('dialog', { name: 'Deployment frequency: the facts' }).waitFor();
    await until(() => text(page, 'facts-count'), '2 deployments');
    await until(() => externalIds(page), ['gh-deployment-711', 'gh-deployment-702', 'ci-0910', 'ci-0903']);
    await until(() => page.getByLabel('Organisation', { exact: true }).evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.text), 'Beta Org');
    expect(`${new URL(page.url()).pathname}${new URL(page.url()).search}`).to.equal(link);
    // Alpha's list was never asked for: every request for facts came after the switch, as Beta.
    expect(asked[0]).to.equal('switch');
    expect(asked.filter((a) => a === 'switch')).to.have.length(1);
    const [session] = (await dbFor(suite.server.databaseUrl).pool.query(
      'select active_tenant_id from login_sessions where user_id = $1 order by created_at desc limit 1', [both.userId])).rows;
    expect(session.active_tenant_id).to.equal(beta.tenantId);
    page.off('request', onRequest);
  });

  it("a member of Alpha only is told the link belongs to an organisation they cannot see, and asks for no list", async () => {
    const link = await betaLink();
    const page = await tabAs(alphaOnly.userId, alpha.tenantId);
    const asked: string[] = [];
    const onRequest = (r: Request) => { if (r.url().includes('/api/facts')) asked.push(r.url()); };
    page.on('request', onRequest);
    await page.goto(link);
    const panel = page.getByRole('dialog', { name: 'Deployment frequency: the facts' });
    await panel.waitFor();
    await until(() => text(page, 'facts-foreign'), 'This link belongs to an organisation you cannot see.');
    expect(await page.getByTestId('facts-count').count()).to.equal(0);
    expect(await panel.locator('table').count()).to.equal(0);
    expect(asked).to.deep.equal([]);
    await page.getByRole('button', { name: 'Close' }).click();
    await until(() => panel.count(), 0);
    // Alpha's own list opens as before, with Alpha's organisation in its link.
    await page.getByRole('link', { name: 'List the facts behind Deployment frequency' }).click();
    await until(() => text(page, 'facts-count'), '1 deployment');
    expect(new URL(page.url()).searchParams.get('dorg')).to.equal(alpha.tenantId);
    expect(await externalIds(page)).to.deep.equal(['alpha-1']);
    page.off('request', onRequest);
  });
});
