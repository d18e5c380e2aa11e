/**
 * A tenant for each team's DORA rating and the organisation's (issue 47 point 4), seeded as
 * production would be: the register import and project ownership, deployments through the webhook
 * API, pull requests through the code host's signed webhook. Window: March 2026 (31 days).
 *
 * - Alpha owns acme/api: a successful production deployment every day of March at 12:00 (a1..a31,
 *   31: 1 a day → elite); a failure f1 on 03-10 13:00, recovered by the next success a11 on 03-11
 *   12:00 (23 h → high); change failure rate 1 failed ÷ 32 finished = 0.03125 (elite). Pull
 *   requests (no commits pushed, so a change starts at its createdAt), each deployed by the next
 *   12:00 deployment: #1 opened 03-05 10:00, merged 11:00 → a5 (2 h); #2 opened 03-03 12:00, merged
 *   03-06 13:00 → a7 03-07 12:00 (96 h); #3 opened 03-08 00:00, merged 06:00 → a8 (12 h). Lead time
 *   for changes p50 = 12 h, n 3 (elite). Overall: the lowest of elite, elite, elite, high = high.
 * - Beta owns acme/web: successes b1 on 03-01 and b2 on 03-16 (2 over 31 days = 0.0645 a day:
 *   medium, at least 1/30 and under 1/7); no failure (change failure rate 0, elite); no PR, so no
 *   lead time; nothing to recover. Overall over 2 of 4 measures: medium.
 * - The organisation: 33 successful production deployments over 31 days = 1.0645 a day, "elite" by
 *   the total. Rated by the median project instead: the median of acme/api's 1 and acme/web's
 *   0.0645 = 0.5323 a day → high. Its overall band is then high too.
 */
import { announceInstallation, deliver, mergedPullRequest } from '../activity/helpers.js';
import type { TestServer } from '../helpers/server.js';

const HEADER = 'external_ref,email,display_name,employment_type,supplier_name,cost_centre_code,location_country,team_slug,team_name,team_external_ref,team_cost_centre_code,org_unit_slug';
export const MARCH = ['2026-03-01', '2026-03-31'] as const;
const day = (d: number) => String(d).padStart(2, '0');

export interface SeededTeamDora {
  teams: { alpha: string; beta: string };
}

export async function seedTeamDora(server: TestServer, ownerKey: string, tenantId: string): Promise<SeededTeamDora> {
  const api = server.as(ownerKey);
  const tag = tenantId.slice(0, 8);
  const csv = [HEADER, `a1,a1-${tag}@example.com,Ann,employee,,CC-1,NL,alpha,Alpha,,,eng`, `b1,b1-${tag}@example.com,Bo,employee,,CC-2,NL,beta,Beta,,,eng`].join('\n') + '\n';
  const imported = await api.post('/api/register/imports', csv, { 'content-type': 'text/csv' });
  if (imported.status >= 300) throw new Error(`register import: ${imported.status} ${imported.text}`);
  const listed = await api.get('/api/teams?perPage=100');
  const ids: Record<string, string> = Object.fromEntries(listed.body.data.map((t: { slug: string; id: string }) => [t.slug, t.id]));
  for (const [slug, project] of [['alpha', 'acme/api'], ['beta', 'acme/web']] as const) {
    const r = await api.patch(`/api/teams/${ids[slug]}`, { projects: [project] });
    if (r.status !== 200) throw new Error(`assign ${project}: ${r.status} ${r.text}`);
  }

  const deploy = async (projectKey: string, externalId: string, createdAt: string, status = 'success') => {
    const r = await api.post('/api/webhooks/v1/deployments', { projectKey, externalId, ref: 'main', sha: Buffer.from(externalId).toString('hex').padEnd(40, '0'), environment: 'production', status, createdAt });
    if (r.status >= 300) throw new Error(`deployment: ${r.status} ${r.text}`);
  };
  const alpha = Array.from({ length: 31 }, (_, i) => deploy('acme/api', `a${i + 1}`, `2026-03-${day(i + 1)}T12:00:00Z`));
  await Promise.all([...alpha, deploy('acme/api', 'f1', '2026-03-10T13:00:00Z', 'failure'), deploy('acme/web', 'b1', '2026-03-01T12:00:00Z'), deploy('acme/web', 'b2', '2026-03-16T12:00:00Z')]);

  const installationId = Number.parseInt(tenantId.replace(/-/g, '').slice(0, 7), 16);
  await announceInstallation(server.databaseUrl, installationId);
  const linked = await api.post('/api/integrations/codehost/installations', { installationId });
  if (linked.status !== 201) throw new Error(`link installation: ${linked.status} ${linked.text}`);
  const merged = async (number: number, created: string, mergedAt: string) => {
    const event = mergedPullRequest('acme/api', { id: installationId * 100 + number, number, created_at: created, merged_at: mergedAt, merge_commit_sha: `${number}`.padEnd(40, 'c') });
    const r = await deliver(server, 'pull_request', event, { installationId });
    if (r.status !== 200 || r.body.data?.stored !== true) throw new Error(`pull_request: ${r.status} ${r.text}`);
  };
  await merged(1, '2026-03-05T10:00:00Z', '2026-03-05T11:00:00Z');
  await merged(2, '2026-03-03T12:00:00Z', '2026-03-06T13:00:00Z');
  await merged(3, '2026-03-08T00:00:00Z', '2026-03-08T06:00:00Z');
  return { teams: { alpha: ids.alpha as string, beta: ids.beta as string } };
}
