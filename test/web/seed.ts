/**
 * The browser tests' tenant, seeded as the README's setup runs: the register import, project
 * ownership and deployments and incidents through the real API, pull requests from the code-host
 * application's signed webhook (the server needs SEED_ENV), and surveys (no push API) as the rows
 * their service stores. Every value the tests assert is worked out here by hand, for the window
 * 2026-01..2026-03.
 */
import { announceInstallation, codehostEnv, deliver, mergedPullRequest } from '../activity/helpers.js';
import type { TestServer } from '../helpers/server.js';
import { dbFor } from '../helpers/factories.js';

export const WINDOW = { from: '2026-01', to: '2026-03' };
export const SCOPE = `from=${WINDOW.from}&to=${WINDOW.to}`;
/** The server environment seedTenant needs: the code-host application, whose webhook delivers the PRs. */
export const SEED_ENV = codehostEnv();

const HEADER = 'external_ref,email,display_name,employment_type,supplier_name,cost_centre_code,location_country,team_slug,team_name,team_external_ref,team_cost_centre_code,org_unit_slug';

export interface Seeded {
  teams: Record<string, string>;
}

/** A deployment's sha, which the PR it ships names as its merge commit. */
const shaOf = (deployment: string) => deployment.padEnd(40, '0');

/**
 * Alpha owns acme/api: production deployments 2026-01-10 ok, 02-05 failure, 02-05 06:00 ok
 * (recovers the failure in 6 h), 03-01 12:00 ok, 03-02 12:00 ok; one in 2025-11 (previous window).
 * In the window: 4 successful of 5 finished → 1 failed, change failure rate 20 %, recovery 6 h (n 1).
 * Incident opened 03-05 (no deployment within 24 h before) closed 3 h later: time to restore 3 h (n 1).
 * PRs (merged through the code host's webhook into the same project as the webhook deployments; no
 * pushes, so lead time starts at createdAt): Jan 08→09 merged, deployed by d1 01-10 (lead 48 h);
 * Feb 28→Mar 01 merged, deployed by d4 03-01 12:00 (lead 36 h); Mar 01 06:00→Mar 02 merged, label
 * ai-assisted, deployed by d5 03-02 12:00 (lead 30 h). Each PR's merge commit is its deployment's
 * sha. Cycle times 24, 24, 18 h → p50 24 h (n 3); lead time p50 36 h (n 3). Beta owns acme/web,
 * which never sent a deployment. Empty owns nothing.
 * Survey in Feb 2026: Alpha 3 invited, 3 answered all 4s → score 75.0; Beta 1 invited, 1 answered →
 * fewer than 3 responses.
 */
export async function seedTenant(server: TestServer, ownerKey: string, tenantId: string, names = { alpha: 'Alpha', beta: 'Beta', empty: 'Empty' }): Promise<Seeded> {
  const api = server.as(ownerKey);
  const tag = tenantId.slice(0, 8);
  const csv = [
    HEADER,
    `a1,a1-${tag}@example.com,Ann,employee,,CC-1,NL,alpha,${names.alpha},,,eng`,
    `a2,a2-${tag}@example.com,Bo,employee,,CC-1,NL,alpha,${names.alpha},,,eng`,
    `a3,a3-${tag}@example.com,Cy,supplier,Acme,CC-1,NL,alpha,${names.alpha},,,eng`,
    `b1,b1-${tag}@example.com,Di,employee,,CC-2,NL,beta,${names.beta},,,eng`,
    `e1,e1-${tag}@example.com,Ed,employee,,CC-3,NL,empty,${names.empty},,,eng`,
  ].join('\n') + '\n';
  const imported = await api.post('/api/register/imports', csv, { 'content-type': 'text/csv' });
  if (imported.status >= 300) throw new Error(`register import: ${imported.status} ${imported.text}`);
  const listed = await api.get('/api/teams?perPage=100');
  const teams: Record<string, string> = Object.fromEntries(listed.body.data.map((t: { slug: string; id: string }) => [t.slug, t.id]));
  for (const [slug, project] of [['alpha', 'acme/api'], ['beta', 'acme/web']] as const) {
    const r = await api.patch(`/api/teams/${teams[slug]}`, { projects: [project] });
    if (r.status !== 200) throw new Error(`assign ${project}: ${r.status} ${r.text}`);
  }
  const deploy = async (externalId: string, createdAt: string, status: string) => {
    const r = await api.post('/api/webhooks/v1/deployments', { projectKey: 'acme/api', externalId, ref: 'main', sha: shaOf(externalId), environment: 'production', status, createdAt });
    if (r.status >= 300) throw new Error(`deployment: ${r.status} ${r.text}`);
  };
  await deploy('d0', '2025-11-01T00:00:00Z', 'success');
  await deploy('d1', '2026-01-10T00:00:00Z', 'success');
  await deploy('d2', '2026-02-05T00:00:00Z', 'failure');
  await deploy('d3', '2026-02-05T06:00:00Z', 'success');
  await deploy('d4', '2026-03-01T12:00:00Z', 'success');
  await deploy('d5', '2026-03-02T12:00:00Z', 'success');
  const incident = await api.post('/api/webhooks/v1/issues', { projectKey: 'acme/api', externalId: 'inc-1', title: 'Outage', type: 'incident', state: 'closed', createdAt: '2026-03-05T00:00:00Z', closedAt: '2026-03-05T03:00:00Z' });
  if (incident.status >= 300) throw new Error(`incident: ${incident.status} ${incident.text}`);

  // The tenant's own installation of the code-host application (an installation feeds one tenant).
  const installationId = Number.parseInt(tenantId.replace(/-/g, '').slice(0, 7), 16);
  await announceInstallation(server.databaseUrl, installationId);
  const linked = await api.post('/api/integrations/codehost/installations', { installationId });
  if (linked.status !== 201) throw new Error(`link installation (is the server started with SEED_ENV?): ${linked.status} ${linked.text}`);
  const pr = async (n: number, created: string, merged: string, deployment: string, labels: string[] = []) => {
    const event = mergedPullRequest('acme/api', {
      id: installationId * 10 + n, number: n, title: 'change', user: { login: 'ann' }, additions: 10, deletions: 5, changed_files: 0, commits: 0,
      labels: labels.map((name) => ({ name })), created_at: created, merged_at: merged, merge_commit_sha: shaOf(deployment),
    });
    const r = await deliver(server, 'pull_request', event, { installationId });
    if (r.status !== 200 || r.body.data?.stored !== true) throw new Error(`pull request: ${r.status} ${r.text}`);
  };
  await pr(1, '2026-01-08T00:00:00Z', '2026-01-09T00:00:00Z', 'd1');
  await pr(2, '2026-02-28T00:00:00Z', '2026-03-01T00:00:00Z', 'd4');
  await pr(3, '2026-03-01T06:00:00Z', '2026-03-02T00:00:00Z', 'd5', ['ai-assisted']);

  const { pool } = dbFor(server.databaseUrl);
  const survey = (await pool.query(`insert into surveys (tenant_id, title, opens_on, closes_on) values ($1, 'Pulse', '2026-02-01', '2026-02-20') returning id`, [tenantId])).rows[0].id as string;
  const people = (await pool.query(`select p.id, m.team_id from people p join team_memberships m on m.person_id = p.id where p.tenant_id = $1`, [tenantId])).rows as { id: string; team_id: string }[];
  for (const slug of ['alpha', 'beta']) {
    await pool.query(`insert into survey_teams (survey_id, team_id, tenant_id) values ($1, $2, $3)`, [survey, teams[slug], tenantId]);
    for (const person of people.filter((p) => p.team_id === teams[slug])) {
      await pool.query(`insert into survey_invitations (tenant_id, survey_id, team_id, person_id) values ($1, $2, $3, $4)`, [tenantId, survey, teams[slug], person.id]);
      await pool.query(`insert into survey_responses (tenant_id, survey_id, team_id, response_key, q1, q2, q3, q4, q5) values ($1, $2, $3, $4, 4, 4, 4, 4, 4)`, [tenantId, survey, teams[slug], person.id]);
    }
  }
  return { teams };
}
