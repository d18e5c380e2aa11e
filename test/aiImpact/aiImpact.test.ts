/**
 * AI against not (issue 47 point 3; docs/ai-impact.md) over the hand-worked team of seed.ts:
 * every value and n as the cube answers it (checked against /cubejs-api/v1/load with the
 * ai_assisted dimension and by hand), the intervals, "not enough data", before/after the adoption
 * month, validation, the MCP tool, and tenant isolation.
 */
import { expect } from 'chai';
import pg from 'pg';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { mcpClients, structured } from '../mcp/mcpClient.js';
import { medianDifference, sampledMedianDifference } from '../../src/aiImpact/statistics.js';
import { aiImpact, INTERVAL_SAMPLE, pairRows, sampleBuckets, sideRows, windowsAround } from '../../src/aiImpact/service.js';
import { presentAiImpact } from '../../src/aiImpact/presenters.js';
import { cubeLoad } from '../../src/cube/service.js';
import { H, seedAiImpact, type AiSeed } from './seed.js';

type Row = { key: string; measure: string | null; drill: string; sides: Record<string, { value: number | null; n: number }>; difference: Record<string, unknown> };
const range = (from: number, to: number, f: (i: number) => number = (i) => i) => Array.from({ length: to - from + 1 }, (_, k) => f(from + k));
const Z90 = 1.6448536269514722;
/** pull_requests.sample_bucket, written out: the first 20 bits of md5(id). */
const BUCKET = "('x' || left(md5(id::text), 5))::bit(20)::int";

/** The rows each statement sent over any pg connection returned while `work` ran (multi-statement results too). */
async function rowsReturned<T>(work: () => Promise<T>): Promise<{ result: T; counts: number[] }> {
  const counts: number[] = [];
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const answer = original.apply(this, args);
    if (answer && typeof (answer as Promise<unknown>).then === 'function') {
      void (answer as Promise<unknown>).then((r) => {
        for (const one of Array.isArray(r) ? r : [r]) if (one && Array.isArray((one as pg.QueryResult).rows)) counts.push((one as pg.QueryResult).rows.length);
      }, () => {});
    }
    return answer;
  };
  try {
    return { result: await work(), counts };
  } finally {
    proto.query = original;
  }
}

/** The text of every statement sent over any pg connection while `work` ran. */
async function statementsSent<T>(work: () => Promise<T>): Promise<string[]> {
  const texts: string[] = [];
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    texts.push(typeof first === 'string' ? first : first?.text ?? '');
    return original.apply(this, args);
  };
  try {
    await work();
    return texts;
  } finally {
    proto.query = original;
  }
}

describe('AI impact: AI-assisted against not, and before/after adoption', function () {
  this.timeout(120_000);
  let api: TestServer;
  let tenant: BuiltTenant;
  let other: BuiltTenant;
  let seed: AiSeed;

  before(async () => {
    api = await testServer();
    tenant = await buildTenant(api.databaseUrl);
    other = await buildTenant(api.databaseUrl);
    seed = await seedAiImpact(dbFor(api.databaseUrl).pool, tenant.tenantId);
  });
  after(() => api.close());

  const impact = async (query: string, who = tenant) => api.as(who.owner.apiKey).get(`/api/ai-impact?${query}`);
  const byKey = (rows: Row[]) => Object.fromEntries(rows.map((r) => [r.key, r]));

  it('gives each measure for AI-assisted and the other PRs with both n, as the cube and the hand computation say', async () => {
    const res = await impact('team=core&from=2026-03&to=2026-03');
    expect(res.status, res.text).to.equal(200);
    const m = byKey(res.body.data.measures);
    const sides = Object.fromEntries(Object.entries(m).map(([k, r]) => [k, [r.sides.ai, r.sides.other]]));
    expect(sides).to.deep.equal({
      cycle_time: [{ value: 11.5 * H, n: 20 }, { value: 13.5 * H, n: 20 }],
      coding_time: [{ value: 10.5 * H, n: 20 }, { value: 21 * H, n: 20 }],
      pickup_time: [{ value: 1 * H, n: 16 }, { value: 3 * H, n: 18 }],
      review_time: [{ value: 8.5 * H, n: 16 }, { value: 11.5 * H, n: 18 }],
      deploy_time: [{ value: 1 * H, n: 10 }, { value: 2 * H, n: 20 }],
      pr_size: [{ value: 105, n: 20 }, { value: 152.5, n: 20 }],
      merged_without_review: [{ value: 0.2, n: 20 }, { value: 0.1, n: 20 }],
      reverted: [{ value: 0.1, n: 20 }, { value: 0.05, n: 20 }],
      change_failure_rate: [{ value: 0.3, n: 10 }, { value: 0.1, n: 20 }],
    });
    // The AI side's ten shipping deployments are fewer than 20: no difference for it.
    expect(m.change_failure_rate!.difference).to.deep.equal({ status: 'not_enough_data', minimum: 20 });
    expect(res.body.data.team).to.deep.equal({ id: seed.teamId, slug: 'core', name: 'Core' });
    expect(res.body.data.split).to.deep.equal({ member: 'pull_requests.ai_attribution', ai: ['high', 'medium'], other: ['low', 'none'], levels: ['high', 'medium', 'low', 'none'] });

    // The medians' intervals: the bootstrap over the hand lists (seeded by the measure's place).
    const cycle = medianDifference(range(2, 21, (i) => i * H), range(4, 23, (j) => j * H), 1);
    expect(m.cycle_time!.difference).to.deep.equal({ status: 'ok', value: -2 * H, low: (cycle as { interval: { low: number } }).interval.low, high: (cycle as { interval: { high: number } }).interval.high, level: 0.9, method: 'bootstrap' });
    const coding = m.coding_time!.difference as { value: number; low: number; high: number };
    expect(coding.value).to.equal(-10.5 * H);
    expect(coding.low).to.be.at.most(coding.value);
    expect(coding.high).to.be.at.least(coding.value);
    expect(m.pr_size!.difference).to.include({ status: 'ok', value: -47.5 });
    // Shares: a normal interval.
    const mwr = m.merged_without_review!.difference as { value: number; low: number; high: number; method: string };
    const spread = Z90 * Math.sqrt((0.2 * 0.8) / 20 + (0.1 * 0.9) / 20);
    expect(mwr.method).to.equal('normal');
    expect(mwr.value).to.be.closeTo(0.1, 1e-12);
    expect([mwr.low, mwr.high]).to.deep.equal([mwr.value - spread, mwr.value + spread]);
    const rev = m.reverted!.difference as { value: number; low: number };
    expect(rev.value).to.be.closeTo(0.05, 1e-12);
    expect(rev.low).to.be.closeTo(0.05 - Z90 * Math.sqrt((0.1 * 0.9) / 20 + (0.05 * 0.95) / 20), 1e-12);
    // Under 20 on either side: no difference.
    for (const key of ['pickup_time', 'review_time', 'deploy_time']) expect(m[key]!.difference, key).to.deep.equal({ status: 'not_enough_data', minimum: 20 });
    // Every side under the sample cap: every PR, and no difference says it was sampled.
    expect(res.body.meta).to.deep.equal({ intervalSample: INTERVAL_SAMPLE });
    for (const r of res.body.data.measures as Row[]) expect(r.difference, r.key).to.not.have.property('intervalSample');
    // The same question asked twice gives the same interval.
    expect((await impact('team=core&from=2026-03&to=2026-03')).body.data.measures).to.deep.equal(res.body.data.measures);
  });

  it('bootstraps a median\'s interval on a sample of each side\'s PRs above the cap, keeping the cube\'s values and n', async () => {
    // The organisation in March: 22 AI PRs (core's 20, small's high and medium) and 21 others; a cap of 20 samples both.
    const full = (await impact('from=2026-03&to=2026-03')).body;
    const cap = 20;
    const pool = dbFor(api.databaseUrl).pool;
    const sampled = presentAiImpact(await aiImpact(pool, tenant.tenantId, { from: '2026-03', to: '2026-03' }, { intervalSample: cap }));
    expect(sampled.meta).to.deep.equal({ intervalSample: cap });
    const f = byKey(full.data.measures as Row[]);
    const s = byKey(sampled.data.measures as unknown as Row[]);
    expect([f.cycle_time!.sides.ai!.n, f.cycle_time!.sides.other!.n]).to.deep.equal([22, 21]);
    // Values, n, levels and the shares' intervals are the cube's, as without a sample.
    for (const key of Object.keys(f)) {
      expect(s[key]!.sides, key).to.deep.equal(f[key]!.sides);
      expect((s[key] as unknown as { levels: unknown }).levels, key).to.deep.equal((f[key] as unknown as { levels: unknown }).levels);
    }
    for (const key of ['merged_without_review', 'reverted', 'change_failure_rate', 'pickup_time']) expect(s[key]!.difference, key).to.deep.equal(f[key]!.difference);
    expect(f.cycle_time!.difference).to.not.have.property('intervalSample');
    // The sample: each side's first 20 merged PRs by (hash bucket of the id, id), as the cube's PR rows have them.
    const { rows } = await pool.query<{ ai: boolean; cycle: number }>(
      `select ai_attribution in ('high', 'medium') as ai, cycle_time_seconds::float8 as cycle from cube_pull_requests
        where tenant_id = $1 and merged_at >= '2026-03-01' and merged_at < '2026-04-01' order by ${BUCKET}, id`, [tenant.tenantId]);
    const first = (ai: boolean) => rows.filter((r) => r.ai === ai).slice(0, cap).map((r) => r.cycle).sort((x, y) => x - y);
    const value = f.cycle_time!.sides.ai!.value! - f.cycle_time!.sides.other!.value!;
    const expected = sampledMedianDifference(first(true), 22, first(false), 21, value, 1) as { interval: { low: number; high: number } };
    expect(s.cycle_time!.difference).to.deep.equal({ status: 'ok', value, low: expected.interval.low, high: expected.interval.high, level: 0.9, method: 'bootstrap', intervalSample: cap });
    expect(expected.interval.low).to.be.below(value);
    expect(expected.interval.high).to.be.above(value);
    expect(s.pr_size!.difference).to.include({ status: 'ok', value: f.pr_size!.sides.ai!.value! - f.pr_size!.sides.other!.value!, intervalSample: cap });
  });

  it('asks the cube only for a sampled side\'s sample: the first cap PRs by (sample_bucket, id), the same on every request, and bootstraps the interval on it', async () => {
    // A third organisation with 200 AI-assisted (labelled) and 200 other merged PRs in April 2026; a cap of 20.
    const big = await buildTenant(api.databaseUrl);
    const pool = dbFor(api.databaseUrl).pool;
    const team = (await pool.query<{ id: string }>(`insert into teams (tenant_id, slug, name) values ($1, 'big', 'Big') returning id`, [big.tenantId])).rows[0]!.id;
    const project = (await pool.query<{ id: string }>(`insert into projects (tenant_id, provider, project_key, source_type, owning_team_id) values ($1, 'manual', 'acme/big', 'manual', $2) returning id`, [big.tenantId, team])).rows[0]!.id;
    await pool.query(
      `insert into pull_requests (tenant_id, project_id, external_id, number, title, state, additions, deletions, labels, created_at, ready_at, merged_at)
       select $1, $2, 'big-' || g, g, 'PR ' || g, 'merged', g, 0, case when g % 2 = 0 then array['ai-assisted'] else '{}'::text[] end,
         timestamptz '2026-04-01T00:00:00Z' + g * interval '1 hour', timestamptz '2026-04-01T00:00:00Z' + g * interval '1 hour',
         timestamptz '2026-04-01T00:00:00Z' + g * interval '1 hour' + (g % 37) * interval '1 hour'
       from generate_series(1, 400) g`, [big.tenantId, project]);
    const cap = 20;
    const april = { from: '2026-04', to: '2026-04' };
    const { result: [first, again], counts } = await rowsReturned(() => Promise.all([sideRows(pool, big.tenantId, null, april, 'ai', cap, 200), sideRows(pool, big.tenantId, null, april, 'ai', cap, 200)]));
    expect(first.sampled).to.equal(true);
    expect(again).to.deep.equal(first);
    // About cap + 4√cap + 10 ≈ 48 of the side's 200 rows (sampleBuckets): never the whole side.
    expect(sampleBuckets(200, cap)).to.equal(Math.ceil((2 ** 20 * (cap + 4 * Math.sqrt(cap) + 10)) / 200));
    expect(Math.max(...counts)).to.be.at.least(cap).and.below(100);
    const sample = await pool.query<{ id: string; cycle: number }>(
      `select id, cycle_time_seconds::float8 as cycle from cube_pull_requests where tenant_id = $1 and merged_at is not null and ai_attribution in ('high', 'medium')
        order by ${BUCKET}, id limit $2`, [big.tenantId, cap]);
    expect(first.rows.map((r) => r['change_lead_times.id'])).to.deep.equal(sample.rows.map((r) => r.id));
    // A side at or under the cap: every PR, by id, unsampled.
    const whole = await sideRows(pool, big.tenantId, null, april, 'ai', 200, 200);
    expect([whole.sampled, whole.rows.length]).to.deep.equal([false, 200]);

    // The page reads both sides in one query: each side's rows are those sideRows reads for it alone.
    const ids = (x: { rows: Record<string, unknown>[]; sampled: boolean }) => ({ sampled: x.sampled, ids: x.rows.map((r) => r['change_lead_times.id']) });
    const { result: pair, counts: pairCounts } = await rowsReturned(() => pairRows(pool, big.tenantId, null, april, cap, { ai: 200, other: 200 }));
    expect(ids(pair.ai)).to.deep.equal(ids(first));
    expect(ids(pair.other)).to.deep.equal(ids(await sideRows(pool, big.tenantId, null, april, 'other', cap, 200)));
    expect(pairCounts.filter((c) => c >= cap)).to.have.length(1);
    // One side sampled, the other whole (at or under the cap): every PR of the whole side.
    const mixed = await pairRows(pool, big.tenantId, null, april, 200, { ai: 201, other: 200 });
    expect([mixed.ai.sampled, mixed.other.sampled, mixed.other.rows.length, mixed.ai.rows.length]).to.deep.equal([true, false, 200, 200]);
    expect(ids(mixed.other).ids.sort()).to.deep.equal(ids(await sideRows(pool, big.tenantId, null, april, 'other', 200, 200)).ids.sort());
    // Counts far behind the rows (10 a side, 200 stored) fill the query's limit with the first
    // side's rows: each side is then read alone, and neither is left without its rows.
    const behind = await pairRows(pool, big.tenantId, null, april, cap, { ai: 10, other: 10 }, 30);
    expect(ids(behind.ai)).to.deep.equal(ids(await sideRows(pool, big.tenantId, null, april, 'ai', cap, 10)));
    expect(ids(behind.other)).to.deep.equal(ids(await sideRows(pool, big.tenantId, null, april, 'other', cap, 10)));
    expect([behind.ai.rows.length, behind.other.rows.length, behind.other.sampled]).to.deep.equal([cap, cap, true]);

    // The page's interval is bootstrapped on those samples, its value and n the cube's over all 400.
    const answer = presentAiImpact(await aiImpact(pool, big.tenantId, april, { intervalSample: cap }));
    const cycle = (answer.data.measures as unknown as Row[]).find((r) => r.key === 'cycle_time')!;
    expect([cycle.sides.ai!.n, cycle.sides.other!.n]).to.deep.equal([200, 200]);
    const other = await pool.query<{ cycle: number }>(
      `select cycle_time_seconds::float8 as cycle from cube_pull_requests where tenant_id = $1 and merged_at is not null and ai_attribution in ('low', 'none')
        order by ${BUCKET}, id limit $2`, [big.tenantId, cap]);
    const sorted = (xs: { cycle: number }[]) => xs.map((r) => r.cycle).sort((x, y) => x - y);
    const value = cycle.sides.ai!.value! - cycle.sides.other!.value!;
    const expected = sampledMedianDifference(sorted(sample.rows), 200, sorted(other.rows), 200, value, 1) as { interval: { low: number; high: number } };
    expect(cycle.difference).to.deep.equal({ status: 'ok', value, low: expected.interval.low, high: expected.interval.high, level: 0.9, method: 'bootstrap', intervalSample: cap });
  });

  it('reads every query of an answer without parallel workers (they run side by side), and a plain cube load with them', async () => {
    const pool = dbFor(api.databaseUrl).pool;
    const opens = (texts: string[]) => texts.filter((t) => t.startsWith('begin isolation level repeatable read read only'));
    const answer = opens(await statementsSent(() => aiImpact(pool, tenant.tenantId, { from: '2026-03', to: '2026-03', team: 'core' })));
    expect(answer.length).to.be.at.least(5);
    expect(answer.filter((t) => !t.includes('set local max_parallel_workers_per_gather = 0'))).to.deep.equal([]);
    const plain = opens(await statementsSent(() => cubeLoad(pool, { tenantId: tenant.tenantId }, { measures: ['pull_requests.prs_merged'] })));
    expect(plain).to.have.length(1);
    expect(plain[0]).to.not.include('max_parallel_workers_per_gather');
  });

  it('has the numbers /cubejs-api/v1/load gives grouped by pull_requests.ai_assisted', async () => {
    const measures = ['pull_requests.pr_cycle_time_p50_seconds', 'pull_requests.prs_merged', 'pull_requests.pickup_time_p50_seconds', 'pull_requests.pickup_time_count', 'pull_requests.deploy_time_count', 'pull_requests.pr_size_p50', 'pull_requests.merged_without_review_share', 'pull_requests.reverted_prs'];
    const load = await api.as(tenant.owner.apiKey).post('/cubejs-api/v1/load', {
      query: { measures, dimensions: ['pull_requests.ai_assisted'], timeDimensions: [{ dimension: 'pull_requests.merged_at', dateRange: ['2026-03-01', '2026-03-31'] }], filters: [{ member: 'teams.slug', operator: 'equals', values: ['core'] }] },
      castNumerics: true,
    });
    expect(load.status, load.text).to.equal(200);
    const cube = Object.fromEntries((load.body.data as Record<string, unknown>[]).map((r) => [String(r['pull_requests.ai_assisted']), r]));
    const m = byKey((await impact(`team=${seed.teamId}&from=2026-03&to=2026-03`)).body.data.measures);
    for (const [side, value] of [['ai', 'true'], ['other', 'false']] as const) {
      const c = cube[value]!;
      expect([m.cycle_time!.sides[side]!.value, m.cycle_time!.sides[side]!.n], side).to.deep.equal([c['pull_requests.pr_cycle_time_p50_seconds'], c['pull_requests.prs_merged']]);
      expect([m.pickup_time!.sides[side]!.value, m.pickup_time!.sides[side]!.n]).to.deep.equal([c['pull_requests.pickup_time_p50_seconds'], c['pull_requests.pickup_time_count']]);
      expect(m.deploy_time!.sides[side]!.n).to.equal(c['pull_requests.deploy_time_count']);
      expect(m.pr_size!.sides[side]!.value).to.equal(c['pull_requests.pr_size_p50']);
      expect(m.merged_without_review!.sides[side]!.value).to.equal(c['pull_requests.merged_without_review_share']);
      expect(m.reverted!.sides[side]!.value).to.equal((c['pull_requests.reverted_prs'] as number) / (c['pull_requests.prs_merged'] as number));
    }
    expect(m.cycle_time!.drill).to.equal('pull_requests.pr_cycle_time_p50_seconds');
  });

  it('gives each measure per AI attribution level, value and n, as /cubejs-api/v1/load grouped by ai_attribution', async () => {
    const res = await impact('team=core&from=2026-03&to=2026-03');
    const rows = res.body.data.measures as (Row & { levels: Record<string, { value: number | null; n: number }>; cube: string; counts: { n: string } })[];
    // The core team's AI PRs are all medium (their label), the others none: those levels are the sides; high and low have no PR.
    for (const r of rows) expect(r.levels, r.key).to.deep.equal({ high: { value: null, n: 0 }, medium: r.sides.ai, low: { value: null, n: 0 }, none: r.sides.other });
    const query = (cube: string, measures: string[], team = 'core') => api.as(tenant.owner.apiKey).post('/cubejs-api/v1/load', {
      query: { measures, dimensions: [`${cube}.ai_attribution`], timeDimensions: [{ dimension: `${cube}.merged_at`, dateRange: ['2026-03-01', '2026-03-31'] }], filters: [{ member: 'teams.slug', operator: 'equals', values: [team] }], order: [[`${cube}.ai_attribution`, 'asc']] },
      castNumerics: true,
    });
    const cfr = await query('change_lead_times', ['change_lead_times.shipping_change_failure_rate', 'change_lead_times.shipping_deploys', 'change_lead_times.failed_shipping_deploys']);
    expect(cfr.status, cfr.text).to.equal(200);
    expect(cfr.body.data).to.deep.equal([
      { 'change_lead_times.ai_attribution': 'medium', 'change_lead_times.shipping_change_failure_rate': 0.3, 'change_lead_times.shipping_deploys': 10, 'change_lead_times.failed_shipping_deploys': 3 },
      { 'change_lead_times.ai_attribution': 'none', 'change_lead_times.shipping_change_failure_rate': 0.1, 'change_lead_times.shipping_deploys': 20, 'change_lead_times.failed_shipping_deploys': 2 },
    ]);
    const m = byKey(rows);
    expect([m.change_failure_rate!.measure, (m.change_failure_rate as unknown as { cube: string }).cube, m.change_failure_rate!.drill]).to.deep.equal(['change_lead_times.shipping_change_failure_rate', 'change_lead_times', 'deployments.change_failure_rate']);

    // The small team has one PR of each of high (a linked session), medium (a label) and none.
    const small = await impact('team=small&from=2026-03&to=2026-03');
    const cycle = byKey(small.body.data.measures).cycle_time as unknown as { levels: Record<string, unknown>; sides: Record<string, unknown> };
    expect(cycle.levels).to.deep.equal({ high: { value: 5 * H, n: 1 }, medium: { value: 5 * H, n: 1 }, low: { value: null, n: 0 }, none: { value: 5 * H, n: 1 } });
    const load = await query('pull_requests', ['pull_requests.pr_cycle_time_p50_seconds', 'pull_requests.prs_merged'], 'small');
    expect(Object.fromEntries((load.body.data as Record<string, unknown>[]).map((r) => [r['pull_requests.ai_attribution'], [r['pull_requests.pr_cycle_time_p50_seconds'], r['pull_requests.prs_merged']]])))
      .to.deep.equal({ high: [5 * H, 1], medium: [5 * H, 1], none: [5 * H, 1] });
    // Before/after compares all PRs: no levels there.
    expect(res.body.data.beforeAfter.measures[0]).to.not.have.property('levels');
  });

  it('opens each level\'s PRs: split=high|medium|low|none on a pull request or change lead time list', async () => {
    const list = async (split: string, measure = 'pull_requests.prs_merged', team = 'small') =>
      api.as(tenant.owner.apiKey).get(`/api/facts?measure=${measure}&team=${team}&from=2026-03&to=2026-03&split=${split}`);
    const totals = async (measure?: string, team?: string) => Promise.all(['high', 'medium', 'low', 'none'].map(async (level) => (await list(level, measure, team)).body.meta.total));
    expect(await totals()).to.deep.equal([1, 1, 0, 1]);
    expect(await totals('pull_requests.pickup_time_p50_seconds', 'core')).to.deep.equal([0, 16, 0, 18]);
    const high = await list('high');
    expect(high.body.data.map((r: { title: string }) => r.title)).to.deep.equal(['small-2']);
    // The change lead time list splits on its own ai_attribution: the core team's deployed changes.
    const deployed = await list('medium', 'change_lead_times.lead_time_for_changes_p50_seconds', 'core');
    expect([deployed.status, deployed.body.meta?.total], deployed.text).to.deep.equal([200, 10]);
    const bad = await list('maybe');
    expect(bad.status).to.equal(400);
    expect(bad.body.error.details[0].path).to.equal('query.split');
  });

  it('opens each side\'s PRs: the drill list of a measure split by the same rule', async () => {
    const list = async (split: string, measure = 'pull_requests.pickup_time_p50_seconds') =>
      api.as(tenant.owner.apiKey).get(`/api/facts?measure=${measure}&team=core&from=2026-03&to=2026-03&split=${split}`);
    const ai = await list('ai');
    expect(ai.status, ai.text).to.equal(200);
    expect(ai.body.meta.total).to.equal(16);
    const other = await list('other');
    expect(other.body.meta.total).to.equal(18);
    expect((await list('ai', 'pull_requests.prs_merged')).body.meta.total).to.equal(20);
    const bad = await list('maybe');
    expect(bad.status).to.equal(400);
    const wrongList = await list('ai', 'deployments.production_deploys');
    expect(wrongList.status).to.equal(400);
    expect(wrongList.body.error.details[0].path).to.equal('query.split');
  });

  it('says "not enough data" for a team with fewer than 20 PRs on a side, and has no adoption month for it', async () => {
    const res = await impact('team=small&from=2026-03&to=2026-03');
    expect(res.status).to.equal(200);
    const m = byKey(res.body.data.measures);
    expect([m.cycle_time!.sides.ai, m.cycle_time!.sides.other]).to.deep.equal([{ value: 5 * H, n: 2 }, { value: 5 * H, n: 1 }]);
    for (const r of res.body.data.measures as Row[]) expect(r.difference, r.key).to.deep.equal({ status: 'not_enough_data', minimum: 20 });
    expect(res.body.data.beforeAfter).to.deep.equal({ status: 'no_adoption_month', message: 'No adoption month yet: no month in which AI active users reached half the headcount', headcount: 0 });
  });

  it('compares equal windows before and after the adoption month', async () => {
    const res = await impact('team=core&from=2026-03&to=2026-03');
    const ba = res.body.data.beforeAfter;
    expect([ba.status, ba.adoptionMonth, ba.headcount, ba.activeUsers, ba.before, ba.after]).to.deep.equal(['ok', '2026-03', 4, 2, { from: '2026-02', to: '2026-02' }, { from: '2026-03', to: '2026-03' }]);
    const m = byKey(ba.measures);
    // After: all 40 March PRs, cycle {2..21} ∪ {4..23} h → (12 + 13) / 2; before: five of 10 h.
    expect([m.cycle_time!.sides.after, m.cycle_time!.sides.before]).to.deep.equal([{ value: 12.5 * H, n: 40 }, { value: 10 * H, n: 5 }]);
    expect([m.merged_without_review!.sides.after, m.merged_without_review!.sides.before]).to.deep.equal([{ value: 0.15, n: 40 }, { value: 1, n: 5 }]);
    expect([m.coding_time!.sides.before]).to.deep.equal([{ value: null, n: 0 }]);
    expect(m.cycle_time!.difference).to.deep.equal({ status: 'not_enough_data', minimum: 20 });
    // A longer window: equal lengths on both sides, the after side cut at the current month.
    expect(windowsAround('2026-03', 3, '2026-11')).to.deep.equal({ before: { from: '2025-12', to: '2026-02' }, after: { from: '2026-03', to: '2026-05' } });
    expect(windowsAround('2026-10', 3, '2026-11')).to.deep.equal({ before: { from: '2026-08', to: '2026-09' }, after: { from: '2026-10', to: '2026-11' } });
    // The organisation: both sides over every team, no before/after.
    const org = await impact('from=2026-03&to=2026-03');
    expect(byKey(org.body.data.measures).cycle_time!.sides.other!.n).to.equal(21);
    expect(org.body.data.beforeAfter.status).to.equal('organisation');
  });

  it('refuses bad input with 400 naming the field and an unknown team with 404 naming it', async () => {
    const bad = await impact('team=core&from=2026-13');
    expect(bad.status).to.equal(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path)).to.include('query.from');
    const reversed = await impact('team=core&from=2026-04&to=2026-03');
    expect(reversed.status).to.equal(400);
    const long = await impact('from=2020-01&to=2026-03');
    expect(long.status).to.equal(400);
    const missing = await impact('team=nope&from=2026-03&to=2026-03');
    expect(missing.status).to.equal(404);
    expect(missing.body.error.message).to.include('"nope"');
    expect((await api.get('/api/ai-impact')).status).to.equal(401);
  });

  it('keeps tenants apart: another organisation cannot see the team by slug or id, and its own numbers are empty', async () => {
    for (const team of ['core', seed.teamId]) {
      const res = await impact(`team=${team}&from=2026-03&to=2026-03`, other);
      expect(res.status, team).to.equal(404);
      expect(res.body.error.message).to.include(`"${team}"`);
    }
    const org = await impact('from=2026-03&to=2026-03', other);
    expect(org.status).to.equal(200);
    for (const r of org.body.data.measures as Row[]) expect([r.sides.ai!.n, r.sides.other!.n], r.key).to.deep.equal([0, 0]);
  });

  it('answers the comparison without its levels (levels=omit) and the levels alone (/api/ai-impact/levels), together the whole answer', async () => {
    const whole = await impact('team=core&from=2026-03&to=2026-03');
    const without = await impact('team=core&from=2026-03&to=2026-03&levels=omit');
    const levels = await api.as(tenant.owner.apiKey).get('/api/ai-impact/levels?team=core&from=2026-03&to=2026-03');
    expect([whole.status, without.status, levels.status]).to.deep.equal([200, 200, 200]);
    const measures = whole.body.data.measures as (Row & { levels: unknown })[];
    expect(without.body.data.measures).to.deep.equal(measures.map(({ levels: _l, ...rest }) => rest));
    expect(without.body.data.beforeAfter).to.deep.equal(whole.body.data.beforeAfter);
    expect(levels.body.data.levels).to.deep.equal(Object.fromEntries(measures.map((m) => [m.key, m.levels])));
    expect(levels.body.data.team).to.deep.equal(whole.body.data.team);
    expect(levels.body.data.levels.cycle_time.medium.n).to.equal(20);
    // The same refusals as the comparison's, and another organisation cannot reach the team.
    expect((await impact('team=core&from=2026-03&to=2026-03&levels=some')).status).to.equal(400);
    expect((await api.as(tenant.owner.apiKey).get('/api/ai-impact/levels?from=2026-13')).status).to.equal(400);
    expect((await api.get('/api/ai-impact/levels')).status).to.equal(401);
    for (const team of ['core', seed.teamId]) {
      const foreign = await api.as(other.owner.apiKey).get(`/api/ai-impact/levels?team=${team}&from=2026-03&to=2026-03`);
      expect([foreign.status, foreign.body.error.message.includes(`"${team}"`)], team).to.deep.equal([404, true]);
    }
    const own = await api.as(other.owner.apiKey).get('/api/ai-impact/levels?from=2026-03&to=2026-03');
    expect(Object.values(own.body.data.levels as Record<string, Record<string, { n: number }>>).flatMap((l) => Object.values(l).map((v) => v.n))).to.satisfy((ns: number[]) => ns.every((n) => n === 0));
  });

  it('answers the MCP tool compare_ai_assisted with the same body, and a tool error for a foreign team', async () => {
    const mcp = mcpClients(() => api.baseUrl);
    const mine = await mcp.connect(tenant.owner.apiKey);
    const theirs = await mcp.connect(other.owner.apiKey);
    const rest = await impact('team=core&from=2026-03&to=2026-03');
    const result = await mine.callTool({ name: 'compare_ai_assisted', arguments: { team: 'core', from: '2026-03', to: '2026-03' } });
    expect(structured(result)).to.deep.equal(rest.body.data);
    const foreign = await theirs.callTool({ name: 'compare_ai_assisted', arguments: { team: 'core', from: '2026-03', to: '2026-03' } });
    expect(foreign.isError).to.equal(true);
    await mcp.closeAll();
  });
});
