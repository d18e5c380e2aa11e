/**
 * The code host's pull-request writes for `npm run bench:webhooks` (issue 47's bar: "phases add no
 * more than 20 % to the raw webhook write cost"; docs/benchmarks/2026-11-29-pr-phase-writes.md).
 *
 * Each PR is written as users' code hosts write it, four deliveries in order: `pull_request`
 * opened as a draft, `ready_for_review`, `pull_request_review` submitted by someone else than the
 * author, `pull_request` closed and merged. A delivery is one written row (the PR's, or the review's).
 *
 * - HTTP (`httpPrLoad`): signed deliveries (X-Hub-Signature-256 over the body, the test fixtures'
 *   GitHub payloads) to the product's code-host webhook, `POST /api/integrations/codehost/webhook`,
 *   over installations linked to the bench's tenants: everything the product does, phases included.
 * - Raw (`rawPrWrites`): the same deliveries' row writes as SQL on the real tables with every
 *   trigger on, no HTTP, no delivery claim, no project lookup, no commit or session linking (those
 *   are the same with or without phases, and leaving them out makes the phases' share larger). One
 *   transaction per delivery, as the product's webhook runs each delivery; unnamed statements, as
 *   drizzle sends the product's (`statement` below).
 *   - `with`: the statements of src/codehost/events.ts applyPullRequest and reviews.ts
 *     applyPullRequestReview today, with every trigger on: the PR upsert keeps ready_at and takes
 *     first_review_at from the proposed row (`excluded`), which the BEFORE INSERT trigger
 *     `pull_request_first_review` computed from pull_request_reviews; a review inserts its
 *     pull_request_reviews row (whose AFTER INSERT trigger `pull_request_first_review` moves the
 *     PR's first_review_at) and sets the reviewer's state (pull_request_reviewers, open work). The
 *     first review is computed by the triggers' PL/pgSQL (each first takes the PR's advisory
 *     lock, a review's in the BEFORE INSERT trigger `pull_request_first_review_lock`), whose plans each connection keeps
 *     (src/codehost/sql/pull_request_first_review.sql): the application sends no subquery and no
 *     UPDATE for it.
 *   - `without`: the same writes with the phase work removed, i.e. the statements as they were
 *     before migration 0068 (commit 5f99255): the PR upsert without ready_at and first_review_at,
 *     and a review only as the reviewer's state; and the three `pull_request_first_review*` triggers,
 *     the only phase-only ones, disabled for its duration (`ALTER TABLE … DISABLE TRIGGER`, enabled
 *     again in a `finally`: the bench's own database, no other writer meanwhile; the variants and
 *     the HTTP load run one after the other). Every other trigger predates the phases and stays on
 *     (the first-review update fires pull_requests' statement triggers, which is part of the
 *     phases' cost), so "without" is the same tables, same other triggers, same database, minus
 *     those statements, columns and triggers.
 */
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import pg from 'pg';
import { fixture, sign, WEBHOOK } from '../test/activity/helpers.js';
import { summarise, type Summary } from './support.js';

export type PrVariant = 'with' | 'without';
export const PR_EVENTS = ['opened', 'ready', 'review', 'merged'] as const;
export type PrEvent = (typeof PR_EVENTS)[number];

const AUTHOR = 'alice-dev';
const REVIEWER = 'bob-bench';
/** PRs of one run are dated from here, a minute apart, each phase an hour. */
const BASE = Date.parse('2026-11-02T09:00:00Z');
const HOUR = 3_600_000;

export interface PrMoments {
  created: string;
  ready: string;
  reviewed: string;
  merged: string;
}
const moments = (n: number): PrMoments => {
  const t = BASE + (n % 40_000) * 60_000;
  const iso = (ms: number) => new Date(ms).toISOString();
  return { created: iso(t), ready: iso(t + HOUR), reviewed: iso(t + 2 * HOUR), merged: iso(t + 3 * HOUR) };
};

const PR_COLUMNS = `tenant_id, project_id, provider, external_id, number, title, url, author_username, state, draft, additions, deletions, changed_files, commit_count, labels, head_branch, head_sha, base_branch, merge_commit_sha, created_at, merged_at, closed_at, updated_at`;
const PR_VALUES = `$1, $2, 'codehost', $3, $4, $5, $6, $7, $8, $9, $10, $11, 3, 2, '{}', $12, $13, 'main', $14, $15, $16, $16, $17`;
const PR_SET = `provider = excluded.provider, external_id = excluded.external_id, title = excluded.title, url = excluded.url, author_username = excluded.author_username,
  state = excluded.state, draft = excluded.draft, additions = excluded.additions, deletions = excluded.deletions, changed_files = excluded.changed_files,
  commit_count = excluded.commit_count, labels = excluded.labels, head_branch = excluded.head_branch, head_sha = excluded.head_sha, base_branch = excluded.base_branch,
  merge_commit_sha = excluded.merge_commit_sha, created_at = excluded.created_at, merged_at = excluded.merged_at, closed_at = excluded.closed_at,
  updated_at = excluded.updated_at, received_at = now()`;
const SQL = {
  // The PR upsert of applyPullRequest: $18 is ready_at on insert (JS decides it from draft and the
  // action); first_review_at is the trigger's, in the proposed row.
  prWith: `insert into pull_requests as pr (${PR_COLUMNS}, ready_at)
    values (${PR_VALUES}, $18)
    on conflict (project_id, number) do update set ${PR_SET},
      ready_at = case when excluded.draft then pr.ready_at else coalesce(pr.ready_at, excluded.updated_at) end,
      first_review_at = excluded.first_review_at
    where pr.updated_at <= excluded.updated_at
    returning id`,
  prWithout: `insert into pull_requests as pr (${PR_COLUMNS})
    values (${PR_VALUES})
    on conflict (project_id, number) do update set ${PR_SET}
    where pr.updated_at <= excluded.updated_at
    returning id`,
  // reviews.ts recordReview (its trigger moves the PR's first review).
  reviewRow: `insert into pull_request_reviews (tenant_id, project_id, pull_request_number, review_id, reviewer, reviewer_is_bot, state, submitted_at)
    values ($1, $2, $3, $4, $5, false, 'approved', $6) on conflict do nothing`,
  // reviews.ts setState (the reviewer's state, open work's waiting state; before 0068 as well).
  reviewer: `insert into pull_request_reviewers as prr (tenant_id, project_id, pull_request_number, reviewer, state, at)
    values ($1, $2, $3, $4, 'approved', $5)
    on conflict (project_id, pull_request_number, reviewer) do update set state = excluded.state, at = excluded.at, updated_at = now()
    where (prr.at < excluded.at or (prr.at = excluded.at and prr.state <> 'dismissed'))`,
};

function prValues(tenant: string, project: string, n: number, event: Exclude<PrEvent, 'review'>, variant: PrVariant): unknown[] {
  const m = moments(n);
  const draft = event === 'opened';
  const merged = event === 'merged';
  const updated = event === 'opened' ? m.created : event === 'ready' ? m.ready : m.merged;
  const values: unknown[] = [
    tenant, project, `bench-pr-${n}`, n, `Bench change ${n}`, `https://github.com/bench/p/pull/${n}`, AUTHOR,
    merged ? 'merged' : 'open', draft, 40, 12, `bench-${n}`, (n.toString(16) + '0'.repeat(40)).slice(0, 40),
    merged ? (n.toString(16) + 'f'.repeat(40)).slice(0, 40) : null, m.created, merged ? m.merged : null, updated,
  ];
  // applyPullRequest's ready_at on insert: null for a draft, the ready moment for ready_for_review, else created.
  if (variant === 'with') values.push(draft ? null : event === 'ready' ? m.ready : m.created);
  return values;
}

/**
 * Unnamed statements, parsed and planned at every execution, as drizzle (node-postgres without a
 * statement name) sends the product's; BENCH_PR_PREPARED=1 names them, so that each connection
 * keeps their plans. Named, the plan cache decides per statement between a generic plan and one
 * made for each execution: on 2026-11-29 it kept the phases' upsert (a subquery with the key's
 * values) on plans made every time (0.69 ms of planning a call) and the upsert without phases on
 * a generic plan (0.006 ms), a difference the product never sees.
 */
const PREPARED = process.env.BENCH_PR_PREPARED === '1';
const statement = (name: string, text: string, values: unknown[]): pg.QueryConfig => (PREPARED ? { name, text, values } : { text, values });

/** One delivery's row writes in one transaction (the product's webhook runs each delivery in one). */
async function rawDelivery(client: pg.PoolClient, tenant: string, project: string, n: number, event: PrEvent, variant: PrVariant): Promise<void> {
  await client.query('begin');
  try {
    if (event === 'review') {
      const at = moments(n).reviewed;
      if (variant === 'with') await client.query(statement('pr-review-row', SQL.reviewRow, [tenant, project, n, n, REVIEWER, at]));
      await client.query(statement('pr-reviewer', SQL.reviewer, [tenant, project, n, REVIEWER, at]));
    } else {
      await client.query(statement(`pr-upsert-${variant}`, variant === 'with' ? SQL.prWith : SQL.prWithout, prValues(tenant, project, n, event, variant)));
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
}

export interface PrRun {
  summary: Summary;
  latencies: number[];
  /** Latencies by delivery kind (ms). */
  byEvent: Record<PrEvent, number[]>;
  failures: Map<string, number>;
}

const byEvent = (): Record<PrEvent, number[]> => ({ opened: [], ready: [], review: [], merged: [] });

/** A shared counter of PR numbers, so that runs (and variants) never write the same PR. */
export interface PrCounter {
  next: number;
}

/** The triggers that exist only for the phases (src/codehost/sql/pull_request_first_review.sql), by table. */
const PHASE_TRIGGERS = [['pull_requests', 'pull_request_first_review'], ['pull_request_reviews', 'pull_request_first_review'], ['pull_request_reviews', 'pull_request_first_review_lock']] as const;

/** The phase-only triggers disabled (`without`: the product before phases) or enabled. */
async function phaseTriggers(pool: pg.Pool, enable: boolean): Promise<void> {
  for (const [table, trigger] of PHASE_TRIGGERS) {
    await pool.query(`alter table ${table} ${enable ? 'enable' : 'disable'} trigger ${trigger}`);
  }
}

/**
 * `concurrency` loops, each writing its own PRs one delivery after another for `seconds`; a loop
 * stops at a PR's end, so every PR has its four deliveries (the last one may overrun by three).
 * `without` runs with the phase-only triggers disabled, enabled again however it ends.
 */
export async function rawPrWrites(pool: pg.Pool, tenant: string, projects: string[], seconds: number, variant: PrVariant, counter: PrCounter, concurrency: number): Promise<PrRun> {
  if (variant === 'without') await phaseTriggers(pool, false);
  try {
    return await rawPrLoops(pool, tenant, projects, seconds, variant, counter, concurrency);
  } finally {
    if (variant === 'without') await phaseTriggers(pool, true);
  }
}

async function rawPrLoops(pool: pg.Pool, tenant: string, projects: string[], seconds: number, variant: PrVariant, counter: PrCounter, concurrency: number): Promise<PrRun> {
  const latencies: number[] = [];
  const kinds = byEvent();
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    const client = await pool.connect();
    try {
      while (performance.now() < end) {
        const n = (counter.next += 1);
        const project = projects[n % projects.length] as string;
        for (const event of PR_EVENTS) {
          const t0 = performance.now();
          await rawDelivery(client, tenant, project, n, event, variant);
          const took = performance.now() - t0;
          latencies.push(took);
          kinds[event].push(took);
        }
      }
    } finally {
      client.release();
    }
  }));
  return { summary: summarise(latencies, (performance.now() - started) / 1000), latencies, byEvent: kinds, failures: new Map() };
}

/** The GitHub payloads the tests send (test/fixtures/codehost, prPhases.test.ts), for PR `n` of `repo`. */
export function prDelivery(installationId: number, repo: string, n: number, event: PrEvent): { name: string; body: Buffer } {
  const m = moments(n);
  let payload: Record<string, any>;
  if (event === 'review') {
    payload = {
      action: 'submitted',
      repository: { full_name: repo },
      review: { id: n, user: { login: REVIEWER, type: 'User' }, state: 'approved', submitted_at: m.reviewed },
      pull_request: { number: n, updated_at: m.reviewed },
    };
  } else {
    payload = fixture(event === 'merged' ? 'pull_request.closed' : 'pull_request.opened');
    payload.action = event === 'opened' ? 'opened' : event === 'ready' ? 'ready_for_review' : 'closed';
    payload.repository.full_name = repo;
    const merged = event === 'merged';
    Object.assign(payload.pull_request, {
      id: installationId * 1_000_000 + n, number: n, title: `Bench change ${n}`, html_url: `https://github.com/${repo}/pull/${n}`,
      user: { login: AUTHOR, type: 'User' }, draft: event === 'opened', state: merged ? 'closed' : 'open',
      additions: 40, deletions: 12, changed_files: 3, commits: 2, labels: [],
      head: { ...payload.pull_request.head, ref: `bench-${n}`, sha: (n.toString(16) + '0'.repeat(40)).slice(0, 40), repo: { ...payload.pull_request.head.repo, full_name: repo } },
      created_at: m.created, updated_at: event === 'opened' ? m.created : event === 'ready' ? m.ready : m.merged,
      closed_at: merged ? m.merged : null, merged_at: merged ? m.merged : null, merged,
      merge_commit_sha: merged ? (n.toString(16) + 'f'.repeat(40)).slice(0, 40) : null,
    });
  }
  payload.installation = { ...payload.installation, id: installationId };
  return { name: event === 'review' ? 'pull_request_review' : 'pull_request', body: Buffer.from(JSON.stringify(payload)) };
}

function post(agent: Agent, base: URL, event: string, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({
      agent, host: base.hostname, port: base.port, path: WEBHOOK, method: 'POST',
      headers: {
        'content-type': 'application/json', 'content-length': body.length, 'x-github-event': event, 'x-github-delivery': randomUUID(),
        'x-hub-signature-256': sign(body), 'user-agent': 'GitHub-Hookshot/bench',
      },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A linked installation: its id and the repositories its PRs go to. */
export interface Installation {
  id: number;
  repos: string[];
}

/**
 * Signed deliveries over `concurrency` keep-alive connections; loop i keeps to installation
 * i mod n (a tenant's code host sends its repositories' events), its PRs spread over the repositories.
 */
export async function httpPrLoad(urls: string[], installations: Installation[], seconds: number, counter: PrCounter, concurrency: number): Promise<PrRun> {
  const agents = urls.map(() => new Agent({ keepAlive: true, maxSockets: Math.ceil(concurrency / urls.length) }));
  const bases = urls.map((url) => new URL(url));
  const latencies: number[] = [];
  const kinds = byEvent();
  const failures = new Map<string, number>();
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async (_, loop) => {
    const agent = agents[loop % agents.length] as Agent;
    const base = bases[loop % bases.length] as URL;
    const installation = installations[loop % installations.length] as Installation;
    while (performance.now() < end) {
      const n = (counter.next += 1);
      const repo = installation.repos[n % installation.repos.length] as string;
      for (const event of PR_EVENTS) {
        const delivery = prDelivery(installation.id, repo, n, event);
        const t0 = performance.now();
        const res = await post(agent, base, delivery.name, delivery.body);
        const took = performance.now() - t0;
        if (res.status === 200 && res.text.includes('"stored":true')) {
          latencies.push(took);
          kinds[event].push(took);
        } else {
          const label = `${event} ${res.status} ${res.text.slice(0, 120)}`;
          failures.set(label, (failures.get(label) ?? 0) + 1);
        }
      }
    }
  }));
  for (const agent of agents) agent.destroy();
  return { summary: summarise(latencies, (performance.now() - started) / 1000), latencies, byEvent: kinds, failures };
}

/** Links one installation to each tenant (as an owner's link does: the registry row with its tenant). */
export async function linkInstallations(pool: pg.Pool, tenants: string[], repos: number): Promise<Installation[]> {
  const installations: Installation[] = [];
  for (const [i, tenant] of tenants.entries()) {
    const id = 70_000_000 + i;
    await pool.query('insert into codehost_installations (installation_id, tenant_id, linked_at) values ($1, $2, now())', [id, tenant]);
    installations.push({ id, repos: Array.from({ length: repos }, (_, r) => `bench-org${i}/repo${r}`) });
  }
  return installations;
}
