import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { buildMember, buildSessionCookie, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import type { TestServer } from '../helpers/server.js';
import { seriousAxe } from './axe.js';
import { personTab, serverAndBrowser, signedIn, until } from './browser.js';

const rows = (page: Page) =>
  page.locator('[data-testid="deployment-sources"] tbody tr').evaluateAll((trs) => trs.map((r) => [...r.querySelectorAll('th, td')].map((c) => (c.textContent ?? '').trim())));

describe('web app: Settings › Deployment sources (Chromium)', function () {
  this.timeout(90_000);
  const suite = serverAndBrowser({});
  let server: TestServer;
  let tenant: BuiltTenant;

  before(async () => {
    ({ server } = suite);
    tenant = await buildTenant(server.databaseUrl, 'Deploy Sources Org');
    const posted = await server.as(tenant.owner.apiKey).post('/api/webhooks/v1/deployments', {
      projectKey: 'acme/web', externalId: 'd1', ref: 'main', sha: '9fceb02d0ae598e95dc970b74767f19372d61af8', environment: 'production', status: 'success',
    });
    expect(posted.status).to.equal(201);
  });
  // The file's tabs (personTab): owners in one, members in another (a test keeps the owner's page while a member looks).
  const tabAs = async (userId: string, tenantId: string, kind = 'plain') => personTab(suite, await buildSessionCookie(server.databaseUrl, userId, tenantId), kind);

  it('an owner chooses workflow runs (the workflow file is required, shown under its field); a member only reads', async () => {
    const page = await tabAs(tenant.owner.userId, tenant.tenantId);
    await page.goto('/app/settings/deployments');
    // No source chosen, the webhook API's row counts: the page names the webhook API (issue 46 point 5).
    await until(() => rows(page), [['acme/web', 'Webhook API (POST /api/webhooks/v1/deployments), not chosen yet', '1 / 0', 'Not run']]);
    const form = page.getByRole('form', { name: 'Deployment source of acme/web' });
    await form.getByLabel('Source').selectOption('workflow_runs');
    await form.getByRole('button', { name: 'Save acme/web' }).click();
    await until(() => form.getByLabel('Workflow file').getAttribute('aria-invalid'), 'true');
    await form.getByLabel('Workflow file').fill('deploy.yml');
    await form.getByRole('button', { name: 'Save acme/web' }).click();
    await until(() => rows(page), [['acme/web', 'Workflow runs (deploy.yml)', '1 / 0', 'Not run']]);
    const [setting] = (await server.as(tenant.owner.apiKey).get('/api/deployment-sources')).body.data;
    expect(setting).to.deep.include({ source: 'workflow_runs', workflow: 'deploy.yml', branch: null, productionEnvironment: null });

    const member = await buildMember(server.databaseUrl, tenant.tenantId);
    const memberPage = await tabAs(member.userId, tenant.tenantId, 'member');
    await memberPage.goto('/app/settings/deployments');
    await until(() => rows(memberPage), [['acme/web', 'Workflow runs (deploy.yml)', '1 / 0', 'Not run']]);
    expect(await memberPage.getByRole('form').count()).to.equal(0);
  });

  it('the controls follow `actions` of /api/users/me, not the role: an owner without the action reads, a member with it gets the forms', async () => {
    const member = await buildMember(server.databaseUrl, tenant.tenantId);
    /** The page as the user, with /api/users/me's `actions` replaced (its role left as the server says). */
    const pageWith = async (userId: string, actions: (list: string[]) => string[]) => {
      const context = await signedIn(suite.browser, server.baseUrl, await buildSessionCookie(server.databaseUrl, userId, tenant.tenantId));
      const page = await context.newPage();
      await page.route('**/api/users/me', async (route) => {
        const res = await route.fetch();
        const body = await res.json();
        await route.fulfill({ response: res, json: { ...body, data: { ...body.data, actions: actions(body.data.actions) } } });
      });
      await page.goto('/app/settings/deployments');
      await until(() => rows(page), [['acme/web', 'Workflow runs (deploy.yml)', '1 / 0', 'Not run']]);
      return page;
    };
    const owner = await pageWith(tenant.owner.userId, (list) => list.filter((a) => a !== 'deploymentSource.manage'));
    expect(await owner.getByRole('form').count()).to.equal(0);
    // The other actions still hold: the menu keeps BI access (bi.manage) for this owner.
    expect(await owner.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'BI access' }).count()).to.equal(1);
    await owner.context().close();

    const allowed = await pageWith(member.userId, (list) => [...list, 'deploymentSource.manage']);
    await allowed.getByRole('form', { name: 'Deployment source of acme/web' }).waitFor();
    expect(await allowed.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'BI access' }).count()).to.equal(0);
    await allowed.context().close();
  });

  it('an owner sets the organisation-wide workflow pattern (an empty one is refused under its field) and removes it; a member only reads it', async () => {
    const org = await buildTenant(server.databaseUrl, 'Pattern Org');
    const page = await tabAs(org.owner.userId, org.tenantId);
    await page.goto('/app/settings/deployments');
    const panel = page.getByTestId('organisation-pattern');
    await until(() => panel.getByText('No pattern: only a project’s own workflow counts as its deployment.').count(), 1);
    const form = page.getByRole('form', { name: 'Organisation-wide workflow pattern' });

    await form.getByRole('button', { name: 'Save pattern' }).click();
    await until(() => form.getByLabel('Workflow pattern').getAttribute('aria-invalid'), 'true');
    expect(await page.locator('#organisation-pattern-pattern\\.workflow-error').textContent()).to.equal('Give a workflow file name or pattern, without spaces, e.g. deploy*.yml.');
    expect((await server.as(org.owner.apiKey).get('/api/deployment-sources/organisation')).body.data).to.deep.equal({ pattern: null });

    await form.getByLabel('Workflow pattern').fill('deploy*.yml');
    await form.getByLabel('Pattern branch').fill('release');
    await form.getByRole('button', { name: 'Save pattern' }).click();
    await until(() => panel.locator('p').first().textContent(), 'Runs of deploy*.yml on release are the deployments of projects with no source yet or with workflow runs but no workflow of their own.');
    expect((await server.as(org.owner.apiKey).get('/api/deployment-sources/organisation')).body.data).to.deep.equal({ pattern: { workflow: 'deploy*.yml', branch: 'release' } });
    const axe = await seriousAxe(page).analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).to.deep.equal([]);

    const member = await buildMember(server.databaseUrl, org.tenantId);
    const memberPage = await tabAs(member.userId, org.tenantId, 'member');
    await memberPage.goto('/app/settings/deployments');
    await until(() => memberPage.getByTestId('organisation-pattern').locator('p').first().textContent(), 'Runs of deploy*.yml on release are the deployments of projects with no source yet or with workflow runs but no workflow of their own.');
    expect(await memberPage.getByRole('form').count()).to.equal(0);

    await form.getByRole('button', { name: 'Remove pattern' }).click();
    await page.getByRole('group', { name: 'Remove the organisation-wide pattern?' }).getByRole('button', { name: 'Remove' }).click();
    await until(() => panel.locator('p').first().textContent(), 'No pattern: only a project’s own workflow counts as its deployment.');
    expect((await server.as(org.owner.apiKey).get('/api/deployment-sources/organisation')).body.data).to.deep.equal({ pattern: null });
  });

  it('a project whose source is the webhook API names it, in the table and the source picker; one with no deployment says not chosen', async () => {
    const org = await buildTenant(server.databaseUrl, 'Webhook Source Org');
    const posted = await server.as(org.owner.apiKey).post('/api/webhooks/v1/deployments', {
      projectKey: 'acme/piped', externalId: 'd1', ref: 'main', sha: '9fceb02d0ae598e95dc970b74767f19372d61af8', environment: 'production', status: 'success',
    });
    expect(posted.status).to.equal(201);
    // acme/quiet: a project with no deployment stored and no source (its pull requests came first).
    await dbFor(server.databaseUrl).pool.query(`insert into projects (tenant_id, provider, project_key, source_type) values ($1, 'manual', 'acme/quiet', 'manual')`, [org.tenantId]);
    const [piped] = (await server.as(org.owner.apiKey).get('/api/deployment-sources')).body.data.filter((s: { projectKey: string }) => s.projectKey === 'acme/piped');
    expect((await server.as(org.owner.apiKey).put(`/api/deployment-sources/${piped.projectId}`, { source: 'webhook' })).status).to.equal(200);
    const page = await tabAs(org.owner.userId, org.tenantId);
    await page.goto('/app/settings/deployments');
    await until(() => rows(page), [
      ['acme/piped', 'Webhook API (POST /api/webhooks/v1/deployments)', '1 / 0', 'Not run'],
      ['acme/quiet', 'Not chosen', '0 / 0', 'Not run'],
    ]);
    const picker = page.getByRole('form', { name: 'Deployment source of acme/piped' }).getByLabel('Source');
    expect(await picker.locator('option:checked').textContent()).to.equal('Webhook API (POST /api/webhooks/v1/deployments)');
  });

  it('each project shows its 90-day backfill from the code host: finished, waiting for the rate limit, stopped', async () => {
    const org = await buildTenant(server.databaseUrl, 'Backfill Org');
    const keys = ['acme/done', 'acme/stopped', 'acme/waiting'];
    for (const [i, projectKey] of keys.entries()) {
      const posted = await server.as(org.owner.apiKey).post('/api/webhooks/v1/deployments', {
        projectKey, externalId: `d${i}`, ref: 'main', sha: '9fceb02d0ae598e95dc970b74767f19372d61af8', environment: 'production', status: 'success',
      });
      expect(posted.status).to.equal(201);
    }
    const pool = dbFor(server.databaseUrl).pool;
    const insert = (key: string, columns: string) => pool.query(`insert into codehost_backfills (tenant_id, project_id, source, since, applied, cursor, finished_at, waiting_until, last_error)
      select tenant_id, id, 'deployments', '2026-08-29T00:00:00Z', ${columns} from projects where tenant_id = $1 and project_key = $2`, [org.tenantId, key]);
    await insert('acme/done', `6, null, now(), null, null`);
    await insert('acme/stopped', `2, '{"phase":"apply","items":[1,2,3],"index":2}', null, null, 'the code-host application is not installed on acme/stopped'`);
    await insert('acme/waiting', `0, null, null, now() + interval '20 minutes', 'rate limited'`);
    const page = await tabAs(org.owner.userId, org.tenantId);
    await page.goto('/app/settings/deployments');
    const cells = async () => (await rows(page)).map((r) => [r[0], r[3]?.replace(/until .*$/, 'until <time>')]);
    await until(cells, [
      ['acme/done', 'Code-host deployments: 6 read since 29 Aug 2026'],
      ['acme/stopped', 'Code-host deployments: stopped after 2: the code-host application is not installed on acme/stopped'],
      ['acme/waiting', 'Code-host deployments: 0 read; waiting for the code host’s rate limit until <time>'],
    ]);
  });
});
