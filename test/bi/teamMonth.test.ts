/**
 * bi.team_month against the team-baseline export, cell by cell, on seeded data: a BI role of each
 * tenant reads its own rows, equal to what `baselineRows` (the export's rows) gives for the same
 * window, numbers compared exactly (===), headcount_by_supplier as the same object.
 */
import { expect } from 'chai';
import pg from 'pg';
import { grantBiCredential, revokeBiCredential, type BiCredential } from '../../src/bi/credentials.js';
import { BASELINE_COLUMNS, baselineRows } from '../../src/exports/baseline.js';
import { currentMonth, monthIndex, monthOf } from '../../src/shared/monthWindow.js';
import { seedBaseline } from '../../bench/baselineData.js';
import { biUrl } from './biUrl.js';
import { freshDatabase } from '../helpers/database.js';
import { buildTenant, dbFor } from '../helpers/factories.js';
import { buildFixture } from '../cube/fixture.js';

const SMALL = { teams: 12, people: 90, projects: 30, prs: 2500, commits: 4000, deployments: 900, issues: 1200, sessions: 1500 };
const SEED_START = '2023-06';

// bigint as a number (every count here is far below 2^53); uuid, text, json as pg reads them.
const types = { getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) };

describe('bi.team_month equals the team-baseline export', function () {
  this.timeout(300_000);
  let databaseUrl: string;
  let admin: pg.Pool;
  const tenants: { id: string; credential: BiCredential; client: pg.Client }[] = [];

  const connectAs = async (user: string, password: string) => {
    // The BI database's foreign tables, as a BI tool reads them (docs/bi-database.md "The BI database").
    const client = new pg.Client({ connectionString: biUrl(databaseUrl, user, password), types } as pg.ClientConfig);
    await client.connect();
    return client;
  };

  before(async () => {
    databaseUrl = await freshDatabase();
    admin = dbFor(databaseUrl).pool;
    const seeded = (await buildTenant(databaseUrl)).tenantId;
    const fixture = (await buildTenant(databaseUrl)).tenantId;
    await seedBaseline(admin, seeded, SEED_START, SMALL);
    // The seeder skips triggers; the stored delivery facts are rebuilt as the migration does.
    await admin.query('select delivery_facts_rebuild()');
    await buildFixture(admin, fixture);
    for (const id of [seeded, fixture]) {
      const { credential, password } = await grantBiCredential(admin, { tenantId: id, name: 'Metabase' });
      tenants.push({ id, credential, client: await connectAs(credential.user, password) });
    }
  });

  after(async () => {
    for (const t of tenants) {
      await t.client.end().catch(() => {});
      await revokeBiCredential(admin, t.id, t.credential.id).catch(() => {});
    }
  });

  /** The view's rows of a window, without month_start (not an export column). */
  async function viewRows(client: pg.Client, from: string, to: string) {
    const { rows } = await client.query(`select * from bi.team_month where month between $1 and $2 order by team_slug collate "C", month`, [from, to]);
    return rows.map(({ month_start: _, ...row }) => row as Record<string, unknown>);
  }

  function expectSameCells(actual: Record<string, unknown>[], expected: Record<string, unknown>[], label: string) {
    expect(actual.length, `${label}: rows`).to.equal(expected.length);
    actual.forEach((row, i) => {
      const want = expected[i] as Record<string, unknown>;
      expect(Object.keys(row), `${label}: columns`).to.deep.equal([...BASELINE_COLUMNS]);
      for (const column of BASELINE_COLUMNS) {
        const where = `${label}: ${String(want.team_slug)} ${String(want.month)} ${column}`;
        if (column === 'headcount_by_supplier') expect(row[column], where).to.deep.equal(want[column]);
        else expect(row[column], where).to.equal(want[column]);
      }
    });
  }

  it('gives the export rows of a 36-month window of seeded facts, cell by cell', async () => {
    const [seeded] = tenants;
    const from = SEED_START;
    const to = monthOf(monthIndex(from) + 35);
    const expected = await baselineRows(admin, seeded!.id, { from, to });
    const actual = await viewRows(seeded!.client, from, to);
    expect(expected.length).to.be.greaterThan(300);
    expectSameCells(actual, expected, 'seeded');
    // The seed exercises every kind of cell: non-empty medians, ratios, scores, suppliers, AIVA scopes.
    for (const column of ['pr_cycle_time_p50_seconds', 'issue_lead_time_p50_seconds', 'mttr_p50_seconds', 'change_failure_rate', 'ai_assisted_pr_share', 'survey_response_rate', 'team_experience_score', 'aiva_light_overall'] as const) {
      expect(actual.filter((r) => r[column] !== null).length, column).to.be.greaterThan(0);
    }
    expect(actual.filter((r) => r.team_experience_score === null && r.survey_response_rate !== null).length).to.be.greaterThan(0);
    expect(new Set(actual.map((r) => r.aiva_scope)).size).to.be.greaterThan(2);
    expect(actual.some((r) => Object.keys(r.headcount_by_supplier as object).length > 0)).to.equal(true);
  });

  it('runs from the first month with facts to the current month, equal to the export there too', async () => {
    const [seeded] = tenants;
    const { rows } = await seeded!.client.query('select min(month) as first, max(month) as last, count(distinct team_id)::int as teams from bi.team_month');
    expect(rows[0]).to.deep.equal({ first: SEED_START, last: currentMonth(), teams: 12 });
    const from = monthOf(monthIndex(currentMonth()) - 8);
    expectSameCells(await viewRows(seeded!.client, from, currentMonth()), await baselineRows(admin, seeded!.id, { from, to: currentMonth() }), 'recent');
  });

  it("gives the hand-checked fixture tenant's export rows, and each role only its own tenant's teams", async () => {
    const [seeded, fixture] = tenants;
    const { rows: [bounds] } = await fixture!.client.query('select min(month) as first from bi.team_month');
    const from = bounds.first as string;
    const to = monthOf(Math.min(monthIndex(from) + 35, monthIndex(currentMonth())));
    const expected = await baselineRows(admin, fixture!.id, { from, to });
    expectSameCells(await viewRows(fixture!.client, from, to), expected, 'fixture');
    expect([...new Set(expected.map((r) => r.team_slug))]).to.deep.equal(['alpha', 'beta']);
    const teamsOf = async (tenantId: string) => (await admin.query('select id from teams where tenant_id = $1 and enabled order by id', [tenantId])).rows.map((r) => r.id);
    for (const t of [seeded!, fixture!]) {
      const seen = (await t.client.query('select distinct team_id from bi.team_month order by 1')).rows.map((r) => r.team_id);
      expect(seen).to.deep.equal(await teamsOf(t.id));
    }
  });
});
