import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { buildMember, buildTenant, type BuiltTenant } from '../helpers/factories.js';
import type { TestServer } from '../helpers/server.js';
import { pageAs, serverAndBrowser, until } from './browser.js';

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

  it('an owner chooses workflow runs (the workflow file is required, shown under its field); a member only reads', async () => {
    const page = await pageAs(suite, tenant.owner.userId, tenant.tenantId);
    await page.goto('/app/settings/deployments');
    await until(() => rows(page), [['acme/web', 'Not chosen', '1 / 0']]);
    const form = page.getByRole('form', { name: 'Deployment source of acme/web' });
    await form.getByLabel('Source').selectOption('workflow_runs');
    await form.getByRole('button', { name: 'Save acme/web' }).click();
    await until(() => form.getByLabel('Workflow file').getAttribute('aria-invalid'), 'true');
    await form.getByLabel('Workflow file').fill('deploy.yml');
    await form.getByRole('button', { name: 'Save acme/web' }).click();
    await until(() => rows(page), [['acme/web', 'Workflow runs (deploy.yml)', '1 / 0']]);
    const [setting] = (await server.as(tenant.owner.apiKey).get('/api/deployment-sources')).body.data;
    expect(setting).to.deep.include({ source: 'workflow_runs', workflow: 'deploy.yml', branch: null, productionEnvironment: null });

    const member = await buildMember(server.databaseUrl, tenant.tenantId);
    const memberPage = await pageAs(suite, member.userId, tenant.tenantId);
    await memberPage.goto('/app/settings/deployments');
    await until(() => rows(memberPage), [['acme/web', 'Workflow runs (deploy.yml)', '1 / 0']]);
    expect(await memberPage.getByRole('form').count()).to.equal(0);
  });
});
