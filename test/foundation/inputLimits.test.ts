/**
 * Input PostgreSQL cannot store is a 400 naming the field, on every surface, and writes nothing
 * (docs/input-limits.md): NUL and lone surrogates, invalid UTF-8, timestamps out of range,
 * integers past their column, nesting and size of free-form objects, empty Cube queries.
 */
import { expect } from 'chai';
import { sql } from 'drizzle-orm';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { expectCubeRefusal, expectRefusal } from '../helpers/refusals.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { CSV, register, snapshot } from '../organisation/helpers.js';
import { DEPLOYMENTS, ISSUES, deployment, issue } from '../webhooks/helpers.js';

const JSON_TYPE = { 'content-type': 'application/json' };
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const paths = (res: { body: any }) => ((res.body.details ?? res.body.error?.details ?? []) as { path: string }[]).map((d) => d.path);

describe('input limits: what PostgreSQL cannot store is a 400 naming the field', function () {
  this.timeout(60_000);
  let api: TestServer;
  let t: BuiltTenant;

  before(async () => {
    api = await testServer();
    t = await buildTenant(api.databaseUrl);
  });
  after(() => api.close());

  async function rows(table: string): Promise<number> {
    const result = await dbFor(api.databaseUrl).db.execute(sql`select count(*)::int as n from ${sql.identifier(table)} where tenant_id = ${t.tenantId}::uuid`);
    return result.rows[0]!.n as number;
  }

  describe('webhooks', () => {
    const refused = async (path: string, body: unknown, field: string) => {
      const before = await rows(path === ISSUES ? 'issues' : 'deployments');
      const res = await api.as(t.owner.apiKey).post(path, body, JSON_TYPE);
      expect(res.status, res.text).to.equal(400);
      expect(res.body.error).to.equal('Validation failed');
      expect(paths(res), res.text).to.include(field);
      expect(await rows(path === ISSUES ? 'issues' : 'deployments')).to.equal(before);
    };

    it('refuses NUL in a text field, a label, a metadata key or a nested metadata value', async () => {
      await refused(ISSUES, issue({ title: 'a\u0000b' }), 'title');
      await refused(ISSUES, issue({ labels: ['ok', 'b\u0000'] }), 'labels.1');
      await refused(ISSUES, issue({ metadata: { 'k\u0000': 1 } }), 'metadata.k?');
      await refused(DEPLOYMENTS, deployment({ metadata: { a: { b: ['x', '\u0000'] } } }), 'metadata.a.b.1');
      await refused(DEPLOYMENTS, deployment({ ref: '\u0000' }), 'ref');
      expect(await rows('projects')).to.equal(0);
    });

    it('refuses lone surrogates and bytes that are not UTF-8, instead of storing U+FFFD', async () => {
      await refused(ISSUES, `{"projectKey":"acme/web","externalId":"S1","title":"x\\ud800y","type":"bug","state":"open"}`, 'title');
      const bytes = Buffer.concat([Buffer.from('{"projectKey":"acme/web","externalId":"S2","title":"'), Buffer.from([0xc3, 0x28]), Buffer.from('","type":"bug","state":"open"}')]);
      const res = await api.as(t.owner.apiKey).post(ISSUES, bytes, JSON_TYPE);
      expect(res.status).to.equal(400);
      expect(res.body.details).to.deep.equal([{ path: 'body', message: 'Body is not valid UTF-8' }]);
      expect(await rows('issues')).to.equal(0);
    });

    it('refuses timestamps PostgreSQL cannot hold or that lie outside 1970–9999, accepts the edges', async () => {
      await refused(ISSUES, issue({ createdAt: '2024-05-01T12:00:00+16:00' }), 'createdAt');
      await refused(ISSUES, issue({ createdAt: '0000-01-01T00:00:00Z' }), 'createdAt');
      await refused(ISSUES, issue({ state: 'closed', closedAt: '1969-12-31T23:59:59Z' }), 'closedAt');
      await refused(DEPLOYMENTS, deployment({ createdAt: '2024-05-01T12:00:00-23:59' }), 'createdAt');
      const ok1 = await api.as(t.owner.apiKey).post(ISSUES, issue({ createdAt: '2024-05-01T12:00:00+15:59' }));
      const ok2 = await api.as(t.owner.apiKey).post(DEPLOYMENTS, deployment({ createdAt: '9999-12-31T23:59:59Z' }));
      expect([ok1.status, ok2.status]).to.deep.equal([201, 201]);
    });

    it('refuses an issue number past PostgreSQL integer', async () => {
      await refused(ISSUES, issue({ number: 2_147_483_648 }), 'number');
    });

    it('caps free-form metadata: 5,000 levels, 9 levels and 1,001 keys are refused without a stack overflow', async () => {
      const deep = `{"projectKey":"acme/web","externalId":"D1","title":"t","type":"bug","state":"open","metadata":${nested(5000)}}`;
      const res = await api.as(t.owner.apiKey).post(ISSUES, deep, JSON_TYPE);
      expect(res.status).to.equal(400);
      expect(res.body.details[0].message).to.equal('Nested deeper than 32 levels');
      expect(res.body.details[0].path).to.match(/^metadata(\.a)+$/);
      await refused(ISSUES, issue({ metadata: JSON.parse(nested(9)) }), 'metadata.a.a.a.a.a.a.a.a');
      await refused(ISSUES, issue({ metadata: Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, i])) }), 'metadata');
      const ok = await api.as(t.owner.apiKey).post(ISSUES, issue({ metadata: JSON.parse(nested(8)) }));
      expect(ok.status).to.equal(201);
    });
  });

  describe('sessions', () => {
    const base = { tool: 'claude-code', startedAt: '2025-01-01T10:00:00Z' };
    const refused = async (body: unknown, field: string | RegExp) => {
      const res = await api.as(t.owner.apiKey).post('/api/sessions', body);
      expect(res.status, res.text).to.equal(400);
      if (typeof field === 'string') expect(paths(res), res.text).to.include(field);
      else expect(paths(res)[0]).to.match(field);
      expect(await rows('ai_sessions')).to.equal(0);
    };

    it('refuses NUL, out-of-range timestamps and integers past their columns', async () => {
      await refused({ ...base, tool: 'a\u0000' }, 'tool');
      await refused({ ...base, branch: 'main\u0000' }, 'branch');
      await refused({ ...base, startedAt: '0000-01-01T00:00:00Z' }, 'startedAt');
      await refused({ ...base, endedAt: '2025-01-01T10:00:00+18:00' }, 'endedAt');
      await refused({ ...base, prNumber: 2_147_483_648 }, 'prNumber');
      await refused({ ...base, usage: { messages: 2_147_483_648 } }, 'usage.messages');
      await refused({ ...base, transcript: [JSON.parse(nested(40))] }, /^transcript\.0(\.a)+$/);
    });

    it('refuses NUL and year 0000 in list filters', async () => {
      const NUL = 'Must not contain the NUL character (U+0000)';
      for (const [query, path, message] of [
        ['projectKey=acme%00%2Fweb', 'query.projectKey', NUL],
        ['tool=%00', 'query.tool', NUL],
        ['from=0000-01-01', 'query.from', 'Must be between 1970-01-01 and 9999-12-31'],
        ['to=10000-01-01', 'query.to', 'Invalid input'],
      ] as const) {
        const res = await api.as(t.owner.apiKey).get(`/api/sessions?${query}`);
        expectRefusal(res, 400, { error: { code: 'validation_failed', message: 'Validation failed', details: [{ path, message }] } }, query);
      }
    });
  });

  describe('register and seat files', () => {
    it('refuses a register cell with NUL, naming line and column, and writes nothing', async () => {
      const before = await snapshot(api.databaseUrl, t.tenantId);
      const file = register('E1,ann@example.com,Ann\u0000Example,employee,,CC1,GB,web,Web,T1,CC1,', 'E2,bob@example.com,Bob,employee,,CC1,GB,web,Web,T1,CC1,');
      const res = await api.as(t.owner.apiKey).post('/api/register/imports', file, CSV);
      expect(res.status).to.equal(400);
      expect(res.body.error.details).to.deep.equal([
        { path: 'line 2, display_name', line: 2, column: 'display_name', message: 'Must not contain the NUL character (U+0000)' },
      ]);
      expect(await snapshot(api.databaseUrl, t.tenantId)).to.deep.equal(before);
    });

    it('refuses a register file that is not UTF-8', async () => {
      const file = Buffer.concat([Buffer.from(register('E1,ann@example.com,Ann')), Buffer.from([0xff]), Buffer.from(',employee,,CC1,GB,web,Web,T1,CC1,\n')]);
      const res = await api.as(t.owner.apiKey).post('/api/register/imports', file, CSV);
      expect(res.status).to.equal(400);
      expect(res.body.error.details).to.deep.equal([{ path: 'body', message: 'Body is not valid UTF-8' }]);
    });

    it('refuses seat cells with NUL and dates PostgreSQL cannot store', async () => {
      const people = register('E1,ann@example.com,Ann,employee,,CC1,GB,web,Web,T1,CC1,');
      expect((await api.as(t.owner.apiKey).post('/api/register/imports', people, CSV)).status).to.equal(201);
      const before = await snapshot(api.databaseUrl, t.tenantId);
      const file = 'external_ref,tool,assigned_on\nE1,copilot\u0000,2025-01-01\nE1,copilot,0000-01-01\nE1,cursor,1969-12-31\n';
      const res = await api.as(t.owner.apiKey).post('/api/seats/imports', file, CSV);
      expect(res.status, res.text).to.equal(400);
      expect(res.body.error.details.map((d: any) => `${d.line}:${d.column}`)).to.deep.equal(['2:tool', '3:assigned_on', '4:assigned_on']);
      expect(await snapshot(api.databaseUrl, t.tenantId)).to.deep.equal(before);
    });
  });

  describe('general API', () => {
    it('refuses survey dates PostgreSQL cannot store', async () => {
      const res = await api.as(t.owner.apiKey).post('/api/surveys', { title: 'Q1', teams: ['web'], closesOn: '0000-01-01' });
      expect(res.status, res.text).to.equal(400);
      expect(paths(res)).to.include('closesOn');
      expect(await rows('surveys')).to.equal(0);
    });

    it('refuses export windows and dates outside 1970–9999', async () => {
      const MONTH = 'Must be a month YYYY-MM';
      for (const [path, details] of [
        ['/api/exports/team-baseline?from=0000-01&to=0000-12', [{ path: 'query.from', message: MONTH }, { path: 'query.to', message: MONTH }]],
        ['/api/exports/team-baseline?to=10000-01', [{ path: 'query.to', message: MONTH }]],
        ['/api/exports/team-roster?asOf=0000-01-01', [{ path: 'query.asOf', message: 'Must be a date YYYY-MM-DD' }]],
      ] as const) {
        const res = await api.as(t.owner.apiKey).get(path);
        expectRefusal(res, 400, { error: { code: 'validation_failed', message: 'Validation failed', details } }, path);
      }
    });

    it('refuses NUL in an API key name and in a path segment', async () => {
      const res = await api.as(t.owner.apiKey).post('/api/keys', { name: 'ci\u0000' });
      expectRefusal(res, 400, { error: { code: 'validation_failed', message: 'Invalid request body', details: [{ path: 'name', message: 'Must not contain the NUL character (U+0000)' }] } });
      expect(paths(res)).to.deep.equal(['name']);
      expectRefusal(await api.as(t.owner.apiKey).get('/api/teams/%00'), 400, { error: { code: 'validation_failed', message: 'Validation failed', details: [{ path: 'params.id', message: 'Must not contain the NUL character (U+0000)' }] } });
    });
  });

  describe('Cube API', () => {
    // Cube's own words for it, which its clients show.
    const NO_MEMBER = 'Query should contain either measures, dimensions or timeDimensions with granularities in order to be valid';

    it('answers {}, {"limit":1} and {"measures":[]} with 400, GET and POST', async () => {
      for (const query of [{}, { limit: 1 }, { measures: [] }, { timeDimensions: [{ dimension: 'issues.created_at' }] }]) {
        const post = await api.as(t.owner.apiKey).post('/cubejs-api/v1/load', { query });
        expect(post.status, JSON.stringify(query)).to.equal(400);
        expect(post.body.error).to.equal(NO_MEMBER);
        const get = await api.as(t.owner.apiKey).get(`/cubejs-api/v1/load?query=${encodeURIComponent(JSON.stringify(query))}`);
        expect(get.status).to.equal(400);
        expect(get.body.error).to.equal(NO_MEMBER);
      }
      for (const path of ['/cubejs-api/v1/sql', '/cubejs-api/v1/dry-run']) {
        expectCubeRefusal(await api.as(t.owner.apiKey).post(path, { query: {} }), 400, {
          error: NO_MEMBER, code: 'validation_failed',
          details: [{ path: 'query', message: 'A query needs at least one measure or dimension (or a time dimension with a granularity)' }],
        }, path);
      }
    });

    it('answers absurd nesting with 400, in a body and in ?query=', async () => {
      const leaf = '{"member":"issues.type","operator":"equals","values":["bug"]}';
      const query = `{"measures":["issues.count"],"filters":[${'{"or":['.repeat(5000)}${leaf}${']}'.repeat(5000)}]}`;
      const post = await api.as(t.owner.apiKey).post('/cubejs-api/v1/load', `{"query":${query}}`, JSON_TYPE);
      expect(post.status).to.equal(400);
      expect(post.body.details[0].message).to.equal('Nested deeper than 32 levels');
      const deepGet = await api.as(t.owner.apiKey).get(`/cubejs-api/v1/load?query=${encodeURIComponent(`{"measures":["issues.count"],"filters":[${'{"or":['.repeat(300)}{}${']}'.repeat(300)}]}`)}`);
      expect(deepGet.status).to.equal(400);
      expect(deepGet.body.details[0].message).to.equal('Nested deeper than 32 levels');
    });

    it('refuses NUL in a filter value', async () => {
      const res = await api.as(t.owner.apiKey).post('/cubejs-api/v1/load', { query: { measures: ['issues.count'], filters: [{ member: 'issues.type', operator: 'equals', values: ['\u0000'] }] } });
      expect(res.status).to.equal(400);
      expect(res.body.details).to.deep.equal([{ path: 'query.filters.0.values.0', message: 'Must not contain the NUL character (U+0000)' }]);
    });
  });
});
