/**
 * A tenant with work in flight, seeded as production would be: the register import and project
 * ownership, deployments and incidents through the webhook API, pull requests and their reviews
 * from the code-host application's signed webhook. Times are relative to now, so ages are fixed:
 *
 * Teams: Alpha owns acme/api, Beta owns acme/web; acme/tools has no team.
 * Open pull requests (oldest first):
 * - acme/api #11 "Add retry to payments", opened 5 d ago by ann; bo asked, then bo requested
 *   changes → changes requested (reviewers bo: changes requested).
 * - acme/web #21 "New checkout page", 4 d; cy asked, cy approved, then commented (a comment leaves
 *   the approval) → approved.
 * - acme/api #13 "Bump dependencies", 3 d; bo approved, then di asked → waiting for review (di has
 *   not answered).
 * - acme/tools #31 "Lint rules", 2 d, no team, no reviewer → waiting for review.
 * - acme/api #12 "Spike: new cache", 5 h, a draft (opened as one; a draft made ready and converted
 *   back) → draft.
 * - not listed: acme/api #14, merged; acme/web #22, closed.
 * Production deployments that failed and are not recovered (oldest first):
 * - acme/tools t1, success 6 d ago, the cause named by an open incident → failed: caused incident.
 * - acme/web g1, status error 3 d ago, no URL → failed: status.
 * - acme/api f3, status failure 10 h ago, with a URL → failed: status.
 * - not listed: acme/api f1 (failure 7 d ago, recovered by f2 an hour later), acme/web s1 (a
 *   staging failure, not production).
 * Open incidents (oldest first):
 * - acme/tools INC-7 "Tools down" (webhook API, causedByDeployment t1), opened 6 d − 1 h ago.
 * - acme/web #5 "Checkout errors" (a code-host issue labelled incident), opened 2 d ago.
 * - not listed: acme/api INC-8, closed.
 */
import { createRequire } from 'node:module';
import { announceInstallation, deliver, fixture } from '../activity/helpers.js';
import type { TestServer } from '../helpers/server.js';

const require = createRequire(import.meta.url);

const HEADER = 'external_ref,email,display_name,employment_type,supplier_name,cost_centre_code,location_country,team_slug,team_name,team_external_ref,team_cost_centre_code,org_unit_slug';

const HOUR = 3600_000;
/** A deployment's sha: its external id in hexadecimal, padded. */
export const shaOf = (externalId: string) => Buffer.from(externalId).toString('hex').padEnd(40, '0');
/** An instant `hours` before the seed started, to the second (ISO, as the code host writes it). */
export const hoursAgo = (start: number, hours: number) => new Date(Math.floor((start - hours * HOUR) / 1000) * 1000).toISOString().replace('.000Z', 'Z');

export interface SeededOpenWork {
  teams: { alpha: string; beta: string };
  installationId: number;
  /** When the seed started (the reference of every time above). */
  start: number;
  at: (hours: number) => string;
}

export async function seedOpenWork(server: TestServer, ownerKey: string, tenantId: string): Promise<SeededOpenWork> {
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

  const installationId = Number.parseInt(tenantId.replace(/-/g, '').slice(0, 7), 16);
  await announceInstallation(server.databaseUrl, installationId);
  const linked = await api.post('/api/integrations/codehost/installations', { installationId });
  if (linked.status !== 201) throw new Error(`link installation: ${linked.status} ${linked.text}`);
  const send = async (event: string, payload: object) => {
    const r = await deliver(server, event, payload, { installationId });
    if (r.status !== 200 || r.body.data?.stored !== true) throw new Error(`${event}: ${r.status} ${r.text}`);
  };

  interface Pr { repo: string; number: number; title: string; opened: number; author: string; draft?: boolean }
  const prEvent = (pr: Pr, action: string, updatedHoursAgo: number, fields: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => {
    const event = fixture('pull_request.opened');
    event.action = action;
    event.repository.full_name = pr.repo;
    event.pull_request.head.repo = { ...event.pull_request.head.repo, full_name: pr.repo };
    Object.assign(event.pull_request, {
      id: installationId * 100 + pr.number, number: pr.number, title: pr.title, html_url: `https://github.com/${pr.repo}/pull/${pr.number}`,
      user: { login: pr.author }, state: 'open', draft: pr.draft ?? false, requested_reviewers: [], labels: [],
      created_at: at(pr.opened), updated_at: at(updatedHoursAgo), closed_at: null, merged_at: null, merge_commit_sha: null, ...fields,
    });
    return { ...event, ...extra };
  };
  const open = (pr: Pr) => send('pull_request', prEvent(pr, 'opened', pr.opened));
  const ask = (pr: Pr, reviewer: string, hours: number) => send('pull_request', prEvent(pr, 'review_requested', hours, {}, { requested_reviewer: { login: reviewer } }));
  const example = (require('@octokit/webhooks-examples/api.github.com/index.json') as { name: string; examples: Record<string, any>[] }[])
    .find((d) => d.name === 'pull_request_review')!.examples.find((e) => e.action === 'submitted')!;
  let reviewId = 1;
  const review = (pr: Pr, reviewer: string, state: string, hours: number) =>
    send('pull_request_review', {
      ...example,
      repository: { ...example.repository, full_name: pr.repo },
      review: { ...example.review, id: installationId * 100 + reviewId++, user: { ...example.review.user, login: reviewer }, state, submitted_at: at(hours) },
      pull_request: { ...example.pull_request, number: pr.number, updated_at: at(hours) },
    });

  const retry: Pr = { repo: 'acme/api', number: 11, title: 'Add retry to payments', opened: 120, author: 'ann' };
  await open(retry);
  await ask(retry, 'bo', 119);
  await review(retry, 'bo', 'changes_requested', 100);

  const checkout: Pr = { repo: 'acme/web', number: 21, title: 'New checkout page', opened: 96, author: 'bo' };
  await open(checkout);
  await ask(checkout, 'cy', 95);
  await review(checkout, 'cy', 'approved', 90);
  await review(checkout, 'cy', 'commented', 80);

  const bump: Pr = { repo: 'acme/api', number: 13, title: 'Bump dependencies', opened: 72, author: 'ann' };
  await open(bump);
  await review(bump, 'bo', 'approved', 70);
  await ask(bump, 'di', 60);

  await open({ repo: 'acme/tools', number: 31, title: 'Lint rules', opened: 48, author: 'cy' });

  const spike: Pr = { repo: 'acme/api', number: 12, title: 'Spike: new cache', opened: 5, author: 'ann', draft: true };
  await open(spike);
  await send('pull_request', prEvent({ ...spike, draft: false }, 'ready_for_review', 4));
  await send('pull_request', prEvent(spike, 'converted_to_draft', 3));

  const merged: Pr = { repo: 'acme/api', number: 14, title: 'Merged already', opened: 50, author: 'ann' };
  await send('pull_request', prEvent(merged, 'closed', 20, { state: 'closed', closed_at: at(20), merged_at: at(20), merge_commit_sha: 'e'.repeat(40) }));
  const closed: Pr = { repo: 'acme/web', number: 22, title: 'Abandoned', opened: 30, author: 'bo' };
  await send('pull_request', prEvent(closed, 'closed', 10, { state: 'closed', closed_at: at(10) }));

  const deploy = async (projectKey: string, externalId: string, hours: number, status: string, fields: Record<string, unknown> = {}) => {
    const r = await api.post('/api/webhooks/v1/deployments', { projectKey, externalId, ref: 'main', sha: shaOf(externalId), environment: 'production', status, createdAt: at(hours), ...fields });
    if (r.status >= 300) throw new Error(`deployment: ${r.status} ${r.text}`);
  };
  await deploy('acme/api', 'f1', 168, 'failure');
  await deploy('acme/api', 'f2', 167, 'success');
  await deploy('acme/tools', 't1', 144, 'success');
  await deploy('acme/web', 's1', 100, 'failure', { environment: 'staging' });
  await deploy('acme/web', 'g1', 72, 'error');
  await deploy('acme/api', 'f3', 10, 'failure', { url: 'https://ci.example.com/deploys/f3' });

  const incident = async (fields: Record<string, unknown>) => {
    const r = await api.post('/api/webhooks/v1/issues', { type: 'incident', ...fields });
    if (r.status >= 300) throw new Error(`incident: ${r.status} ${r.text}`);
  };
  await incident({ projectKey: 'acme/tools', externalId: 'INC-7', title: 'Tools down', state: 'open', createdAt: at(143), url: 'https://tracker.example.com/browse/INC-7', metadata: { causedByDeployment: 't1' } });
  await incident({ projectKey: 'acme/api', externalId: 'INC-8', title: 'Resolved outage', state: 'closed', createdAt: at(30), closedAt: at(29) });
  const issue = fixture('issues.opened');
  issue.repository.full_name = 'acme/web';
  Object.assign(issue.issue, {
    id: installationId * 100 + 5, number: 5, title: 'Checkout errors', html_url: 'https://github.com/acme/web/issues/5', state: 'open',
    labels: [{ name: 'incident' }], created_at: at(48), closed_at: null,
  });
  await send('issues', issue);

  return { teams: { alpha: ids.alpha as string, beta: ids.beta as string }, installationId, start, at };
}
