/**
 * Settings › AI, attribution (docs/ai-attribution.md), in Chromium: an owner adds a label of the
 * organisation's (the API's field error first) and sees, per signal, the merged PRs of the last
 * three months it found; a member sees the labels read and neither the form nor the counts.
 * Seeded in SQL: two merged PRs of this month, one labelled ai-assisted, one on a copilot/ branch.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { buildMember, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import type { TestServer } from '../helpers/server.js';
import { screenshot, serverAndBrowser, tabAs, until } from './browser.js';

describe('web app: Settings › AI, attribution (Chromium)', function () {
  this.timeout(60_000);
  const suite = serverAndBrowser();
  let server: TestServer;
  let browser: Browser;
  let tenant: BuiltTenant;

  before(async () => {
    ({ server, browser } = suite);
    tenant = await buildTenant(server.databaseUrl, 'Attribution Org');
    const { pool } = dbFor(server.databaseUrl);
    const [project] = (await pool.query(`insert into projects (tenant_id, provider, project_key, source_type) values ($1, 'manual', 'acme/app', 'manual') returning id`, [tenant.tenantId])).rows;
    const merged = new Date(Date.now() - 3600_000).toISOString();
    for (const [n, labels, branch] of [[1, ['ai-assisted'], 'feat-1'], [2, [], 'copilot/fix-2'], [3, ['Made-By-Bot'], 'feat-3']] as const) {
      await pool.query(
        `insert into pull_requests (tenant_id, project_id, external_id, number, title, author_username, state, labels, head_branch, created_at, merged_at)
         values ($1, $2, $3, $4, $5, 'ann', 'merged', $6, $7, $8, $8)`,
        [tenant.tenantId, project.id, `pr-${n}`, n, `Change ${n}`, labels, branch, merged],
      );
    }
  });

  it('an owner saves a label and reads the merged PRs each signal found', async () => {
    const page = await tabAs(suite, tenant.owner.userId, tenant.tenantId);
    await page.goto('/app/settings/ai');
    await until(() => page.getByTestId('ai-labels').innerText(), 'Labels read: ai-assisted');
    const levels = page.getByTestId('ai-signals-levels');
    await until(async () => (await levels.count()) > 0 && (await levels.innerText()).includes('3 merged PRs; high 0, medium 2, low 0, none 1.'), true);
    const counts = async () => Object.fromEntries((await page.locator('[data-testid="ai-signals"] tbody tr').allInnerTexts()).map((row) => {
      const cells = row.split('\t');
      return [cells[0], cells[2]];
    }));
    expect(await counts()).to.deep.include({ 'AI label': '1', 'Agent branch prefix': '1', 'AI session linked (uploaded or captured)': '0' });

    const field = page.getByLabel('Labels besides ai-assisted');
    await field.fill('x'.repeat(51));
    await page.getByRole('button', { name: 'Save labels' }).click();
    await until(() => field.getAttribute('aria-invalid'), 'true');

    await field.fill('Made-By-Bot, made-by-bot');
    await page.getByRole('button', { name: 'Save labels' }).click();
    await until(() => page.getByTestId('ai-labels').innerText(), 'Labels read: ai-assisted, made-by-bot');
    await until(async () => (await levels.innerText()).includes('high 0, medium 3, low 0, none 0.'), true);
    expect(await counts()).to.deep.include({ 'AI label': '2' });
    await screenshot(page, 'settings-ai-attribution');
  });

  it('a member sees the labels read, neither the form nor the counts', async () => {
    const member = await buildMember(server.databaseUrl, tenant.tenantId, 'member', `member-attr-${Date.now()}@example.com`);
    const page = await tabAs(suite, member.userId, tenant.tenantId);
    await page.goto('/app/settings/ai');
    await until(async () => (await page.getByTestId('ai-labels').count()) > 0 && (await page.getByTestId('ai-labels').innerText()).startsWith('Labels read: ai-assisted'), true);
    expect(await page.getByLabel('Labels besides ai-assisted').count()).to.equal(0);
    expect(await page.getByTestId('ai-signals').count()).to.equal(0);
    void browser;
  });
});
