/**
 * One local HTTP server speaking the three vendors' report APIs as their documentation shows them
 * (docs/ai-vendor-reports.md): Anthropic's Claude Code Analytics report (cursor pages), GitHub's
 * Copilot usage reports (download links to NDJSON files) and seats (Link-header pages), Cursor's
 * Admin API (daily usage, AI Code Tracking commits by page). Each can be told to answer a 429 with
 * a Retry-After, or fail once, at a given request; every request is recorded.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: string;
  status: number;
}

type Rule = { match: (s: Omit<Seen, 'status'>) => boolean; status: number; headers?: Record<string, string>; times: number };

export interface FakeVendors {
  url: string;
  seen: Seen[];
  claude: { key: string; pageSize: number; days: Record<string, Record<string, unknown>[]> };
  copilot: { token: string; org: string; users: Record<string, Record<string, unknown>[]>; teams: Record<string, Record<string, unknown>[]>; seats: Record<string, unknown>[]; seatPageSize: number };
  cursor: { key: string; usage: Record<string, unknown>[]; commits: Record<string, unknown>[] | 'not on this plan'; commitsPageSize: number };
  /** The next request `match` accepts is answered `status` (with `headers`), `times` times. */
  once(match: Rule['match'], status: number, headers?: Record<string, string>, times?: number): void;
  close(): Promise<void>;
}

function json(res: import('node:http').ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export async function fakeVendors(): Promise<FakeVendors> {
  const rules: Rule[] = [];
  const fake = {
    url: '',
    seen: [] as Seen[],
    claude: { key: 'sk-ant-admin01-good', pageSize: 2, days: {} },
    copilot: { token: 'ghp_goodtoken', org: 'acme', users: {}, teams: {}, seats: [], seatPageSize: 2 },
    cursor: { key: 'key_cursor_good', usage: [], commits: [], commitsPageSize: 2 },
    once(match: Rule['match'], status: number, headers?: Record<string, string>, times = 1) {
      rules.push({ match, status, headers, times });
    },
  } as unknown as FakeVendors;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', fake.url);
      const request = { method: req.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      const record = (status: number) => fake.seen.push({ ...request, status });
      const rule = rules.find((r) => r.times > 0 && r.match(request));
      if (rule) {
        rule.times--;
        record(rule.status);
        return json(res, rule.status, { error: { type: rule.status === 429 ? 'rate_limit_error' : 'api_error' } }, rule.headers);
      }
      const answer = (status: number, body: unknown, headers?: Record<string, string>) => (record(status), json(res, status, body, headers));

      // Anthropic Admin API: Claude Code Analytics.
      if (url.pathname === '/v1/organizations/usage_report/claude_code') {
        if (req.headers['x-api-key'] !== fake.claude.key || req.headers['anthropic-version'] !== '2023-06-01') {
          return answer(401, { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } });
        }
        const day = url.searchParams.get('starting_at') ?? '';
        const all = (fake.claude.days[day] ?? []).map((r) => ({ date: `${day}T00:00:00Z`, organization_id: 'org-1', customer_type: 'api', ...r }));
        const start = Number(url.searchParams.get('page')?.replace('page_', '') ?? 0);
        const limit = Math.min(Number(url.searchParams.get('limit') ?? 20), fake.claude.pageSize);
        const data = all.slice(start, start + limit);
        const more = start + limit < all.length;
        return answer(200, { data, has_more: more, next_page: more ? `page_${start + limit}` : null });
      }

      // GitHub: an installation token for the code-host application (the JWT's signature is not checked here).
      const tokenFor = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(url.pathname);
      if (tokenFor && req.method === 'POST') {
        if (!req.headers.authorization?.startsWith('Bearer ey')) return answer(401, { message: 'A JSON web token could not be decoded' });
        return answer(201, { token: fake.copilot.token, expires_at: new Date(Date.now() + 3600_000).toISOString() });
      }

      // GitHub: Copilot usage reports, their files, seats.
      const reports = /^\/orgs\/([^/]+)\/copilot\/metrics\/reports\/(users-1-day|user-teams-1-day)$/.exec(url.pathname);
      const seats = /^\/orgs\/([^/]+)\/copilot\/billing\/seats$/.exec(url.pathname);
      if (reports || seats) {
        if (req.headers.authorization !== `Bearer ${fake.copilot.token}`) return answer(401, { message: 'Bad credentials' });
        if ((reports ?? seats)![1] !== fake.copilot.org) return answer(404, { message: 'Not Found' });
      }
      if (reports) {
        const day = url.searchParams.get('day') ?? '';
        const rows = (reports[2] === 'users-1-day' ? fake.copilot.users : fake.copilot.teams)[day];
        if (!rows) return answer(404, { message: 'No report for this day' });
        // Two files a report, as large reports are split.
        const links = [0, 1].map((part) => `${fake.url}/files/${reports[2]}/${day}/${part}.ndjson?sig=signed`);
        return answer(200, { download_links: links, report_day: day });
      }
      const file = /^\/files\/(users-1-day|user-teams-1-day)\/(\d{4}-\d{2}-\d{2})\/([01])\.ndjson$/.exec(url.pathname);
      if (file) {
        if (url.searchParams.get('sig') !== 'signed' || req.headers.authorization) return answer(403, { message: 'signature' });
        const rows = (file[1] === 'users-1-day' ? fake.copilot.users : fake.copilot.teams)[file[2]!] ?? [];
        const half = rows.filter((_r, i) => i % 2 === Number(file[3]));
        record(200);
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        return res.end(half.map((r) => JSON.stringify(r)).join('\n') + '\n');
      }
      if (seats) {
        const page = Number(url.searchParams.get('page') ?? 1);
        const per = Math.min(Number(url.searchParams.get('per_page') ?? 50), fake.copilot.seatPageSize);
        const slice = fake.copilot.seats.slice((page - 1) * per, page * per);
        const more = page * per < fake.copilot.seats.length;
        const link = more ? { link: `<${fake.url}${url.pathname}?per_page=${per}&page=${page + 1}>; rel="next"` } : undefined;
        return answer(200, { total_seats: fake.copilot.seats.length, seats: slice }, link);
      }

      // Cursor Admin API and AI Code Tracking.
      if (url.pathname === '/teams/daily-usage-data' || url.pathname === '/analytics/ai-code/commits' || url.pathname === '/teams/members') {
        if (req.headers.authorization !== `Basic ${Buffer.from(`${fake.cursor.key}:`).toString('base64')}`) return answer(401, { error: 'Unauthorized' });
      }
      if (url.pathname === '/teams/members' && req.method === 'GET') return answer(200, { teamMembers: [] });
      if (url.pathname === '/teams/daily-usage-data' && req.method === 'POST') {
        const { startDate, endDate } = JSON.parse(request.body || '{}') as { startDate: number; endDate: number };
        if (endDate - startDate > 31 * 86_400_000) return answer(400, { error: 'Date range cannot exceed 30 days' });
        const data = fake.cursor.usage.filter((u) => (u.date as number) >= startDate && (u.date as number) <= endDate);
        return answer(200, { data, period: { startDate, endDate } });
      }
      if (url.pathname === '/analytics/ai-code/commits' && req.method === 'GET') {
        if (fake.cursor.commits === 'not on this plan') return answer(403, { error: 'AI Code Tracking is an Enterprise feature' });
        const page = Number(url.searchParams.get('page') ?? 1);
        const size = Math.min(Number(url.searchParams.get('pageSize') ?? 100), fake.cursor.commitsPageSize);
        const items = fake.cursor.commits.slice((page - 1) * size, page * size);
        return answer(200, { items, totalCount: fake.cursor.commits.length, page, pageSize: size });
      }
      return answer(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}
