import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import cube from '@cubejs-client/core';
import { parse } from 'yaml';
import type { TestServer } from '../helpers/server.js';
import { buildSessionCookie, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { expectCubeRefusal } from '../helpers/refusals.js';
import { SCHEMA_DIR, loadCube } from '../../src/cube/compiler.js';
import { cubeSql } from '../../src/cube/service.js';
import { PUBLIC_CUBES } from '../../src/cube/publicCubes.js';
import { serverWithTwoFixtures, type Fixture } from './fixture.js';

const REQUIRED = /^SELECT \* FROM [a-z_]+ WHERE \{SECURITY_CONTEXT\.tenant_id\.requiredFilter\('tenant_id'\)\}$/;

describe('semantic cube', function () {
  this.timeout(60_000);
  let api: TestServer, a: BuiltTenant, b: BuiltTenant;
  let fa: Fixture;

  before(async () => {
    ({ api, a, b, fa } = await serverWithTwoFixtures());
    await dbFor(api.databaseUrl).pool.query(`update pull_requests set merged_at = '2025-03-07Z', state = 'merged' where tenant_id = $1 and merged_at is null`, [b.tenantId]);
  });
  after(() => api.close());

  describe('models', () => {
    const files = readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.yml'));
    const cubes = files.flatMap((f) => (parse(readFileSync(`${SCHEMA_DIR}/${f}`, 'utf8')) as { cubes: Record<string, unknown>[] }).cubes);

    it('every cube reads its table through the tenant requiredFilter, except the listed public cubes with their exact SQL', () => {
      expect(cubes.map((c) => c.name)).to.include.members(['issues', 'pull_requests', 'commits', 'deployments', 'ai_sessions', 'seats', 'survey_responses', 'survey_results', 'teams', 'people', 'memberships', 'projects']);
      expect(Object.keys(PUBLIC_CUBES)).to.deep.equal(['benchmarks']);
      for (const c of cubes) {
        if (Object.hasOwn(PUBLIC_CUBES, String(c.name))) expect(String(c.sql).trim(), String(c.name)).to.equal(PUBLIC_CUBES[String(c.name)]);
        else expect(String(c.sql), String(c.name)).to.match(REQUIRED);
      }
      // A public cube joins nothing: no join path leads from it to a tenant's rows.
      for (const c of cubes.filter((c) => Object.hasOwn(PUBLIC_CUBES, String(c.name)))) expect(c.joins, String(c.name)).to.equal(undefined);
    });

    it('every measure has a title and a description, and is defined once', async () => {
      const names = new Map<string, string>();
      let checked = 0;
      for (const c of cubes) {
        for (const m of c.measures as { name: string; title?: string; description?: string; public?: boolean }[]) {
          checked += 1;
          expect(m.title, `${c.name}.${m.name}`).to.be.a('string').and.not.empty;
          expect(m.description, `${c.name}.${m.name}`).to.be.a('string').and.not.empty;
          // A hidden measure may repeat a public one's name: change_lead_times' copies of pull_requests'
          // phase measures over the stored values (the AI impact page's reads), which
          // test/facts/prValuesStored.test.ts and aiImpact.test.ts hold equal to the originals.
          if (!['count'].includes(m.name) && m.public !== false) {
            expect(names.has(m.name), `${m.name} defined twice`).to.equal(false);
            names.set(m.name, String(c.name));
          }
        }
      }
      const compiled = await loadCube();
      expect(compiled.meta.map((c) => c.name).sort()).to.deep.equal(cubes.map((c) => String(c.name)).sort());
      expect(checked).to.equal(compiled.meta.flatMap((c) => c.measures).length);
    });

    it("the tenant is a bound parameter of every cube's SQL, joined cubes included", async () => {
      const compiled = await loadCube();
      expect(compiled.meta).to.have.length(cubes.length);
      // The public cube's SQL binds no tenant and reads no tenant table.
      const corpus = await cubeSql({ tenantId: a.tenantId }, { measures: ['benchmarks.repository_months'] });
      expect(corpus.statements.map((s) => s.params)).to.deep.equal([[]]);
      expect(corpus.statements[0]!.sql).to.match(/FROM benchmark_corpus\)/);
      expect(corpus.statements[0]!.sql.match(/FROM [a-z_]+/g), 'global tables only').to.deep.equal(['FROM benchmark_corpus_source', 'FROM benchmark_corpus_source', 'FROM benchmark_corpus_source', 'FROM benchmark_corpus']);
      for (const c of compiled.meta) {
        if (Object.hasOwn(PUBLIC_CUBES, c.name)) continue;
        const measure = c.measures[0]?.name as string;
        const dims = c.name === 'teams' ? [] : ['teams.slug'];
        const { statements } = await cubeSql({ tenantId: a.tenantId }, { measures: [measure], dimensions: ['people', 'issues', 'ai_usage'].includes(c.name) ? [] : dims });
        expect(statements.length, c.name).to.be.greaterThan(0);
        for (const s of statements) {
          expect(s.sql).not.to.contain(a.tenantId);
          const tables = s.sql.match(/\(SELECT \* FROM [a-z_]+ WHERE tenant_id = \$\d+\)/g) ?? [];
          expect(tables.length, c.name).to.be.greaterThan(0);
          expect(s.sql.match(/FROM [a-z_]+ WHERE/g)?.length).to.equal(tables.length);
          expect(s.params.filter((p) => p === a.tenantId)).to.have.length(tables.length);
        }
      }
    });

    it('a planned query is kept per tenant: the same query asked by two tenants, twice each, binds each its own id', async () => {
      const query = { measures: ['pull_requests.prs_merged'], dimensions: ['teams.slug'], timeDimensions: [{ dimension: 'pull_requests.merged_at', granularity: 'month', dateRange: ['2025-01-01', '2025-03-31'] }] };
      const tenantParams = async (tenantId: string) => (await cubeSql({ tenantId }, query)).statements.flatMap((s) => s.params.filter((p) => p === a.tenantId || p === b.tenantId));
      for (let round = 0; round < 2; round += 1) {
        const [ofA, ofB] = [await tenantParams(a.tenantId), await tenantParams(b.tenantId)];
        expect(ofA.length).to.be.greaterThan(0);
        expect(ofA.every((p) => p === a.tenantId), 'a').to.equal(true);
        expect(ofB).to.deep.equal(ofA.map(() => b.tenantId));
      }
    });

    it('every dimension on a uuid column, and only those, has meta.uuid (never Cube\'s numeric format: id)', async () => {
      const { pool } = dbFor(api.databaseUrl);
      const { rows } = await pool.query(`select table_name, column_name, data_type from information_schema.columns where table_schema = current_schema()`);
      const typeOf = new Map(rows.map((r: Record<string, string>) => [`${r.table_name}.${r.column_name}`, r.data_type]));
      const ids: string[] = [];
      for (const c of cubes) {
        const table = /FROM ([a-z_]+)( WHERE|$)/.exec(String(c.sql))?.[1];
        for (const d of c.dimensions as { name: string; sql: string; type: string; format?: string; meta?: { uuid?: boolean } }[]) {
          // The public corpus cube adds month_start and the corpus source's columns, expressions, to its table's columns.
          const column = /^[a-z_]+$/.test(d.sql) ? typeOf.get(`${table}.${d.sql}`) ?? (['month_start', 'corpus_source', 'corpus_repositories', 'corpus_read_on'].includes(d.sql) ? 'expression' : undefined) : 'expression';
          expect(column, `${c.name}.${d.name}`).to.be.a('string');
          expect(d.meta?.uuid === true, `${c.name}.${d.name} is ${column}`).to.equal(column === 'uuid');
          expect(d.format, `${c.name}.${d.name}`).to.equal(undefined);
          if (d.meta?.uuid === true) ids.push(`${c.name}.${d.name}`);
        }
      }
      expect(ids).to.include.members(['teams.id', 'pull_requests.team_id', 'memberships.person_id', 'projects.owning_team_id', 'incidents.caused_by_deployment_id']);
      expect(ids).not.to.include.members(['author_activity.id', 'memberships.id']);
      const compiled = await loadCube();
      expect(compiled.members['pull_requests.team_id']?.format).to.equal('id');
      expect(compiled.members['pull_requests.author_username']?.format).to.equal(undefined);
    });

    it('the PR AI-assisted flag of the cube view agrees with pull_request_ai_assisted', async () => {
      const { pool } = dbFor(api.databaseUrl);
      const { rows } = await pool.query(
        `select count(*)::int as n, count(*) filter (where c.ai_assisted is distinct from v.ai_assisted)::int as differ
         from cube_pull_requests c join pull_request_ai_assisted v on v.pull_request_id = c.id where c.tenant_id = $1`,
        [a.tenantId],
      );
      expect(rows[0]).to.deep.equal({ n: 6, differ: 0 });
    });
  });

  describe('Cube REST protocol', () => {
    it('needs credentials: API key (bare or Bearer) or session', async () => {
      expectCubeRefusal(await api.get('/cubejs-api/v1/meta'), 401, { error: 'Missing or invalid credentials', code: 'unauthorized' });
      expect((await api.get('/cubejs-api/v1/meta')).body.error).to.be.a('string');
      expect((await api.with({ authorization: a.owner.apiKey }).get('/cubejs-api/v1/meta')).status).to.equal(200);
      const cookie = await buildSessionCookie(api.databaseUrl, a.owner.userId, a.tenantId);
      const meta = await api.with({ cookie }).get('/cubejs-api/v1/meta');
      expect(meta.status).to.equal(200);
      const prs = meta.body.cubes.find((c: { name: string }) => c.name === 'pull_requests');
      expect(prs.measures.find((m: { name: string }) => m.name === 'pull_requests.prs_merged')).to.deep.include({ shortTitle: 'Pull requests merged', type: 'number' });
      // A uuid is marked in `meta`: Cube's `format: id` is numeric, and its client prints a UUID under it as NaN.
      const teamId = prs.dimensions.find((d: { name: string }) => d.name === 'pull_requests.team_id');
      expect(teamId).to.deep.include({ type: 'string', meta: { uuid: true } });
      expect(teamId).not.to.have.property('format');
    });

    it('@cubejs-client/core loads time series through ResultSet, scoped to the tenant', async () => {
      const client = cube(a.owner.apiKey, { apiUrl: `${api.baseUrl}/cubejs-api/v1` });
      const query = {
        measures: ['pull_requests.prs_merged', 'pull_requests.pr_cycle_time_p50_seconds'],
        dimensions: ['teams.slug'],
        timeDimensions: [{ dimension: 'pull_requests.merged_at', granularity: 'month' as const, dateRange: ['2025-02-01', '2025-04-30'] as [string, string] }],
        filters: [{ member: 'teams.slug', operator: 'equals' as const, values: ['alpha'] }],
      };
      const result = await client.load(query);
      expect(result.rawData()).to.deep.equal([
        { 'teams.slug': 'alpha', 'pull_requests.merged_at.month': '2025-03-01T00:00:00.000', 'pull_requests.merged_at': '2025-03-01T00:00:00.000', 'pull_requests.prs_merged': '3', 'pull_requests.pr_cycle_time_p50_seconds': '36000' },
      ]);
      // The client fills the months without rows from the query's date range.
      expect(result.chartPivot().map((p) => [p.x, p['alpha,pull_requests.prs_merged']])).to.deep.equal([
        ['2025-02-01T00:00:00.000', 0], ['2025-03-01T00:00:00.000', 3], ['2025-04-01T00:00:00.000', 0],
      ]);
      expect(result.tablePivot()).to.deep.equal([{ 'teams.slug': 'alpha', 'pull_requests.merged_at.month': '2025-03-01T00:00:00.000', 'pull_requests.prs_merged': '3', 'pull_requests.pr_cycle_time_p50_seconds': '36000' }]);
      const other = await cube(b.owner.apiKey, { apiUrl: `${api.baseUrl}/cubejs-api/v1` }).load(query);
      expect(other.rawData()[0]?.['pull_requests.prs_merged']).to.equal('4');
      const sql = await client.sql(query);
      expect(sql.sql()).to.contain('(SELECT * FROM cube_pull_requests WHERE tenant_id = $1)');
      const dry = await client.dryRun(query);
      expect(dry.normalizedQueries?.[0]?.timeDimensions?.[0]?.dateRange).to.deep.equal(['2025-02-01T00:00:00.000', '2025-04-30T23:59:59.999']);
      const meta = await client.meta();
      expect(meta.cubes.map((c) => c.name)).to.include('deployments');
    });

    it('counts tenant-wide facts, the unowned project included, and converts numbers', async () => {
      const res = await api.as(a.owner.apiKey).post('/cubejs-api/v1/load', {
        query: { measures: ['pull_requests.prs_merged', 'deployments.change_failure_rate'], timeDimensions: [{ dimension: 'pull_requests.merged_at', dateRange: ['2025-03-01', '2025-03-31'] }, { dimension: 'deployments.created_at', dateRange: ['2025-03-01', '2025-03-31'] }] },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.deep.equal([{ 'pull_requests.prs_merged': '5', 'deployments.change_failure_rate': '0.8' }]);
    });

    it('splits a multi-fact query by fact cube and merges on team and month', async () => {
      const res = await api.as(a.owner.apiKey).get(`/cubejs-api/v1/load?query=${encodeURIComponent(JSON.stringify({
        measures: ['pull_requests.prs_merged', 'deployments.production_deploys', 'ai_sessions.ai_sessions'],
        dimensions: ['teams.slug'],
        timeDimensions: [
          { dimension: 'pull_requests.merged_at', granularity: 'month', dateRange: ['2025-03-01', '2025-04-30'] },
          { dimension: 'deployments.created_at', granularity: 'month', dateRange: ['2025-03-01', '2025-04-30'] },
          { dimension: 'ai_sessions.started_at', granularity: 'month', dateRange: ['2025-03-01', '2025-04-30'] },
        ],
        order: { 'teams.slug': 'asc' },
      }))}&queryType=multi`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const rows = res.body.results[0].data.map((r: Record<string, unknown>) => [r['teams.slug'], r['pull_requests.merged_at.month'], r['pull_requests.prs_merged'], r['deployments.production_deploys'], r['ai_sessions.ai_sessions']]);
      expect(rows).to.deep.include.members([
        ['alpha', '2025-03-01T00:00:00.000', '3', '4', '2'],
        ['alpha', '2025-04-01T00:00:00.000', null, '2', null],
        ['beta', '2025-03-01T00:00:00.000', null, null, '3'],
      ]);
      const sql = await api.as(a.owner.apiKey).post('/cubejs-api/v1/sql', { query: { measures: ['pull_requests.prs_merged', 'deployments.production_deploys'], dimensions: ['teams.slug'] } });
      expect(sql.body.statements.map((s: { cube: string }) => s.cube)).to.deep.equal(['pull_requests', 'deployments']);
    });
  });

  describe('hostile queries', () => {
    const hostile: [string, unknown][] = [
      ['__proto__ member', { measures: ['__proto__.polluted'] }],
      ['constructor member', { measures: ['constructor'] }],
      ['constructor.prototype member', { dimensions: ['constructor.prototype'] }],
      ['__proto__ granularity', { measures: ['pull_requests.prs_merged'], timeDimensions: [{ dimension: 'pull_requests.merged_at', granularity: '__proto__' }] }],
      ['constructor granularity', { measures: ['pull_requests.prs_merged'], timeDimensions: [{ dimension: 'pull_requests.merged_at', granularity: 'constructor' }] }],
      ['unknown member', { measures: ['pull_requests.nope'] }],
      ['measure as dimension', { dimensions: ['pull_requests.prs_merged'] }],
      ['unknown operator', { measures: ['pull_requests.prs_merged'], filters: [{ member: 'teams.slug', operator: 'raw', values: ['1'] }] }],
      ['reversed date range', { measures: ['pull_requests.prs_merged'], timeDimensions: [{ dimension: 'pull_requests.merged_at', dateRange: ['2025-04-01', '2025-03-01'] }] }],
      ['malformed date', { measures: ['pull_requests.prs_merged'], timeDimensions: [{ dimension: 'pull_requests.merged_at', dateRange: ['2025-02-30', '2025-03-01'] }] }],
      ['three-element range', { measures: ['pull_requests.prs_merged'], timeDimensions: [{ dimension: 'pull_requests.merged_at', dateRange: ['2025-02-01', '2025-02-02', '2025-02-03'] }] }],
      ['a sentence as a relative range', { measures: ['pull_requests.prs_merged'], timeDimensions: [{ dimension: 'pull_requests.merged_at', dateRange: 'last week, more or less' }] }],
      ['an unknown time zone', { measures: ['pull_requests.prs_merged'], timezone: 'Mars/Olympus_Mons' }],
      ['SQL in a date value', { measures: ['pull_requests.prs_merged'], filters: [{ member: 'pull_requests.merged_at', operator: 'afterDate', values: ["2025-01-01'; drop table teams; --"] }] }],
      ['SQL in a numeric filter', { measures: ['pull_requests.prs_merged'], filters: [{ member: 'pull_requests.prs_merged', operator: 'gt', values: ['0) or (1=1'] }] }],
      ['SQL in a time zone', { measures: ['pull_requests.prs_merged'], timezone: "UTC') or 1=1 --" }],
      ['SQL in an id value', { measures: ['pull_requests.prs_merged'], filters: [{ member: 'pull_requests.team_id', operator: 'equals', values: ["x' OR '1'='1"] }] }],
      ['SQL in a primary-key id value', { measures: ['teams.count'], filters: [{ member: 'teams.id', operator: 'notEquals', values: ['00000000-0000-0000-0000-000000000000', "1) or (1=1"] }] }],
      ['SQL in a nested id value', { measures: ['teams.count'], filters: [{ or: [{ member: 'memberships.person_id', operator: 'equals', values: ["'; drop table people; --"] }] }] }],
      ['contains on an id', { measures: ['pull_requests.prs_merged'], filters: [{ member: 'pull_requests.team_id', operator: 'contains', values: ['0000'] }] }],
      ['gt on an id', { measures: ['teams.count'], filters: [{ member: 'teams.id', operator: 'gt', values: ['00000000-0000-0000-0000-000000000000'] }] }],
      ['SQL in a boolean value', { measures: ['pull_requests.prs_merged'], filters: [{ member: 'pull_requests.ai_assisted', operator: 'equals', values: ["true' OR '1'='1"] }] }],
      ['a Postgres boolean spelling', { measures: ['teams.count'], filters: [{ member: 'teams.enabled', operator: 'equals', values: ['yes'] }] }],
      ['startsWith on a boolean', { measures: ['teams.count'], filters: [{ member: 'teams.enabled', operator: 'startsWith', values: ['t'] }] }],
      ['contains on a number', { measures: ['pull_requests.prs_merged'], filters: [{ member: 'pull_requests.prs_merged', operator: 'contains', values: ['1'] }] }],
      ['planner contextSymbols', { measures: ['teams.count'], contextSymbols: { securityContext: { tenant_id: 'x' } } }],
      ['planner useNativeSqlPlanner', { measures: ['teams.count'], useNativeSqlPlanner: true }],
      ['planner memberToAlias', { measures: ['teams.count'], memberToAlias: { 'teams.count': 'x' } }],
      ['limit over the maximum', { measures: ['teams.count'], limit: 50_001 }],
      ['order by an unknown member', { measures: ['teams.count'], order: { 'teams.nope': 'asc' } }],
      ['__proto__ order', { measures: ['teams.count'], order: JSON.parse('{"__proto__": "asc"}') }],
      ['no join path', { measures: ['people.count'], dimensions: ['projects.project_key'] }],
    ];
    for (const [name, query] of hostile) {
      it(`${name} → 400 naming the problem`, async () => {
        const res = await api.as(a.owner.apiKey).post('/cubejs-api/v1/load', { query });
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body.code).to.equal('validation_failed');
        expect(res.body.error).to.be.a('string').and.not.empty;
      });
    }

    it('names the unknown member and operator', async () => {
      const res = await api.as(a.owner.apiKey).post('/cubejs-api/v1/load', { query: { measures: ['pull_requests.nope'] } });
      expect(res.body.error).to.equal('Unknown member pull_requests.nope');
      const op = await api.as(a.owner.apiKey).post('/cubejs-api/v1/load', { query: { measures: ['teams.count'], filters: [{ member: 'teams.slug', operator: 'raw', values: ['1'] }] } });
      expect(op.body).to.deep.equal({ error: 'Unknown operator raw', code: 'validation_failed', details: [{ path: 'query.filters.0.operator', message: 'Unknown operator raw' }], requestId: op.headers.get('x-request-id') });
    });

    it('refuses SQL in id and boolean values with the path, and the process stays healthy', async () => {
      const load = (query: unknown) => api.as(a.owner.apiKey).post('/cubejs-api/v1/load', { query });
      const id = await load({ measures: ['pull_requests.prs_merged'], filters: [{ member: 'pull_requests.team_id', operator: 'equals', values: ["x' OR '1'='1"] }] });
      expect(id.status).to.equal(400);
      expect(id.body).to.deep.equal({
        error: 'Values of pull_requests.team_id are UUIDs (8-4-4-4-12 hex digits)',
        code: 'validation_failed',
        details: [{ path: 'query.filters.0.values', message: 'Values of pull_requests.team_id are UUIDs (8-4-4-4-12 hex digits)' }],
        requestId: id.headers.get('x-request-id'),
      });
      const bool = await load({ measures: ['teams.count'], filters: [{ member: 'teams.slug', operator: 'set' }, { and: [{ member: 'teams.enabled', operator: 'equals', values: ["true' OR '1'='1"] }] }] });
      expect(bool.status).to.equal(400);
      expect(bool.body).to.deep.equal({
        error: 'Values of teams.enabled are true or false',
        code: 'validation_failed',
        details: [{ path: 'query.filters.1.and.0.values', message: 'Values of teams.enabled are true or false' }],
        requestId: bool.headers.get('x-request-id'),
      });
      const op = await load({ measures: ['pull_requests.prs_merged'], filters: [{ member: 'pull_requests.team_id', operator: 'startsWith', values: ["x' OR '1'='1"] }] });
      expect(op.status).to.equal(400);
      expect(op.body.details).to.deep.equal([
        { path: 'query.filters.0.operator', message: 'startsWith applies to text members; pull_requests.team_id is an id; pull_requests.team_id takes equals, notEquals, set, notSet' },
        { path: 'query.filters.0.values', message: 'Values of pull_requests.team_id are UUIDs (8-4-4-4-12 hex digits)' },
      ]);
      const after = await load({ measures: ['teams.count'] });
      expect(after.status).to.equal(200);
      expect(after.body.data).to.deep.equal([{ 'teams.count': '3' }]);
    });

    it('filters ids by UUID (either case) and booleans by true or false', async () => {
      const march = { dimension: 'pull_requests.merged_at', dateRange: ['2025-03-01', '2025-03-31'] };
      const merged = async (filters: unknown[]) => {
        const res = await api.as(a.owner.apiKey).post('/cubejs-api/v1/load', { query: { measures: ['pull_requests.prs_merged'], timeDimensions: [march], filters } });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return Number(res.body.data[0]['pull_requests.prs_merged']);
      };
      const alpha = fa.teams.alpha;
      expect(await merged([{ member: 'pull_requests.team_id', operator: 'equals', values: [alpha] }])).to.equal(3);
      expect(await merged([{ member: 'pull_requests.team_id', operator: 'equals', values: [alpha.toUpperCase()] }])).to.equal(3);
      // notEquals keeps the unowned project's PR (no team) and gamma's: Cube adds OR IS NULL.
      expect(await merged([{ member: 'pull_requests.team_id', operator: 'notEquals', values: [alpha] }])).to.equal(2);
      expect(await merged([{ member: 'pull_requests.team_id', operator: 'equals', values: [fa.teams.beta, fa.teams.gamma] }])).to.equal(1);
      expect(await merged([{ member: 'pull_requests.team_id', operator: 'notSet' }])).to.equal(1);
      expect(await merged([{ member: 'pull_requests.ai_assisted', operator: 'equals', values: [true] }])).to.equal(2);
      expect(await merged([{ member: 'pull_requests.ai_assisted', operator: 'equals', values: ['false'] }])).to.equal(3);
      expect(await merged([{ member: 'pull_requests.ai_assisted', operator: 'notEquals', values: ['true'] }])).to.equal(3);
      const teams = await api.as(a.owner.apiKey).post('/cubejs-api/v1/load', {
        query: { measures: ['teams.count'], dimensions: ['teams.slug'], filters: [{ member: 'teams.enabled', operator: 'equals', values: [false] }, { member: 'teams.id', operator: 'equals', values: [fa.teams.gamma] }] },
      });
      expect(teams.status, JSON.stringify(teams.body)).to.equal(200);
      expect(teams.body.data).to.deep.equal([{ 'teams.slug': 'gamma', 'teams.count': '1' }]);
    });

    it('binds SQL in string values and leaves the process healthy', async () => {
      const res = await api.as(a.owner.apiKey).post('/cubejs-api/v1/load', {
        query: { measures: ['teams.count'], filters: [{ member: 'teams.slug', operator: 'equals', values: ["alpha' or '1'='1"] }] },
      });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal([{ 'teams.count': '0' }]);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
      expect(Object.keys(Object.prototype)).to.deep.equal([]);
      const after = await api.as(a.owner.apiKey).post('/cubejs-api/v1/load', { query: { measures: ['teams.count'] } });
      expect(after.body.data).to.deep.equal([{ 'teams.count': '3' }]);
      expect(fa.teams.alpha).to.be.a('string');
    });
  });
});
