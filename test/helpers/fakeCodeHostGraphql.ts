/**
 * GitHub's GraphQL endpoint (`POST /graphql`) on loopback, for the benchmark corpus: the three
 * queries of src/benchmarks/workflow.ts (repository facts, releases newest first, merged pull
 * requests through the search API) answered from facts the test gives, with cursor paging and
 * `rateLimit`. Scripts let a test make the Nth request answer a secondary limit (403 or 429 with
 * headers), a failure (502), a GraphQL RATE_LIMITED error or a low `remaining`. Every request is
 * recorded; `exchanges` keeps the answers so tools/benchmarks can replay them (`replay`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakePull {
  createdAt: string;
  mergedAt: string;
  title: string;
  /** The branch merged into: `main` (every fake repository's default branch) unless given. */
  baseRefName?: string;
  author: { __typename: string; login: string } | null;
  labels: string[];
}

export interface FakeRelease {
  tagName?: string;
  createdAt: string;
  publishedAt: string | null;
  isDraft: boolean;
  isPrerelease: boolean;
}

export interface FakeRepository {
  nameWithOwner: string;
  /** null: the repository does not exist. */
  facts: { isPrivate: boolean; isArchived: boolean; isFork: boolean; isMirror: boolean; pushedAt: string | null; diskUsage: number; owner: { __typename: string }; defaultBranchRef?: { name: string } } | null;
  releases: FakeRelease[];
  pulls: FakePull[];
}

export interface RecordedRequest {
  n: number;
  operation: string;
  variables: Record<string, unknown>;
  at: number;
  status: number;
}

export type Scripted =
  | { status: 403 | 429; headers?: Record<string, string> }
  | { status: 502 }
  | { rateLimited: true; resetAt: string }
  | { remaining: number; resetAt: string };

export interface Exchange {
  key: string;
  body: unknown;
}

export interface FakeCodeHostGraphql {
  url: string;
  token: string;
  requests: RecordedRequest[];
  /** Answers of successful requests, keyed by operation and variables (a recording). */
  exchanges: Exchange[];
  /** The Nth request (1-based, counting every request) answers this instead. */
  script: Map<number, Scripted>;
  close(): Promise<void>;
}

const operationOf = (query: string) => /query\s+(\w+)/.exec(query)?.[1] ?? 'unknown';
export const exchangeKey = (operation: string, variables: Record<string, unknown>) => JSON.stringify([operation, Object.fromEntries(Object.entries(variables).sort(([a], [b]) => a.localeCompare(b)))]);

function page<T>(items: T[], first: number, after: unknown): { nodes: T[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } {
  const start = typeof after === 'string' ? Number(Buffer.from(after, 'base64').toString().replace('cursor:', '')) : 0;
  const nodes = items.slice(start, start + first);
  const end = start + nodes.length;
  return { nodes, pageInfo: { hasNextPage: end < items.length, endCursor: nodes.length > 0 ? Buffer.from(`cursor:${end}`).toString('base64') : null } };
}

/** The answer of one query from the repositories' facts. */
function answer(repositories: Map<string, FakeRepository>, operation: string, v: Record<string, unknown>): Record<string, unknown> {
  if (operation === 'Repository') return { repository: repositories.get(`${v.owner}/${v.name}`)?.facts ?? null };
  if (operation === 'Releases') {
    const repo = repositories.get(`${v.owner}/${v.name}`);
    if (!repo) return { repository: null };
    const sorted = [...repo.releases].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    return { repository: { releases: page(sorted, Number(v.first), v.after) } };
  }
  if (operation === 'MergedPulls') {
    const search = String(v.search);
    const repo = repositories.get(/repo:(\S+)/.exec(search)?.[1] ?? '');
    const [, from, to] = /merged:(\S+)\.\.(\S+)/.exec(search) ?? [];
    const pulls = (repo?.pulls ?? [])
      .filter((p) => Date.parse(p.mergedAt) >= Date.parse(from as string) && Date.parse(p.mergedAt) <= Date.parse(to as string) + 999)
      .sort((a, b) => b.mergedAt.localeCompare(a.mergedAt));
    const { nodes, pageInfo } = page(pulls, Number(v.first), v.after);
    return { search: { issueCount: pulls.length, pageInfo, nodes: nodes.map((p) => ({ createdAt: p.createdAt, mergedAt: p.mergedAt, title: p.title, baseRefName: p.baseRefName ?? 'main', author: p.author, labels: { nodes: p.labels.map((name) => ({ name })) } })) } };
  }
  throw new Error(`unknown operation ${operation}`);
}

/**
 * A fake answering from `repositories`, or replaying `recording` (answers by operation and
 * variables; an unknown request is a 400, so a replay cannot silently differ).
 */
export async function fakeCodeHostGraphql(source: { repositories: FakeRepository[] } | { recording: Exchange[] }, options: { host?: string } = {}): Promise<FakeCodeHostGraphql> {
  const repositories = new Map(('repositories' in source ? source.repositories : []).map((r) => [r.nameWithOwner, r]));
  const recorded = new Map(('recording' in source ? source.recording : []).map((e) => [e.key, e.body]));
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', resolve));
  const fake: FakeCodeHostGraphql = {
    url: `http://${options.host ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}/graphql`,
    token: 'ghp_fakeReadOnlyPublicToken0123456789',
    requests: [],
    exchanges: [],
    script: new Map(),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

  server.on('request', async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://x').pathname !== '/graphql') return json(res, 404, { message: 'Not Found' });
    if (req.headers.authorization !== `bearer ${fake.token}`) return json(res, 401, { message: 'Bad credentials' });
    const { query, variables = {} } = JSON.parse(Buffer.concat(chunks).toString()) as { query: string; variables?: Record<string, unknown> };
    const operation = operationOf(query);
    const n = fake.requests.length + 1;
    const scripted = fake.script.get(n);
    const record = (status: number) => fake.requests.push({ n, operation, variables, at: Date.now(), status });
    const rateLimit = { cost: 1, remaining: 4999, resetAt: new Date(Date.now() + 3600_000).toISOString() };
    if (scripted && 'status' in scripted) {
      record(scripted.status);
      return json(res, scripted.status, { message: scripted.status === 502 ? 'Bad Gateway' : 'You have exceeded a secondary rate limit.' }, 'headers' in scripted ? scripted.headers : {});
    }
    if (scripted && 'rateLimited' in scripted) {
      record(200);
      return json(res, 200, { data: { rateLimit: { ...rateLimit, remaining: 0, resetAt: scripted.resetAt } }, errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded' }] });
    }
    let data: Record<string, unknown>;
    const key = exchangeKey(operation, variables);
    if (recorded.size > 0 || repositories.size === 0) {
      if (!recorded.has(key)) {
        record(400);
        return json(res, 400, { message: `not in the recording: ${key}` });
      }
      data = recorded.get(key) as Record<string, unknown>;
    } else {
      data = answer(repositories, operation, variables);
      fake.exchanges.push({ key, body: data });
    }
    record(200);
    json(res, 200, { data: { ...data, rateLimit: scripted && 'remaining' in scripted ? { ...rateLimit, remaining: scripted.remaining, resetAt: scripted.resetAt } : rateLimit } });
  });
  return fake;
}
