/**
 * The code host's REST API as its application sees it, on loopback (GitHub's shapes): the app's
 * JWT (RS256, checked against the app's public key) is exchanged for installation tokens; each
 * token reads only its installation's repositories. Lists page newest first with `Link` headers,
 * `pageSize` records a page whatever `per_page` asks. `failNext` answers the next matching request
 * with an error of the test's choosing (a 429 with `retry-after`, a 500), once. Pull requests are
 * listed as GitHub lists them (`sort=updated&direction=desc`, without the single PR's additions,
 * deletions, changed files and commits); reviews, a PR's commits and its issue events in the
 * order they happened.
 */
import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify } from 'jose';

export interface FakeRepository {
  full_name: string;
  default_branch: string;
  installationId: number;
  deployments: Record<string, unknown>[];
  /** Statuses by deployment id, in the order they were made. */
  statuses: Map<number, Record<string, unknown>[]>;
  runs: Record<string, unknown>[];
  releases: Record<string, unknown>[];
  /** Pull requests as `GET …/pulls/{n}` gives them (additions and deletions included). */
  pulls: Record<string, unknown>[];
  /** By PR number: `GET …/pulls/{n}/reviews`, `…/pulls/{n}/commits`, `…/issues/{n}/events`. */
  reviews: Map<number, Record<string, unknown>[]>;
  commits: Map<number, Record<string, unknown>[]>;
  issueEvents: Map<number, Record<string, unknown>[]>;
}

export interface Failure {
  /** Matched against `METHOD path?query`. */
  match: RegExp;
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface FakeCodeHostRest {
  url: string;
  appId: string;
  /** PEM (PKCS#1, as the code host hands it out) for CODEHOST_APP_PRIVATE_KEY. */
  privateKey: string;
  pageSize: number;
  repository(repo: Omit<FakeRepository, 'deployments' | 'statuses' | 'runs' | 'releases' | 'pulls' | 'reviews' | 'commits' | 'issueEvents'> & Partial<FakeRepository>): FakeRepository;
  failNext(failure: Failure): void;
  /** Every request answered: `METHOD path?query` (installation-token requests too). */
  requests: string[];
  /** Installation tokens issued, by installation. */
  tokensIssued: number[];
  close(): Promise<void>;
}

export async function fakeCodeHostRest(): Promise<FakeCodeHostRest> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const repos = new Map<string, FakeRepository>();
  const tokens = new Map<string, number>();
  const failures: Failure[] = [];
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fake: FakeCodeHostRest = {
    url,
    appId: '1048576',
    privateKey: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    pageSize: 2,
    repository(repo) {
      const full: FakeRepository = { deployments: [], statuses: new Map(), runs: [], releases: [], pulls: [], reviews: new Map(), commits: new Map(), issueEvents: new Map(), ...repo };
      repos.set(repo.full_name.toLowerCase(), full);
      return full;
    },
    failNext: (failure) => void failures.push(failure),
    requests: [],
    tokensIssued: [],
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'x-ratelimit-remaining': '4999', ...headers }).end(JSON.stringify(body));
  };

  /** Newest first (by `created_at`, or `key`; `null`: as given), `pageSize` a page, with GitHub's Link header. */
  const paged = (res: ServerResponse, u: URL, all: Record<string, unknown>[], wrap?: (items: unknown[]) => unknown, key: string | null = 'created_at') => {
    const sorted = key === null ? [...all] : [...all].sort((a, b) => Date.parse(String(b[key])) - Date.parse(String(a[key])) || Number(b.id) - Number(a.id));
    const page = Number(u.searchParams.get('page') ?? '1');
    const items = sorted.slice((page - 1) * fake.pageSize, page * fake.pageSize);
    const headers: Record<string, string> = {};
    if (page * fake.pageSize < sorted.length) {
      const next = new URL(u.href);
      next.searchParams.set('page', String(page + 1));
      headers.link = `<${next.href}>; rel="next"`;
    }
    send(res, 200, wrap ? wrap(items) : items, headers);
  };

  async function appAuthorized(req: IncomingMessage, key: KeyObject): Promise<boolean> {
    const jwt = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    try {
      const { payload, protectedHeader } = await jwtVerify(jwt, key, { algorithms: ['RS256'] });
      return protectedHeader.alg === 'RS256' && payload.iss === fake.appId && typeof payload.exp === 'number' && payload.exp - (payload.iat ?? 0) <= 600;
    } catch {
      return false;
    }
  }

  server.on('request', async (req, res) => {
    for await (const _ of req) { /* drain */ }
    const u = new URL(req.url ?? '/', url);
    const line = `${req.method} ${u.pathname}${u.search}`;
    fake.requests.push(line);
    const failure = failures.findIndex((f) => f.match.test(line));
    if (failure >= 0) {
      const [f] = failures.splice(failure, 1) as [Failure];
      return send(res, f.status, f.body ?? { message: 'failure of the test' }, f.headers);
    }
    let m = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(u.pathname);
    if (req.method === 'POST' && m) {
      if (!(await appAuthorized(req, publicKey))) return send(res, 401, { message: 'A JSON web token could not be decoded' });
      const token = `ghs_${randomBytes(12).toString('hex')}`;
      tokens.set(token, Number(m[1]));
      fake.tokensIssued.push(Number(m[1]));
      return send(res, 201, { token, expires_at: new Date(Date.now() + 3600_000).toISOString() });
    }
    m = /^\/repos\/([^/]+\/[^/]+)\/installation$/.exec(u.pathname);
    if (req.method === 'GET' && m) {
      if (!(await appAuthorized(req, publicKey))) return send(res, 401, { message: 'A JSON web token could not be decoded' });
      const repo = repos.get(decodeURIComponent(m[1] as string).toLowerCase());
      return repo ? send(res, 200, { id: repo.installationId }) : send(res, 404, { message: 'Not Found' });
    }
    const installationId = tokens.get(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '');
    if (installationId === undefined) return send(res, 401, { message: 'Bad credentials' });
    if (req.method === 'GET' && u.pathname === '/installation/repositories') {
      const mine = [...repos.values()].filter((r) => r.installationId === installationId).map((r, i) => ({ id: i + 1, full_name: r.full_name, created_at: '2020-01-01T00:00:00Z' }));
      return paged(res, u, mine, (items) => ({ total_count: mine.length, repositories: items }));
    }
    m = /^\/repos\/([^/]+\/[^/]+)(\/.*)?$/.exec(u.pathname);
    const repo = m ? repos.get(decodeURIComponent(m[1] as string).toLowerCase()) : undefined;
    // Another installation's repository is, to this token, not there.
    if (!m || !repo || repo.installationId !== installationId) return send(res, 404, { message: 'Not Found' });
    const rest = m[2] ?? '';
    if (rest === '') return send(res, 200, { full_name: repo.full_name, default_branch: repo.default_branch });
    if (rest === '/deployments') return paged(res, u, repo.deployments);
    const statuses = /^\/deployments\/(\d+)\/statuses$/.exec(rest);
    if (statuses) return paged(res, u, repo.statuses.get(Number(statuses[1])) ?? []);
    if (rest === '/actions/runs') {
      const created = /^>=(\d{4}-\d{2}-\d{2})$/.exec(u.searchParams.get('created') ?? '');
      const runs = repo.runs.filter((r) => (u.searchParams.get('status') !== 'completed' || r.status === 'completed') && (!created || String(r.created_at).slice(0, 10) >= (created[1] as string)));
      return paged(res, u, runs, (items) => ({ total_count: runs.length, workflow_runs: items }));
    }
    if (rest === '/releases') return paged(res, u, repo.releases);
    if (rest === '/pulls') {
      const state = u.searchParams.get('state') ?? 'open';
      const listed = repo.pulls.filter((p) => state === 'all' || p.state === state)
        .map(({ additions: _a, deletions: _d, changed_files: _c, commits: _n, ...simple }) => simple);
      return paged(res, u, listed, undefined, u.searchParams.get('sort') === 'updated' ? 'updated_at' : 'created_at');
    }
    const pull = /^\/(pulls|issues)\/(\d+)(\/reviews|\/commits|\/events)?$/.exec(rest);
    const number = Number(pull?.[2]);
    if (pull && !repo.pulls.some((p) => p.number === number)) return send(res, 404, { message: 'Not Found' });
    if (pull?.[1] === 'pulls' && !pull[3]) return send(res, 200, repo.pulls.find((p) => p.number === number));
    if (pull?.[1] === 'pulls' && pull[3] === '/reviews') return paged(res, u, repo.reviews.get(number) ?? [], undefined, null);
    if (pull?.[1] === 'pulls' && pull[3] === '/commits') return paged(res, u, repo.commits.get(number) ?? [], undefined, null);
    if (pull?.[1] === 'issues' && pull[3] === '/events') return paged(res, u, repo.issueEvents.get(number) ?? [], undefined, null);
    send(res, 404, { message: 'Not Found' });
  });
  return fake;
}
