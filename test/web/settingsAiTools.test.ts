/**
 * Settings › AI › "AI tools: vendor reports" (docs/ai-vendor-reports.md): an owner saves a Claude
 * Code Analytics key (a refused one is refused on its field), and the section shows the source's
 * last run, last success and last error after pulls.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { pullSource } from '../../src/aiVendors/service.js';
import { withTenant } from '../../src/db/tenancy.js';
import { buildTenant, type BuiltTenant } from '../helpers/factories.js';
import { fakeVendors, type FakeVendors } from '../aiVendors/fakes.js';
import { pageAs, serverAndBrowser, text, until } from './browser.js';

describe('web app: Settings › AI › AI tools (Chromium)', function () {
  this.timeout(90_000);
  const env: Record<string, string> = { JOBS_WORKER_ENABLED: 'false' };
  let fake: FakeVendors;
  before(async () => {
    fake = await fakeVendors();
    env.ANTHROPIC_ADMIN_API_URL = fake.url;
  });
  after(async () => fake?.close());
  const suite = serverAndBrowser({ env });
  let tenant: BuiltTenant;

  before(async () => {
    tenant = await buildTenant(suite.server.databaseUrl, 'AI Tools Org');
  });

  const pull = () => withTenant(tenant.tenantId, () => pullSource(suite.server.running.app, tenant.tenantId, 'claude_code_analytics', {
    jobId: randomUUID(), signal: new AbortController().signal, pace: { sleep: async () => {}, maxWaitSeconds: 120 }, now: () => new Date('2026-11-02T12:00:00Z'),
  }));

  it('saves a key after the vendor accepted it, and shows the last success and the last error', async () => {
    const page = await pageAs(suite, tenant.owner.userId, tenant.tenantId);
    await page.goto('/app/settings/ai');
    const section = page.getByTestId('ai-tools-claude_code_analytics');
    await section.getByText('Not set up.').waitFor();

    await section.getByLabel('Admin API key').fill('sk-ant-admin01-wrong');
    await section.getByRole('button', { name: 'Save' }).click();
    await section.getByText('refused the key (HTTP 401)').first().waitFor();

    await section.getByLabel('Admin API key').fill(fake.claude.key);
    await section.getByLabel('Days to pull back on the first run').fill('3');
    await section.getByRole('button', { name: 'Save' }).click();
    await section.getByText('Last success').waitFor();
    expect(await section.getByRole('button', { name: 'Pull now' }).count()).to.equal(1);
    expect(await page.content()).to.not.contain(fake.claude.key);

    expect((await pull()).outcome).to.equal('pulled');
    fake.claude.key = 'sk-ant-admin01-revoked';
    expect((await pull()).outcome).to.equal('key refused');
    await page.reload();
    await until(() => text(page, 'ai-tools-claude_code_analytics').then((t) => t.includes('days through 2026-11-02')), true);
    const shown = await text(page, 'ai-tools-claude_code_analytics');
    expect(shown).to.contain('Anthropic refused the key (HTTP 401)');
    expect(shown).to.contain('An owner must save a working key');
  });
});
