import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { buildMember, buildTenant, type BuiltTenant } from '../helpers/factories.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import type { TestServer } from '../helpers/server.js';
import { screenshot, serverAndBrowser, tabAs, text, until } from './browser.js';

const HEADER =
  'external_ref,email,display_name,employment_type,supplier_name,cost_centre_code,location_country,team_slug,team_name,team_external_ref,team_cost_centre_code,org_unit_slug,org_unit_name,team_supplier_name,team_delivery_model,team_location_country';
const row = (i: number, email = `p${i}@example.com`, team = 'payments', type = 'employee') =>
  `E${i},${email},Person ${i},${type},,CC-1,GB,${team},${team[0]!.toUpperCase()}${team.slice(1)},HR-${team},CC-1,,,,,`;
const csv = (lines: string[]) => Buffer.from(`${[HEADER, ...lines].join('\n')}\n`);

async function upload(page: Page, kind: 'register' | 'seats', name: string, body: Buffer) {
  await page.setInputFiles(`#${kind}-file`, { name, mimeType: 'text/csv', buffer: body });
  await page.getByRole('button', { name: kind === 'register' ? 'Import register' : 'Import seats' }).click();
}

const problems = (page: Page) =>
  page.locator('[data-testid="register-upload"] [data-testid="import-problems"] tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent)));

describe('web app: Settings › Register and seats (Chromium)', function () {
  this.timeout(90_000);
  const suite = serverAndBrowser({ env: { JOBS_POLL_INTERVAL_MS: '100' } });
  let server: TestServer;
  let tenant: BuiltTenant;
  let page: Page;

  before(async () => {
    ({ server } = suite);
    tenant = await buildTenant(server.databaseUrl, 'Import Org');
    // The file's one tab (tabAs): the member's test, the last, takes it over.
    page = await tabAs(suite, tenant.owner.userId, tenant.tenantId);
    await page.goto('/app/settings/import');
    await page.getByRole('heading', { name: 'Register and seats', level: 1 }).waitFor();
  });

  it('shows every problem of a bad register by line and column, imports nothing, then imports the corrected file', async () => {
    expect(await text(page, 'empty')).to.equal('No register imported yet. Upload one above.');
    await upload(page, 'register', 'register.csv', csv([row(1), row(2, 'not-an-address'), row(3, 'p3@example.com', 'payments', 'robot')]));
    await until(() => problems(page), [
      ['3', 'email', '"not-an-address" is not an e-mail address'],
      ['4', 'employment_type', 'Must be one of employee, contractor, supplier, unknown'],
    ]);
    expect(await page.locator('[data-testid="register-upload"] [role="alert"]').innerText()).to.contain('Register rejected: 2 errors; nothing was imported');
    await screenshot(page, 'settings-import-errors');
    expect((await server.as(tenant.owner.apiKey).get('/api/people')).body.meta.total).to.equal(0);

    await upload(page, 'register', 'register.csv', csv([row(1), row(2), row(3, 'p3@example.com', 'checkout')]));
    await until(() => text(page, 'import-result'), 'Imported 3 rows. rows 3 orgUnits 0 teams 2 people 3 memberships 3');
    expect(await page.locator('[data-testid="register-upload"] [data-testid="import-problems"]').count()).to.equal(0);
    await until(async () => (await page.locator('[data-testid="register-history"] tbody tr').count()), 1);
    const people = await server.as(tenant.owner.apiKey).get('/api/people');
    expect(people.body.data.map((p: { externalRef: string }) => p.externalRef)).to.deep.equal(['E1', 'E2', 'E3']);
  });

  it('imports a large register in the background: the progress bar reaches 100 % and says what was imported', async () => {
    const lines = Array.from({ length: 2500 }, (_, i) => row(i + 1, `p${i + 1}@example.com`, i % 2 ? 'payments' : 'checkout'));
    await upload(page, 'register', 'large.csv', csv(lines));
    const bar = page.getByRole('progressbar', { name: 'Register import progress' });
    await bar.waitFor();
    await until(() => bar.getAttribute('aria-valuenow'), '100', 30_000);
    expect(await text(page, 'import-job-status')).to.equal('Done: imported 2500 rows.');
    await screenshot(page, 'settings-import-async');
    expect((await server.as(tenant.owner.apiKey).get('/api/people')).body.meta.total).to.equal(2500);
  });

  it('imports seats, with the API’s problems shown the same way', async () => {
    const seats = (lines: string[]) => Buffer.from(`external_ref,email,tool,assigned_on,revoked_on\n${lines.join('\n')}\n`);
    await upload(page, 'seats', 'seats.csv', seats(['E1,,github-copilot,2099-01-01,']));
    const seatProblems = page.locator('[data-testid="seats-upload"] [data-testid="import-problems"] tbody tr td');
    await until(async () => (await seatProblems.allInnerTexts()).slice(0, 2), ['2', 'assigned_on']);
    await upload(page, 'seats', 'seats.csv', seats(['E1,,github-copilot,2026-01-05,', ',p2@example.com,cursor,2026-02-01,2026-03-01']));
    await until(() => page.locator('[data-testid="seats-upload"] [data-testid="import-result"] p').innerText(), 'Imported 2 rows.');
  });

  it('a member is told that imports need the owner role and gets no upload control', async () => {
    const member = await buildMember(server.databaseUrl, tenant.tenantId);
    const memberPage = await tabAs(suite, member.userId, tenant.tenantId);
    await memberPage.goto('/app/settings/import');
    await memberPage.getByRole('heading', { name: 'Register and seats', level: 1 }).waitFor();
    await memberPage.getByTestId('register-history').getByRole('cell').first().waitFor();
    // The note comes with the member's role (its own request): waited for, then it is the only one.
    await memberPage.getByText('Only an owner of the organisation imports the register and seats.').waitFor();
    expect(await memberPage.getByText('Only an owner of the organisation imports the register and seats.').count()).to.equal(1);
    expect(await memberPage.locator('input[type="file"]').count()).to.equal(0);
    const refused = await server.as(member.apiKey).post('/api/register/imports', csv([row(9)]).toString(), { 'content-type': 'text/csv' });
    expectRefusal(refused, 403, apiError('forbidden', 'Only an owner of the tenant can do this'));
  });
});
