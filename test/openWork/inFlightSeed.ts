/**
 * Work in flight a manager acts on (issue 47 point 5), seeded as production would be: the register
 * import and project ownership, deployments through the webhook API, pull requests and reviews
 * from the code host's signed webhook. Times are hours before the seed started, so ages are fixed.
 *
 * Teams: Alpha owns acme/api (a deployment source), Beta owns acme/web (never sent a deployment).
 * acme/api production deployments: d1 success 100 h ago, d2 success 30 h ago, d3 failure 5 h ago.
 *
 * Merged PRs of acme/api (author ann), with Alpha's pickup (first review by someone else, not a bot):
 * - #1 opened 120 h, bo approved 116 h (pickup 4 h), merged 110 h → shipped by d1.
 * - #2 opened 60 h, cy commented 58 h (2 h), merged 50 h → shipped by d2.
 * - #3 opened 30 h, reviewed only by ann herself (commented 29 h) and dependabot[bot] (approved
 *   28 h): merged without review (no pickup), merged 20 h → not shipped (d3 failed): age 20 h.
 * - #4 opened 10 h, bo approved 4 h (6 h), merged 2 h → not shipped: age 2 h.
 * - #10 opened 80 h as a draft, made ready 72 h, bo commented 68 h (4 h from ready; 12 h from the
 *   opening, which is what counting from the opening would give), merged 64 h → shipped by d2.
 * Alpha's pickup median: 4 h over n 4 (#2 2 h, #1 4 h, #10 4 h, #4 6 h): the cube's
 * pull_requests.pickup_time_p50_seconds (counted from the opening instead, 5 h).
 * Beta: acme/web #21 merged 10 h ago, never listed as undeployed (no deployment source); no
 * reviewed merge, so no pickup median: its open #22 (50 h, no review) is not listed either.
 *
 * Open PRs of acme/api:
 * - #9 opened 12 h, only ann's own comment → waiting 12 h > 4 h: listed, nobody asked.
 * - #5 opened 8 h, bo asked, no review → waiting 8 h: listed, requested [bo].
 * - #7 opened 9 h, cy commented 7 h → has its first review: not listed.
 * - #6 opened 3 h, no review → 3 h < 4 h: not listed.
 * - #8 opened 20 h as a draft → not ready for review: not listed.
 */
import { createRequire } from 'node:module';
import { announceInstallation, deliver, fixture } from '../activity/helpers.js';
import type { TestServer } from '../helpers/server.js';
import { hoursAgo, shaOf } from './seed.js';

const require = createRequire(import.meta.url);
const HEADER = 'external_ref,email,display_name,employment_type,supplier_name,cost_centre_code,location_country,team_slug,team_name,team_external_ref,team_cost_centre_code,org_unit_slug';

export interface SeededInFlight {
  teams: { alpha: string; beta: string };
  at: (hours: number) => string;
}

export async function seedInFlight(server: TestServer, ownerKey: string, tenantId: string): Promise<SeededInFlight> {
  const api = server.as(ownerKey);
  const start = Date.now();
  const at = (hours: number) => hoursAgo(start, hours);
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

  const deploy = async (externalId: string, hours: number, status: string) => {
    const r = await api.post('/api/webhooks/v1/deployments', { projectKey: 'acme/api', externalId, ref: 'main', sha: shaOf(externalId), environment: 'production', status, createdAt: at(hours) });
    if (r.status >= 300) throw new Error(`deployment: ${r.status} ${r.text}`);
  };
  await deploy('d1', 100, 'success');
  await deploy('d2', 30, 'success');
  await deploy('d3', 5, 'failure');

  const installationId = Number.parseInt(tenantId.replace(/-/g, '').slice(0, 7), 16);
  await announceInstallation(server.databaseUrl, installationId);
  const linked = await api.post('/api/integrations/codehost/installations', { installationId });
  if (linked.status !== 201) throw new Error(`link installation: ${linked.status} ${linked.text}`);
  const send = async (event: string, payload: object) => {
    const r = await deliver(server, event, payload, { installationId });
    if (r.status !== 200 || r.body.data?.stored !== true) throw new Error(`${event}: ${r.status} ${r.text}`);
  };
  interface Pr { repo: string; number: number; opened: number; merged?: number; draft?: boolean; action?: string; updated?: number }
  const pr = async (p: Pr) => {
    const event = fixture('pull_request.opened');
    event.action = p.action ?? (p.merged === undefined ? 'opened' : 'closed');
    event.repository.full_name = p.repo;
    event.pull_request.head.repo = { ...event.pull_request.head.repo, full_name: p.repo };
    const merged = p.merged === undefined ? null : at(p.merged);
    Object.assign(event.pull_request, {
      id: installationId * 100 + p.number, number: p.number, title: `Change ${p.number}`, html_url: `https://github.com/${p.repo}/pull/${p.number}`,
      user: { login: 'ann' }, state: merged ? 'closed' : 'open', draft: p.draft ?? false, requested_reviewers: [], labels: [],
      created_at: at(p.opened), updated_at: merged ?? at(p.updated ?? p.opened), closed_at: merged, merged_at: merged, merge_commit_sha: merged ? 'f'.repeat(40) : null,
    });
    await send('pull_request', event);
  };
  const example = (require('@octokit/webhooks-examples/api.github.com/index.json') as { name: string; examples: Record<string, any>[] }[])
    .find((d) => d.name === 'pull_request_review')!.examples.find((e) => e.action === 'submitted')!;
  let reviewId = 1;
  const review = (repo: string, number: number, reviewer: string, state: string, hours: number) =>
    send('pull_request_review', {
      ...example,
      repository: { ...example.repository, full_name: repo },
      review: { ...example.review, id: installationId * 100 + reviewId++, user: { ...example.review.user, login: reviewer }, state, submitted_at: at(hours) },
      pull_request: { ...example.pull_request, number, updated_at: at(hours) },
    });
  const ask = async (number: number, reviewer: string, hours: number) => {
    const event = fixture('pull_request.opened');
    event.action = 'review_requested';
    event.repository.full_name = 'acme/api';
    Object.assign(event.pull_request, { id: installationId * 100 + number, number, title: `Change ${number}`, html_url: `https://github.com/acme/api/pull/${number}`, draft: false, user: { login: 'ann' }, created_at: at(8), updated_at: at(hours) });
    event.requested_reviewer = { login: reviewer };
    await send('pull_request', event);
  };

  const api_ = 'acme/api';
  await pr({ repo: api_, number: 1, opened: 120, merged: 110 });
  await review(api_, 1, 'bo', 'approved', 116);
  await pr({ repo: api_, number: 2, opened: 60, merged: 50 });
  await review(api_, 2, 'cy', 'commented', 58);
  await pr({ repo: api_, number: 3, opened: 30, merged: 20 });
  await review(api_, 3, 'ann', 'commented', 29);
  await review(api_, 3, 'dependabot[bot]', 'approved', 28);
  await pr({ repo: api_, number: 4, opened: 10, merged: 2 });
  await review(api_, 4, 'bo', 'approved', 4);
  await pr({ repo: api_, number: 10, opened: 80, draft: true });
  await pr({ repo: api_, number: 10, opened: 80, action: 'ready_for_review', updated: 72 });
  await review(api_, 10, 'bo', 'commented', 68);
  await pr({ repo: api_, number: 10, opened: 80, merged: 64 });
  await pr({ repo: 'acme/web', number: 21, opened: 20, merged: 10 });
  await pr({ repo: 'acme/web', number: 22, opened: 50 });

  await pr({ repo: api_, number: 9, opened: 12 });
  await review(api_, 9, 'ann', 'commented', 11);
  await pr({ repo: api_, number: 5, opened: 8 });
  await ask(5, 'bo', 7);
  await pr({ repo: api_, number: 7, opened: 9 });
  await review(api_, 7, 'cy', 'commented', 7);
  await pr({ repo: api_, number: 6, opened: 3 });
  await pr({ repo: api_, number: 8, opened: 20, draft: true });
  return { teams: { alpha: ids.alpha as string, beta: ids.beta as string }, at };
}
