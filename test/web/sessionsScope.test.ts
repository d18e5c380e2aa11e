/**
 * Issue 46 point 5: the AI sessions page follows the window and team pickers like the other
 * dashboards: it lists the sessions started in the window, and with a team those of its members.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { buildMember, buildSessionCookie, buildTenant, type BuiltTenant, type BuiltUser } from '../helpers/factories.js';
import { personTab, serverAndBrowser, text, until } from './browser.js';

const HEADER = 'external_ref,email,display_name,employment_type,supplier_name,cost_centre_code,location_country,team_slug,team_name,team_external_ref,team_cost_centre_code,org_unit_slug';

describe('web app: the AI sessions page follows the window and team (Chromium)', function () {
  this.timeout(90_000);
  const suite = serverAndBrowser({});
  let tenant: BuiltTenant;
  let ann: BuiltUser;
  let bo: BuiltUser;
  let teams: Record<string, string>;

  before(async () => {
    const { server } = suite;
    tenant = await buildTenant(server.databaseUrl, 'Sessions Scope Org');
    ann = await buildMember(server.databaseUrl, tenant.tenantId);
    bo = await buildMember(server.databaseUrl, tenant.tenantId);
    const csv = [HEADER, `ann,${ann.email},Ann,employee,,CC-1,NL,alpha,Alpha,,,eng`, `bo,${bo.email},Bo,employee,,CC-2,NL,beta,Beta,,,eng`].join('\n') + '\n';
    expect((await server.as(tenant.owner.apiKey).post('/api/register/imports', csv, { 'content-type': 'text/csv' })).status).to.equal(201);
    teams = Object.fromEntries((await server.as(tenant.owner.apiKey).get('/api/teams')).body.data.map((t: { slug: string; id: string }) => [t.slug, t.id]));
    for (const [user, startedAt, tool] of [[ann, '2026-03-10T09:00:00Z', 'ann-march'], [ann, '2026-05-02T09:00:00Z', 'ann-may'], [bo, '2026-03-11T09:00:00Z', 'bo-march']] as const) {
      expect((await server.as(user.apiKey).post('/api/sessions', { tool, startedAt })).status).to.equal(201);
    }
  });

  const tools = (page: Page) => page.getByTestId('sessions').locator('tbody tr td:nth-of-type(2)').allInnerTexts();

  it('lists the window\'s sessions, then the team\'s when one is picked; another window empties it and says so', async () => {
    const page = await personTab(suite, await buildSessionCookie(suite.server.databaseUrl, tenant.owner.userId, tenant.tenantId));
    await page.goto('/app/ai?from=2026-03&to=2026-03');
    await page.getByRole('link', { name: 'The sessions' }).click();
    await page.getByRole('heading', { name: 'AI sessions', level: 1 }).waitFor();
    expect(new URL(page.url()).searchParams.get('from')).to.equal('2026-03');
    await until(() => tools(page), ['bo-march', 'ann-march']);
    expect(await text(page, 'sessions-scope')).to.equal('Sessions started 1 Mar 2026 to 31 Mar 2026 (the window and team above).');

    await page.getByLabel('Team', { exact: true }).selectOption({ label: 'Alpha' });
    await until(() => tools(page), ['ann-march']);
    expect(new URL(page.url()).searchParams.get('team')).to.equal(teams.alpha);
    await until(() => text(page, 'sessions-scope'), 'Sessions started 1 Mar 2026 to 31 Mar 2026 by the members of Alpha (the window and team above).');

    await page.getByLabel('To', { exact: true }).fill('2026-05');
    await until(() => tools(page), ['ann-may', 'ann-march']);

    await page.goto(`/app/ai/sessions?from=2026-04&to=2026-04&team=${teams.beta}`);
    await until(() => text(page, 'empty'), 'No AI session started 1 Apr 2026 to 30 Apr 2026 by the members of Beta.');
  });
});
