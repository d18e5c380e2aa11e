/**
 * Cube's REST protocol as Cube clients use it: every filter operator with Cube's documented
 * semantics, relative date ranges, time zones, compareDateRange, data blending, total, ungrouped,
 * order, the response fields and numbers as strings, through `@cubejs-client/core` and raw HTTP.
 * Data: test/cube/restFixture.ts.
 */
import { expect } from 'chai';
import cube, { type Query } from '@cubejs-client/core';
import { formatValue } from '@cubejs-client/core/format';
import type { TestServer } from '../helpers/server.js';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { refreshRollups } from '../../src/cube/rollupRefresh.js';
import { buildRestFixture, MERGED, type RestFixture } from './restFixture.js';
import { serverWithTwoTenants } from '../helpers/suites.js';

const PRS = 'pull_requests.prs_merged';
const MERGED_AT = 'pull_requests.merged_at';
const AUTHOR = 'pull_requests.author_username';

describe('Cube REST protocol', function () {
  this.timeout(60_000);
  let api: TestServer, a: BuiltTenant, b: BuiltTenant;
  let fa: RestFixture;

  before(async () => {
    ({ api, a, b } = await serverWithTwoTenants());
    fa = await buildRestFixture(dbFor(api.databaseUrl).pool, a.tenantId);
  });
  after(() => api.close());

  const client = (key = a.owner.apiKey, options: { castNumerics?: boolean } = {}) => cube(key, { apiUrl: `${api.baseUrl}/cubejs-api/v1`, ...options });
  const load = (query: unknown, extra: Record<string, unknown> = {}, key = a.owner.apiKey) => api.as(key).post('/cubejs-api/v1/load', { query, ...extra });
  /** prs_merged under the filters (a number: the wire carries Cube's strings). */
  const merged = async (filters: unknown[], extra: Record<string, unknown> = {}) => {
    const res = await load({ measures: [PRS], filters, ...extra });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return Number(res.body.data[0][PRS]);
  };
  const on = (operator: string, values: unknown[]) => [{ member: MERGED_AT, operator, values }];
  const by = (operator: string, values: unknown[]) => [{ member: AUTHOR, operator, values }];

  describe('date operators (a bare date is its whole day in the query time zone)', () => {
    it('onTheDate with one date is that day, never "from that day on"', async () => {
      expect(await merged(on('onTheDate', ['2025-03-01']))).to.equal(2);
      expect(await merged(on('onTheDate', ['2025-03-01', '2025-03-02']))).to.equal(4);
    });
    it('onTheDate follows the time zone: 1 March in Amsterdam holds other pull requests', async () => {
      const authors = async (timezone?: string) => {
        const res = await load({ measures: [PRS], dimensions: [AUTHOR], filters: on('onTheDate', ['2025-03-01']), order: { [AUTHOR]: 'asc' }, ...(timezone ? { timezone } : {}) });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return res.body.data;
      };
      expect(await authors()).to.deep.equal([{ [AUTHOR]: 'alice', [PRS]: '1' }, { [AUTHOR]: 'bob', [PRS]: '1' }]);
      expect(await authors('Europe/Amsterdam')).to.deep.equal([{ [AUTHOR]: 'alice', [PRS]: '2' }]);
    });
    it('inDateRange: two dates, or one (that day)', async () => {
      expect(await merged(on('inDateRange', ['2025-03-01', '2025-03-02']))).to.equal(4);
      expect(await merged(on('inDateRange', ['2025-03-02']))).to.equal(2);
    });
    it('notInDateRange', async () => {
      expect(await merged(on('notInDateRange', ['2025-03-01', '2025-03-02']))).to.equal(MERGED - 4);
    });
    it('beforeDate: before the day starts; a timestamp is exact', async () => {
      expect(await merged(on('beforeDate', ['2025-03-01']))).to.equal(1);
      expect(await merged(on('beforeDate', ['2025-03-01T12:00:00']))).to.equal(2);
    });
    it('beforeOrOnDate: the whole day included', async () => {
      expect(await merged(on('beforeOrOnDate', ['2025-03-01']))).to.equal(3);
    });
    it('afterDate: after the day ends; a UTC timestamp is that instant', async () => {
      expect(await merged(on('afterDate', ['2025-03-01']))).to.equal(7);
      expect(await merged(on('afterDate', ['2025-03-02T00:00:00Z']))).to.equal(6);
    });
    it('afterOrOnDate: from the day start', async () => {
      expect(await merged(on('afterOrOnDate', ['2025-03-01']))).to.equal(9);
    });
    it('refuses a date operator on a text member, a second value where one is meant, and impossible dates', async () => {
      for (const [filters, message] of [
        [by('afterDate', ['2025-03-01']), 'afterDate applies to time dimensions only; pull_requests.author_username is a string; pull_requests.author_username takes equals, notEquals, contains, notContains, startsWith, notStartsWith, endsWith, notEndsWith, set, notSet'],
        [on('afterDate', ['2025-03-01', '2025-03-02']), 'afterDate takes one date'],
        [on('onTheDate', ['2025-02-30']), 'Not a valid date: 2025-02-30'],
        [on('inDateRange', ['2025-03-02', '2025-03-01']), 'A date range is two ordered dates (from before to)'],
        [on('inDateRange', ['last week', '2025-03-01']), 'A relative range is one value, e.g. ["last 2 weeks"]'],
      ] as const) {
        const res = await load({ measures: [PRS], filters });
        expect(res.status).to.equal(400);
        expect(res.body.error).to.equal(message);
      }
    });
  });

  describe('other operators', () => {
    it('equals (one value or several)', async () => {
      expect(await merged(by('equals', ['alice']))).to.equal(3);
      expect(await merged(by('equals', ['alice', 'bob']))).to.equal(4);
    });
    it('notEquals', async () => expect(await merged(by('notEquals', ['alice']))).to.equal(7));
    it('contains: case-insensitive, any of the values', async () => {
      expect(await merged(by('contains', ['ARO']))).to.equal(1);
      expect(await merged(by('contains', ['li', 'an']))).to.equal(6);
    });
    it('notContains: none of the values', async () => expect(await merged(by('notContains', ['a']))).to.equal(2));
    it('startsWith and notStartsWith', async () => {
      expect(await merged(by('startsWith', ['AL']))).to.equal(3);
      expect(await merged(by('notStartsWith', ['al']))).to.equal(7);
    });
    it('endsWith and notEndsWith', async () => {
      expect(await merged(by('endsWith', ['-x']))).to.equal(1);
      expect(await merged(by('notEndsWith', ['e']))).to.equal(6);
    });
    it('wildcards in a text value are literal', async () => expect(await merged(by('contains', ['%']))).to.equal(0));
    it('set and notSet', async () => {
      expect(await merged([{ member: 'pull_requests.team_id', operator: 'notSet' }])).to.equal(1);
      expect(await merged([{ member: 'pull_requests.team_id', operator: 'set' }])).to.equal(MERGED - 1);
    });
    const authorsWhere = async (operator: string, value: string) => {
      const res = await load({ measures: [PRS], dimensions: [AUTHOR], filters: [{ member: PRS, operator, values: [value] }], order: { [AUTHOR]: 'asc' } });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.data.map((r: Record<string, string>) => r[AUTHOR]).sort();
    };
    it('gt on a measure (a filter of the groups)', async () => expect(await authorsWhere('gt', '1')).to.deep.equal(['alice', 'frank']));
    it('gte on a measure', async () => expect(await authorsWhere('gte', '3')).to.deep.equal(['alice', 'frank']));
    it('lt on a measure', async () => expect(await authorsWhere('lt', '1')).to.deep.equal(['erin']));
    it('lte on a measure', async () => expect(await authorsWhere('lte', '1')).to.deep.equal(['Carol-X', 'bob', 'dave', 'erin', 'zed']));
    it('gt on a text member is refused (numbers only), naming the operators it takes', async () => {
      const res = await load({ measures: [PRS], filters: by('gt', ['a']) });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.equal('gt applies to numbers; pull_requests.author_username is a string; pull_requests.author_username takes equals, notEquals, contains, notContains, startsWith, notStartsWith, endsWith, notEndsWith, set, notSet');
    });
    it("measureFilter applies a measure's own filters to the rows", async () => {
      const res = await load({ dimensions: [AUTHOR], filters: [{ member: PRS, operator: 'measureFilter' }] });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data.map((r: Record<string, string>) => r[AUTHOR]).sort()).to.deep.equal(['Carol-X', 'alice', 'bob', 'dave', 'frank', 'zed']);
    });
    it('or and and groups; a group mixing a measure and a dimension is refused', async () => {
      expect(await merged([{ or: [{ member: AUTHOR, operator: 'equals', values: ['alice'] }, { member: AUTHOR, operator: 'equals', values: ['bob'] }] }])).to.equal(4);
      expect(await merged([{ and: [{ member: AUTHOR, operator: 'startsWith', values: ['a'] }, { member: AUTHOR, operator: 'endsWith', values: ['e'] }] }])).to.equal(3);
      const mixed = await load({ measures: [PRS], filters: [{ or: [{ member: AUTHOR, operator: 'equals', values: ['alice'] }, { member: PRS, operator: 'gt', values: ['1'] }] }] });
      expect(mixed.status).to.equal(400);
      expect(mixed.body.error).to.equal('A filter group cannot mix measures and dimensions (a measure filters groups, a dimension rows)');
    });
  });

  describe('date ranges and time zones', () => {
    it('a single date, as a string or a one-element array, is that day', async () => {
      for (const dateRange of ['2025-03-01', ['2025-03-01']]) {
        const res = await load({ measures: [PRS], timeDimensions: [{ dimension: MERGED_AT, dateRange }] });
        expect(res.body.data, JSON.stringify(dateRange)).to.deep.equal([{ [PRS]: '2' }]);
        expect(res.body.query.timeDimensions[0].dateRange).to.deep.equal(['2025-03-01T00:00:00.000', '2025-03-01T23:59:59.999']);
      }
    });
    it('an IANA time zone moves day and month buckets; the normalised query names it', async () => {
      const days = async (timezone: string, granularity: string, dateRange: string[]) => {
        const res = await load({ measures: [PRS], timeDimensions: [{ dimension: MERGED_AT, granularity, dateRange }], timezone });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.query.timezone).to.equal(timezone);
        return res.body.data.map((r: Record<string, string>) => [r[`${MERGED_AT}.${granularity}`], r[PRS]]);
      };
      expect(await days('UTC', 'day', ['2025-03-01', '2025-03-02'])).to.deep.equal([['2025-03-01T00:00:00.000', '2'], ['2025-03-02T00:00:00.000', '2']]);
      expect(await days('Europe/Amsterdam', 'day', ['2025-03-01', '2025-03-02'])).to.deep.equal([['2025-03-01T00:00:00.000', '2'], ['2025-03-02T00:00:00.000', '3']]);
      expect(await days('UTC', 'month', ['2025-02-01', '2025-03-31'])).to.deep.equal([['2025-02-01T00:00:00.000', '1'], ['2025-03-01T00:00:00.000', '5']]);
      expect(await days('Europe/Amsterdam', 'month', ['2025-02-01', '2025-03-31'])).to.deep.equal([['2025-03-01T00:00:00.000', '6']]);
      // A case-insensitive name is accepted and answered canonical.
      const lower = await load({ measures: [PRS], timezone: 'europe/amsterdam' });
      expect(lower.body.query.timezone).to.equal('Europe/Amsterdam');
    });

    describe('relative ranges (as Cube reads them: "last N days" ends yesterday)', () => {
      let c: BuiltTenant;
      const DAY = 86_400_000;
      const t0 = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
      const instants = [t0 + 1, t0 - 3_600_000, t0 - 7 * DAY + 1_800_000, t0 - 7 * DAY - 3_600_000];
      /** An independent oracle: how many of the instants lie in [from, to]. */
      const within = (from: number, to: number) => instants.filter((t) => t >= from && t <= to).length;
      const now = new Date(t0);
      const [y, m] = [now.getUTCFullYear(), now.getUTCMonth()];
      const week = t0 - ((now.getUTCDay() + 6) % 7) * DAY;
      const month = (k: number) => Date.UTC(y, m + k, 1);

      before(async () => {
        c = await buildTenant(api.databaseUrl);
        const { pool } = dbFor(api.databaseUrl);
        const project = (await pool.query(`insert into projects (tenant_id, provider, project_key, source_type) values ($1, 'manual', 'acme/rel', 'manual') returning id`, [c.tenantId])).rows[0].id;
        for (const [i, at] of instants.entries()) {
          await pool.query(
            `insert into pull_requests (tenant_id, project_id, external_id, number, title, state, created_at, merged_at) values ($1, $2, $3, $4, 'x', 'merged', $5, $5)`,
            [c.tenantId, project, `rel-${i}`, i + 1, new Date(at).toISOString()],
          );
        }
      });
      const count = async (dateRange: string) => {
        const res = await load({ measures: [PRS], timeDimensions: [{ dimension: MERGED_AT, dateRange }] }, {}, c.owner.apiKey);
        expect(res.status, `${dateRange}: ${JSON.stringify(res.body)}`).to.equal(200);
        return Number(res.body.data[0][PRS]);
      };
      const cases: [string, () => number][] = [
        ['today', () => within(t0, t0 + DAY - 1)],
        ['yesterday', () => within(t0 - DAY, t0 - 1)],
        ['tomorrow', () => 0],
        ['last 7 days', () => within(t0 - 7 * DAY, t0 - 1)],
        ['last 8 days', () => within(t0 - 8 * DAY, t0 - 1)],
        ['from 7 days ago to now', () => within(t0 - 7 * DAY, t0 + DAY - 1)],
        ['this week', () => within(week, week + 7 * DAY - 1)],
        ['last week', () => within(week - 7 * DAY, week - 1)],
        ['last 2 weeks', () => within(week - 14 * DAY, week - 1)],
        ['this month', () => within(month(0), month(1) - 1)],
        ['last month', () => within(month(-1), month(0) - 1)],
        ['last 3 months', () => within(month(-3), month(0) - 1)],
        ['this quarter', () => within(Date.UTC(y, m - (m % 3), 1), Date.UTC(y, m - (m % 3) + 3, 1) - 1)],
        ['this year', () => within(Date.UTC(y, 0, 1), Date.UTC(y + 1, 0, 1) - 1)],
        ['last year', () => within(Date.UTC(y - 1, 0, 1), Date.UTC(y, 0, 1) - 1)],
      ];
      for (const [range, expected] of cases) it(`dateRange "${range}"`, async () => expect(await count(range)).to.equal(expected()));

      it('relative values in date filters', async () => {
        const filtered = async (operator: string, value: string) => {
          const res = await load({ measures: [PRS], filters: on(operator, [value]) }, {}, c.owner.apiKey);
          expect(res.status, JSON.stringify(res.body)).to.equal(200);
          return Number(res.body.data[0][PRS]);
        };
        expect(await filtered('onTheDate', 'today')).to.equal(1);
        expect(await filtered('inDateRange', 'last 7 days')).to.equal(2);
        expect(await filtered('afterOrOnDate', 'yesterday')).to.equal(2);
        expect(await filtered('beforeDate', 'today')).to.equal(3);
        expect(await filtered('afterDate', 'yesterday')).to.equal(1);
      });
    });
  });

  describe('query types', () => {
    it('compareDateRange through the client: one result per range, labelled', async () => {
      const result = await client().load({ measures: [PRS], timeDimensions: [{ dimension: MERGED_AT, compareDateRange: [['2025-03-01', '2025-03-01'], 'from 2025-05-01 to 2025-05-31'] }] } as Query);
      expect(result.decompose().map((r) => r.rawData())).to.deep.equal([
        [{ [PRS]: '2', compareDateRange: '2025-03-01T00:00:00.000 - 2025-03-01T23:59:59.999' }],
        [{ [PRS]: '3', compareDateRange: '2025-05-01T00:00:00.000 - 2025-05-31T23:59:59.999' }],
      ]);
      // The client pivots the ranges into columns, one per range label.
      expect(result.tablePivot()).to.deep.equal([{
        [`2025-03-01T00:00:00.000 - 2025-03-01T23:59:59.999,${PRS}`]: '2',
        [`2025-05-01T00:00:00.000 - 2025-05-31T23:59:59.999,${PRS}`]: '3',
      }]);
      // Without queryType=multi the answer could not say which range is which: Cube refuses it too.
      const raw = await load({ measures: [PRS], timeDimensions: [{ dimension: MERGED_AT, compareDateRange: [['2025-03-01', '2025-03-01'], ['2025-03-02', '2025-03-02']] }] });
      expect(raw.status).to.equal(400);
      expect(raw.body.error).to.equal("'compareDateRangeQuery' query type is not supported by the client. Please update the client (send queryType=multi).");
    });

    it('data blending: an array of queries pivoted on their common time bucket', async () => {
      const month = (measure: string, team: string) => ({
        measures: [measure],
        timeDimensions: [{ dimension: MERGED_AT, granularity: 'month' as const, dateRange: ['2025-03-01', '2025-05-31'] as [string, string] }],
        ...(team ? { filters: [{ member: 'teams.slug', operator: 'equals' as const, values: [team] }] } : {}),
      });
      const result = await client().load([month(PRS, ''), month('pull_requests.ccv_total', 'beta')]);
      expect(result.chartPivot().map((p) => [p.x, p[PRS], p['pull_requests.ccv_total']])).to.deep.equal([
        ['2025-03-01T00:00:00.000', 5, 2], ['2025-04-01T00:00:00.000', 1, 2], ['2025-05-01T00:00:00.000', 3, 0],
      ]);
      const multi = await api.as(a.owner.apiKey).post('/cubejs-api/v1/load', { query: [month(PRS, ''), month('pull_requests.ccv_total', 'beta')], queryType: 'multi' });
      expect(multi.body.queryType).to.equal('blendingQuery');
      expect(multi.body.pivotQuery).to.deep.equal({ measures: [PRS, 'pull_requests.ccv_total'], dimensions: [], timeDimensions: [{ dimension: 'time', granularity: 'month' }], queryType: 'blendingQuery' });
      expect(multi.body.results[1].data[0]).to.deep.include({ 'time.month': '2025-03-01T00:00:00.000', 'pull_requests.ccv_total': '2' });
      const mismatch = await api.as(a.owner.apiKey).post('/cubejs-api/v1/load', { query: [month(PRS, ''), { ...month(PRS, 'beta'), timeDimensions: [{ dimension: MERGED_AT, granularity: 'day' }] }], queryType: 'multi' });
      expect(mismatch.status).to.equal(400);
      expect(mismatch.body.error).to.equal('Data blending query granularities must match');
    });

    it('responseFormat compact: members and value arrays, which the client unpacks into the same table as the default', async () => {
      const query = { measures: [PRS], dimensions: [AUTHOR], timeDimensions: [{ dimension: MERGED_AT, granularity: 'month', dateRange: ['2025-03-01', '2025-05-31'] }], order: [[AUTHOR, 'asc'], [`${MERGED_AT}.month`, 'asc']] } as Query;
      const rows = await client().load(query);
      const compact = await client().load(query, {}, undefined, 'compact');
      expect(compact.tablePivot()).to.deep.equal(rows.tablePivot()).and.not.be.empty;
      expect(compact.chartPivot()).to.deep.equal(rows.chartPivot());
      const columnar = await client().load(query, {}, undefined, 'columnar');
      expect(columnar.tablePivot()).to.deep.equal(rows.tablePivot());
      // On the wire, as Cube packs it: the members of a row, then one array of values per row.
      const raw = await load({ ...query, responseFormat: 'compact' });
      expect(raw.status, JSON.stringify(raw.body)).to.equal(200);
      expect(raw.body.query.responseFormat).to.equal('compact');
      expect(raw.body.data.members).to.deep.equal([AUTHOR, `${MERGED_AT}.month`, MERGED_AT, PRS]);
      const first = rows.rawData()[0] as Record<string, unknown>;
      expect(raw.body.data.dataset[0]).to.deep.equal([first[AUTHOR], first[`${MERGED_AT}.month`], first[MERGED_AT], first[PRS]]);
      expect(raw.body.data.dataset).to.have.length(rows.rawData().length);
      const none = await load({ measures: [PRS], filters: by('equals', ['nobody']), dimensions: [AUTHOR], responseFormat: 'compact' });
      expect(none.body.data).to.deep.equal({ members: [], dataset: [] });
    });

    it('total counts every row whatever the limit and offset (the client reads it)', async () => {
      const query = { measures: [PRS], dimensions: [AUTHOR], limit: 2, total: true } as Query;
      const result = await client().load(query);
      expect(result.rawData()).to.have.length(2);
      expect(result.totalRows()).to.equal(7);
      const page = await load({ ...query, offset: 6 });
      expect(page.body.data).to.have.length(1);
      expect(page.body.total).to.equal(7);
      expect((await load({ measures: [PRS] })).body.total).to.equal(null);
    });

    it('ungrouped: one row per fact, with the primary key; without it the planner says what is missing', async () => {
      const res = await load({ dimensions: ['pull_requests.id', AUTHOR], filters: by('equals', ['frank']), ungrouped: true });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.have.length(3);
      expect(res.body.query.ungrouped).to.equal(true);
      const grouped = await load({ dimensions: [AUTHOR], filters: by('equals', ['frank']) });
      expect(grouped.body.data).to.have.length(1);
      const noKey = await load({ dimensions: [AUTHOR], ungrouped: true });
      expect(noKey.status).to.equal(400);
      expect(noKey.body.error).to.match(/^Query cannot be planned: Ungrouped query requires primary keys to be present in dimensions: 'pull_requests.id'/);
    });

    it('orders by a measure it does not return; a dimension it does not select is accepted and left out of the order, as in Cube 1.7; granularity keys order', async () => {
      const res = await load({ dimensions: [AUTHOR], order: [[PRS, 'desc'], [AUTHOR, 'asc']], limit: 2 });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.deep.equal([{ [AUTHOR]: 'alice' }, { [AUTHOR]: 'frank' }]);
      // Grouping by the author would change the rows: Cube's planners leave it out of ORDER BY.
      const dimension = await load({ measures: [PRS], order: { [AUTHOR]: 'asc' } });
      expect(dimension.status, JSON.stringify(dimension.body)).to.equal(200);
      expect(dimension.body.data).to.deep.equal([{ [PRS]: '10' }]);
      const otherGrain = await load({ measures: [PRS], timeDimensions: [{ dimension: MERGED_AT, granularity: 'month', dateRange: ['2025-03-01', '2025-05-31'] }], order: [[`${MERGED_AT}.day`, 'desc'], [PRS, 'desc']] });
      expect(otherGrain.status, JSON.stringify(otherGrain.body)).to.equal(200);
      expect(otherGrain.body.data.map((r: Record<string, string>) => r[PRS])).to.deep.equal(['5', '3', '1']);
      const unknown = await load({ measures: [PRS], order: { 'pull_requests.nope': 'asc' } });
      expect(unknown.status).to.equal(400);
      expect(unknown.body.error).to.equal('Unknown member pull_requests.nope');
      const months = await load({ measures: [PRS], timeDimensions: [{ dimension: MERGED_AT, granularity: 'month', dateRange: ['2025-02-01', '2025-05-31'] }], order: { [`${MERGED_AT}.month`]: 'desc' } });
      expect(months.body.data.map((r: Record<string, string>) => String(r[`${MERGED_AT}.month`]).slice(0, 7))).to.deep.equal(['2025-05', '2025-04', '2025-03', '2025-02']);
    });
  });

  describe('response fields', () => {
    it('requestId, transformedQuery, numbers as strings unless castNumerics, and no usedPreAggregations without a rollup', async () => {
      const res = await api.as(a.owner.apiKey).get(`/cubejs-api/v1/load?query=${encodeURIComponent(JSON.stringify({ measures: [PRS, 'pull_requests.ai_assisted_pr_share'] }))}`);
      expect(res.body.requestId).to.equal(res.headers.get('x-request-id'));
      expect(res.body.data).to.deep.equal([{ [PRS]: '10', 'pull_requests.ai_assisted_pr_share': '0' }]);
      expect(res.body).not.to.have.property('usedPreAggregations');
      expect(res.body.transformedQuery).to.deep.include({ measures: [PRS, 'pull_requests.ai_assisted_pr_share'], isAdditive: false, leafMeasureAdditive: true });
      expect(res.body.transformedQuery.leafMeasures).to.have.members([PRS, 'pull_requests.ai_assisted_prs_merged']);
      const cast = await api.as(a.owner.apiKey).get(`/cubejs-api/v1/load?castNumerics=true&query=${encodeURIComponent(JSON.stringify({ measures: [PRS] }))}`);
      expect(cast.body.data).to.deep.equal([{ [PRS]: 10 }]);
      const viaClient = await client(a.owner.apiKey, { castNumerics: true }).load({ measures: [PRS] });
      expect(viaClient.rawData()).to.deep.equal([{ [PRS]: 10 }]);
    });

    it('usedPreAggregations names the rollup and the months it answered', async () => {
      await refreshRollups(dbFor(api.databaseUrl).pool, a.tenantId, new Date());
      const res = await load({ measures: [PRS], dimensions: ['pull_requests.team_id'], timeDimensions: [{ dimension: MERGED_AT, granularity: 'month', dateRange: ['2025-03-01', '2025-05-31'] }] });
      expect(res.body.usedPreAggregations).to.deep.equal({
        'cube_rollups.pull_requests': { preAggregationId: 'pull_requests.by_team_month', type: 'rollup', months: ['2025-03', '2025-04', '2025-05'] },
      });
      const alphaMarch = res.body.data.find((r: Record<string, string>) => r['pull_requests.team_id'] === fa.alpha && r[`${MERGED_AT}.month`] === '2025-03-01T00:00:00.000');
      expect(alphaMarch[PRS]).to.equal('3');
      // Another zone is not a UTC month: read from the facts.
      const zoned = await load({ measures: [PRS], dimensions: ['pull_requests.team_id'], timeDimensions: [{ dimension: MERGED_AT, granularity: 'month', dateRange: ['2025-03-01', '2025-05-31'] }], timezone: 'Europe/Amsterdam' });
      expect(zoned.body).not.to.have.property('usedPreAggregations');
    });

    it('a uuid dimension formats as itself in the client, not NaN', async () => {
      const res = await load({ measures: [PRS], dimensions: ['pull_requests.team_id'], filters: [{ member: 'pull_requests.team_id', operator: 'equals', values: [fa.beta] }] });
      const annotation = res.body.annotation.dimensions['pull_requests.team_id'];
      expect(annotation).to.deep.include({ type: 'string', meta: { uuid: true } });
      expect(formatValue(res.body.data[0]['pull_requests.team_id'], annotation)).to.equal(fa.beta);
    });
  });

  describe('errors in Cube\'s shape on every status', () => {
    it('400: an empty query, a missing query, a zod problem, each with the real reason in error', async () => {
      const empty = await load({});
      expect(empty.status).to.equal(400);
      expect(empty.body).to.deep.include({ error: 'Query should contain either measures, dimensions or timeDimensions with granularities in order to be valid', code: 'validation_failed' });
      const missing = await api.as(a.owner.apiKey).post('/cubejs-api/v1/load', {});
      expect(missing.status).to.equal(400);
      expect(missing.body.error).to.equal('Query param is required');
      const limit = await load({ measures: [PRS], limit: 50_001 });
      expect(limit.body.error).to.match(/^query\.limit: /);
      // The client shows the message (it used to crash on `body.error?.includes`).
      const failure = await client().load({}).catch((e: Error) => e);
      expect((failure as Error).message).to.equal('Query should contain either measures, dimensions or timeDimensions with granularities in order to be valid');
    });
    it('401 and 404', async () => {
      const anonymous = await api.post('/cubejs-api/v1/load', { query: { measures: [PRS] } });
      expect(anonymous.status).to.equal(401);
      expect(anonymous.body.error).to.equal('Missing or invalid credentials');
      const unknown = await api.as(a.owner.apiKey).get('/cubejs-api/v1/subscribe');
      expect(unknown.status).to.equal(404);
      expect(unknown.body).to.deep.include({ error: "Not found: GET /cubejs-api/v1/subscribe is not served (Cube's REST API here: /cubejs-api/v1/meta, load, sql, dry-run)", code: 'not_found' });
    });
    it('500: a string error naming the request, nothing about the cause', async () => {
      const { pool } = dbFor(api.databaseUrl);
      await pool.query('alter view cube_pull_requests rename to cube_pull_requests_away');
      try {
        const res = await load({ measures: [PRS] });
        expect(res.status).to.equal(500);
        const requestId = res.headers.get('x-request-id');
        expect(res.body).to.deep.equal({ error: `Internal server error (request ${requestId})`, code: 'internal', requestId });
      } finally {
        await pool.query('alter view cube_pull_requests_away rename to cube_pull_requests');
      }
    });
  });

  it("tenant B sees none of tenant A's pull requests, with A's team id as filter too", async () => {
    const res = await load({ measures: [PRS], filters: [{ member: 'pull_requests.team_id', operator: 'equals', values: [fa.alpha] }] }, {}, b.owner.apiKey);
    expect(res.body.data).to.deep.equal([{ [PRS]: '0' }]);
    const blended = await api.as(b.owner.apiKey).post('/cubejs-api/v1/load', {
      query: { measures: [PRS], timeDimensions: [{ dimension: MERGED_AT, compareDateRange: [['2025-03-01', '2025-03-01'], ['2025-05-01', '2025-05-31']] }] },
      queryType: 'multi',
    });
    expect(blended.body.results.map((r: { data: Record<string, string>[] }) => r.data[0]?.[PRS])).to.deep.equal(['0', '0']);
  });
});
