/**
 * The corpus as a cube: a team's percentile among open-source repository months, computed exactly
 * on a seeded corpus, through the Cube REST API and the MCP tool; tenant B's answer never carries
 * tenant A's data; tenant work reads the corpus but cannot write it; the shipped snapshot makes it
 * work with no token, loads once however many instances start, and is what the tool builds.
 */
import { expect } from 'chai';
import pg from 'pg';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { loadShippedSnapshot, readSnapshot, type Snapshot } from '../../src/benchmarks/store.js';
import { EXAMPLE_CORPUS_NOTE, OSS_LABEL } from '../../src/shared/ossPercentile.js';
import { freshDatabase } from '../helpers/database.js';
import { twoTenants, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { mcpClients, seedTeams, structured } from '../mcp/mcpClient.js';
import { SEED_ENV, seedTenant } from '../web/seed.js';
import { snapshotFromRecording, type Recording } from '../../tools/benchmarks/build.js';
import { readFileSync } from 'node:fs';
import { seedCorpus } from './helpers.js';
import { repositoryKey } from '../../src/benchmarks/measures.js';
import { MEASURED_CORPUS } from '../../src/shared/measuredCorpus.js';
import { monthsBetween } from '../../tools/benchmarks/gitHistory.js';
import type { MeasuredRepositories } from '../../tools/benchmarks/measure.js';

describe('benchmark corpus: percentiles through the cube, REST and MCP', function () {
  this.timeout(120_000);
  let api: TestServer;
  let a: BuiltTenant;
  let b: BuiltTenant;
  const mcp = mcpClients(() => api.baseUrl);

  before(async () => {
    api = await testServer({ env: SEED_ENV });
    ({ a, b } = await twoTenants(api.databaseUrl, { a: 'Alpha', b: 'Beta' }));
    await seedTenant(api, a.owner.apiKey, a.tenantId);
    await seedTeams(api.databaseUrl, b, [['alpha', 30, 0]]);
  });
  after(async () => {
    await mcp.closeAll();
    await api.close();
  });

  describe('with no token: the shipped snapshot', () => {
    it('is loaded after migrate, measured from public git history, so the comparison works without CODEHOST_PUBLIC_TOKEN', async () => {
      const snapshot = readSnapshot();
      expect(snapshot.synthetic).to.equal(false);
      expect(snapshot.about).to.include('measured from the public git history of 28 repositories').and.include('CODEHOST_PUBLIC_TOKEN');
      const client = await mcp.connect(a.owner.apiKey);
      const answer = await client.callTool({ name: 'team_open_source_benchmark', arguments: { team: 'alpha', from: '2026-03', to: '2026-03' } });
      const result = structured(answer);
      expect(result.label).to.equal(OSS_LABEL);
      expect(result.corpus).to.deep.equal({
        source: 'measured', label: 'measured from the public history of 28 repositories, read on 2026-11-27', note: null, generated_at: '2026-11-27T00:00:00.000Z',
        window: { from: '2025-08', to: '2026-07' }, repositories: 28, repository_months: 336,
      });
      expect(result.rows).to.have.length(5);
      for (const row of result.rows) expect(row.oss_percentile, row.measure).to.be.a('number').within(0, 100);
      // Change failure per release (re-measured from the recorded commits): alpha's March, 0 %, among the 204
      // repository months with a release: 108 fail more, 96 equal (0) → 100 × (108 + 96/2) ÷ 204 = 76.5. Median 26.8 %.
      expect(result.rows.find((r: { measure: string }) => r.measure === 'change_failure')).to.deep.include({
        title: 'Change failure rate per deployment vs share of releases followed by a patch release or revert within 7 days', team_value: 0,
        oss_percentile: (100 * (108 + 96 / 2)) / 204, oss_repository_months: 204, oss_median: 0.26785714285714285,
      });
      const failures = readSnapshot().rows.map((r) => r.change_failure_proxy).filter((v): v is number => typeof v === 'number');
      expect([failures.length, failures.filter((v) => v > 0).length, failures.filter((v) => v === 0).length]).to.deep.equal([204, 108, 96]);
      // A value exactly in the months with a release; the per-change value of the earlier rows is gone.
      expect(readSnapshot().rows.every((r) => (Number(r.releases) > 0) === (typeof r.change_failure_proxy === 'number') && !('change_failure_per_change' in r))).to.equal(true);
      expect(result.percentile_definition).to.include('the share of its releases followed within 7 days by a patch release of the same major.minor or a revert on the default branch');
      // Lead time for changes: alpha's March, 36 h and 30 h (33 h), among the 204 repository months of
      // the snapshot with a release: 151 are slower, none equal → 74.0. Their median: 623,583.5 s (7.2 days).
      expect(result.rows.find((r: { measure: string }) => r.measure === 'lead_time')).to.deep.equal({
        month: '2026-03', measure: 'lead_time', title: 'Lead time for changes p50 (commit to release tag)', team_value: 118800, oss_percentile: (100 * 151) / 204, oss_repository_months: 204,
        oss_median: 623583.5, lower_is_better: true, dora_measure: 'change_lead_times.lead_time_for_changes_p50_seconds', team_dora_band: 'high',
      });
      const leadTimes = readSnapshot().rows.map((r) => r.lead_time_p50_seconds).filter((v): v is number => typeof v === 'number');
      expect([leadTimes.length, leadTimes.filter((v) => v > 118800).length, leadTimes.filter((v) => v === 118800).length]).to.deep.equal([204, 151, 0]);
      // Measured: the JSON only, no sentence of a synthetic example beside it.
      expect((answer.content as { type: string }[]).map((c) => c.type)).to.deep.equal(['text']);
    });

    it('Cube REST: benchmarks.corpus_source, corpus_repositories and corpus_read_on name the measured corpus', async () => {
      const res = await api.as(b.owner.apiKey).post('/cubejs-api/v1/load', {
        query: { measures: ['benchmarks.repository_months'], dimensions: ['benchmarks.corpus_source', 'benchmarks.corpus_repositories', 'benchmarks.corpus_read_on'] }, castNumerics: true,
      });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal([
        { 'benchmarks.corpus_source': 'measured', 'benchmarks.corpus_repositories': 28, 'benchmarks.corpus_read_on': '2026-11-27', 'benchmarks.repository_months': readSnapshot().rows.length },
      ]);
    });

    it('MCP: a synthetic example corpus is labelled as such, with its note in a second text block', async () => {
      await seedCorpus(api.databaseUrl, 'snapshot');
      const answer = await (await mcp.connect(a.owner.apiKey)).callTool({ name: 'team_open_source_benchmark', arguments: { team: 'alpha', from: '2026-03', to: '2026-03' } });
      expect(structured(answer).corpus).to.deep.include({ source: 'shipped_example', label: 'example corpus (synthetic)', note: EXAMPLE_CORPUS_NOTE });
      const content = answer.content as { type: string; text: string }[];
      expect(content.map((c) => c.type)).to.deep.equal(['text', 'text']);
      expect(content[1]!.text).to.equal(
        'Example corpus shipped with the server (synthetic repositories): its percentiles are illustrative, not measured. Set CODEHOST_PUBLIC_TOKEN to measure real open-source repositories.',
      );
    });
  });

  describe('on a seeded corpus', () => {
    before(() => seedCorpus(api.databaseUrl));

    it('MCP: the team\'s percentile per measure, exactly (mid-rank), beside the DORA band, labelled as an open-source proxy', async () => {
      const client = await mcp.connect(a.owner.apiKey);
      const answer = await client.callTool({ name: 'team_open_source_benchmark', arguments: { team: 'alpha', from: '2026-03', to: '2026-03' } });
      const result = structured(answer);
      // Measured: no sentence before the JSON.
      expect((answer.content as { text: string }[]).map((c) => JSON.parse(c.text))).to.deep.equal([result]);
      expect(result.team).to.deep.equal({ slug: 'alpha', name: 'Alpha' });
      expect(result.label).to.equal('open-source proxy');
      expect(result.percentile_definition).to.include('100 × (W + E/2) ÷ N');
      expect(result.corpus).to.deep.equal({
        source: 'measured', label: 'measured from the public history of 2 repositories, read on 2025-03-01', note: null, generated_at: '2025-03-01T00:00:00.000Z',
        window: { from: '2025-01', to: '2025-02' }, repositories: 2, repository_months: 4,
      });
      const base = { month: '2026-03' };
      expect(result.rows).to.deep.equal([
        // 75600 among 36000, 75600, 200000 (lower is better): 1 worse, 1 equal → 1.5 / 3.
        { ...base, measure: 'pr_cycle_time', title: 'PR cycle time p50', team_value: 75600, oss_percentile: 50, oss_repository_months: 3, oss_median: 75600, lower_is_better: true, dora_measure: null, team_dora_band: null },
        // 2 among 1, 2, 0.5: 2 worse, 1 equal → 2.5 / 3.
        { ...base, measure: 'prs_per_author', title: 'PRs merged per active author', team_value: 2, oss_percentile: (100 * 2.5) / 3, oss_repository_months: 3, oss_median: 1, lower_is_better: false, dora_measure: null, team_dora_band: null },
        // 2 among 0, 2, 1, 3: 2 worse, 1 equal → 2.5 / 4.
        { ...base, measure: 'release_frequency', title: 'Release frequency (production deployments a month)', team_value: 2, oss_percentile: 62.5, oss_repository_months: 4, oss_median: 1.5, lower_is_better: false, dora_measure: 'deployments.production_deploys', team_dora_band: 'medium' },
        // 33 h (36 h and 30 h) among 3, 1 and 7 days (lower is better): 2 worse → 2 / 3.
        {
          ...base, measure: 'lead_time', title: 'Lead time for changes p50 (commit to release tag)', team_value: 118800, oss_percentile: (100 * 2) / 3, oss_repository_months: 3, oss_median: 259200,
          lower_is_better: true, dora_measure: 'change_lead_times.lead_time_for_changes_p50_seconds', team_dora_band: 'high',
        },
        // 0 failed deployments among the months with a release, 1/2, 0 and 1/3 failed releases (lower is better): 2 worse, 1 equal → 2.5 / 3.
        // r1's January has no release, so no value: per release, not per change.
        { ...base, measure: 'change_failure', title: 'Change failure rate per deployment vs share of releases followed by a patch release or revert within 7 days', team_value: 0, oss_percentile: (100 * 2.5) / 3, oss_repository_months: 3, oss_median: 1 / 3, lower_is_better: true, dora_measure: 'deployments.change_failure_rate', team_dora_band: 'elite' },
      ]);
    });

    it('Cube REST: the corpus values and medians a percentile is computed from, for any tenant, with no join to tenant cubes', async () => {
      const load = (key: string, query: unknown) => api.as(key).post('/cubejs-api/v1/load', { query, castNumerics: true });
      const histogram = await load(a.owner.apiKey, { measures: ['benchmarks.repository_months'], dimensions: ['benchmarks.releases'], order: [['benchmarks.releases', 'asc']] });
      expect(histogram.status).to.equal(200);
      expect(histogram.body.data).to.deep.equal([0, 1, 2, 3].map((v) => ({ 'benchmarks.releases': v, 'benchmarks.repository_months': 1 })));
      const medians = await load(b.owner.apiKey, { measures: ['benchmarks.repositories', 'benchmarks.repository_months', 'benchmarks.pr_cycle_time_p50_seconds_median', 'benchmarks.change_failure_proxy_median', 'benchmarks.lead_time_p50_seconds_median', 'benchmarks.corpus_prs_merged'] });
      expect(medians.body.data).to.deep.equal([{
        'benchmarks.repositories': 2, 'benchmarks.repository_months': 4, 'benchmarks.pr_cycle_time_p50_seconds_median': 75600, 'benchmarks.change_failure_proxy_median': 1 / 3,
        'benchmarks.lead_time_p50_seconds_median': 259200, 'benchmarks.corpus_prs_merged': 15,
      }]);
      const source = await load(a.owner.apiKey, { measures: ['benchmarks.repository_months'], dimensions: ['benchmarks.corpus_source'] });
      expect(source.body.data).to.deep.equal([{ 'benchmarks.corpus_source': 'measured', 'benchmarks.repository_months': 4 }]);
      const byMonth = await load(a.owner.apiKey, { measures: ['benchmarks.repository_months'], timeDimensions: [{ dimension: 'benchmarks.month', granularity: 'month', dateRange: ['2025-01-01', '2025-12-31'] }] });
      expect(byMonth.body.data.map((r: Record<string, unknown>) => [r['benchmarks.month.month'], r['benchmarks.repository_months']])).to.deep.equal([['2025-01-01T00:00:00.000', 2], ['2025-02-01T00:00:00.000', 2]]);
      const joined = await load(a.owner.apiKey, { measures: ['benchmarks.repository_months'], dimensions: ['teams.slug'] });
      expect(joined.status).to.equal(400);
      expect(joined.body.error).to.match(/join path/i);
      const unauthenticated = await api.post('/cubejs-api/v1/load', { query: { measures: ['benchmarks.repository_months'] } });
      expect(unauthenticated.status).to.equal(401);
    });

    it("tenant B's percentile is computed from B's team and the corpus only, never A's data", async () => {
      const forA = structured(await (await mcp.connect(a.owner.apiKey)).callTool({ name: 'team_open_source_benchmark', arguments: { team: 'alpha', from: '2025-03', to: '2025-03' } }));
      const forB = structured(await (await mcp.connect(b.owner.apiKey)).callTool({ name: 'team_open_source_benchmark', arguments: { team: 'alpha', from: '2025-03', to: '2025-03' } }));
      const pick = (r: { rows: { measure: string; team_value: number | null; oss_percentile: number | null }[] }) => Object.fromEntries(r.rows.map((x) => [x.measure, [x.team_value, x.oss_percentile]]));
      // B's alpha: 30 successful deployments in 2025-03, no PR. A's alpha: nothing in 2025-03.
      expect(pick(forB)).to.deep.equal({ pr_cycle_time: [null, null], prs_per_author: [null, null], release_frequency: [30, 100], lead_time: [null, null], change_failure: [0, (100 * 2.5) / 3] });
      expect(pick(forA)).to.deep.equal({ pr_cycle_time: [null, null], prs_per_author: [null, null], release_frequency: [0, 12.5], lead_time: [null, null], change_failure: [null, null] });
      expect(forB.team).to.deep.equal({ slug: 'alpha', name: 'Alpha' });
      expect(forB.corpus).to.deep.equal(forA.corpus);
      // A's team values of 2026-03 appear nowhere in B's answer for the same month.
      const bMarch = structured(await (await mcp.connect(b.owner.apiKey)).callTool({ name: 'team_open_source_benchmark', arguments: { team: 'alpha', from: '2026-03', to: '2026-03' } }));
      expect(bMarch.rows.map((r: { team_value: number | null }) => r.team_value)).to.deep.equal([null, null, 0, null, null]);
    });
  });

  describe('in the database', () => {
    let url: string;
    let admin: pg.Pool;
    before(async () => {
      url = await freshDatabase();
      admin = new pg.Pool({ connectionString: url, max: 6 });
    });
    after(() => admin.end());

    it('tenant work (app_tenant) reads the corpus and its source, and can neither write them nor touch the runs', async () => {
      const client = await admin.connect();
      const as = async (statement: string) => {
        await client.query('begin');
        try {
          await client.query(`select set_config('role', 'app_tenant', true), set_config('app.tenant_id', gen_random_uuid()::text, true)`);
          await client.query(statement);
          return 'ok';
        } catch (error) {
          return (error as { code?: string }).code;
        } finally {
          await client.query('rollback');
        }
      };
      try {
        expect(await as('select count(*) from benchmark_corpus')).to.equal('ok');
        expect(await as('select kind from benchmark_corpus_source')).to.equal('ok');
        for (const statement of [
          `insert into benchmark_corpus values ('x', '2025-01-01', 1, 1, 1, 1, 1, 0, 0)`, 'update benchmark_corpus set releases = 99', 'delete from benchmark_corpus', 'truncate benchmark_corpus',
          `update benchmark_corpus_source set kind = 'live'`, 'select * from benchmark_corpus_runs', 'select * from benchmark_corpus_staging',
        ]) expect(await as(statement), statement).to.equal('42501');
      } finally {
        client.release();
      }
    });

    it('the snapshot loads once when three instances start at once, replaces an older one, never a newer measured corpus', async () => {
      const snapshot = readSnapshot();
      // Measured (from public git history): stored as live.
      expect((await admin.query('select kind, generated_at, repositories from benchmark_corpus_source')).rows).to.deep.equal([{ kind: 'live', generated_at: new Date(snapshot.generatedAt), repositories: 28 }]);
      await admin.query('delete from benchmark_corpus; delete from benchmark_corpus_source');
      const clients = await Promise.all([admin.connect(), admin.connect(), admin.connect()]);
      try {
        const outcomes = await Promise.all(clients.map((c) => loadShippedSnapshot(c)));
        expect(outcomes.sort()).to.deep.equal(['current', 'current', 'loaded']);
        const newer: Snapshot = { ...snapshot, generatedAt: '2099-01-01T00:00:00.000Z', rows: snapshot.rows.slice(0, 5) };
        expect(await loadShippedSnapshot(clients[0]!, newer)).to.equal('loaded');
        expect((await admin.query('select count(*)::int as n from benchmark_corpus')).rows[0].n).to.equal(5);
        expect(await loadShippedSnapshot(clients[1]!)).to.equal('current');
        // A synthetic example never replaces a measured corpus, however new.
        expect(await loadShippedSnapshot(clients[2]!, { ...newer, synthetic: true, generatedAt: '2100-01-01T00:00:00.000Z' })).to.equal('live');
        expect((await admin.query('select count(*)::int as n from benchmark_corpus')).rows[0].n).to.equal(5);
        // A measured snapshot replaces a synthetic example whatever its date.
        await admin.query(`update benchmark_corpus_source set kind = 'snapshot'`);
        const measured: Snapshot = { ...snapshot, generatedAt: '2000-01-01T00:00:00.000Z', rows: snapshot.rows.slice(0, 3) };
        expect(await loadShippedSnapshot(clients[0]!, measured)).to.equal('loaded');
        expect((await admin.query('select kind, generated_at, (select count(*)::int from benchmark_corpus) as n from benchmark_corpus_source')).rows).to.deep.equal([
          { kind: 'live', generated_at: new Date('2000-01-01T00:00:00.000Z'), n: 3 },
        ]);
        // And an older measured corpus (a run of 2000): the shipped measurement is newer.
        expect(await loadShippedSnapshot(clients[1]!)).to.equal('loaded');
        expect((await admin.query('select count(*)::int as n from benchmark_corpus')).rows[0].n).to.equal(snapshot.rows.length);
        // A re-measure at the same read date (a corrected rule, the same commits): its rows replace the loaded ones, once.
        const revised: Snapshot = { ...snapshot, rows: snapshot.rows.map((r, i) => (i === 0 ? { ...r, releases: Number(r.releases) + 1 } : r)) };
        const releasesOfFirst = async () => (await admin.query('select releases from benchmark_corpus where repository_key = $1 and month = $2', [snapshot.rows[0]!.repository_key, snapshot.rows[0]!.month])).rows[0].releases;
        expect(await loadShippedSnapshot(clients[2]!, revised)).to.equal('loaded');
        expect(await releasesOfFirst()).to.equal(Number(snapshot.rows[0]!.releases) + 1);
        expect(await loadShippedSnapshot(clients[0]!, revised)).to.equal('current');
        // A database that loaded the shipped rows before their checksum was kept loads them again, once.
        expect(await loadShippedSnapshot(clients[1]!)).to.equal('loaded');
        await admin.query('update benchmark_corpus_source set snapshot_checksum = null');
        expect(await loadShippedSnapshot(clients[2]!)).to.equal('loaded');
        expect(await loadShippedSnapshot(clients[0]!)).to.equal('current');
        expect(await releasesOfFirst()).to.equal(Number(snapshot.rows[0]!.releases));
      } finally {
        for (const c of clients) c.release();
      }
    });

    it('the shipped snapshot lists the repositories and commits corpus/measured-repositories.json records, 12 months each, sorted', async () => {
      const snapshot = readSnapshot();
      const list = JSON.parse(readFileSync(new URL('../../corpus/measured-repositories.json', import.meta.url), 'utf8')) as MeasuredRepositories;
      const provenance = snapshot.provenance!;
      expect([...provenance.repositories, ...provenance.leftOut.map(({ repository, commit }) => ({ repository, commit }))].sort((x, y) => x.repository.localeCompare(y.repository))).to.deep.equal(list.repositories);
      expect(provenance.repositories).to.have.length(28);
      // Left out with their reason: every repository in the corpus has at most 60 PR authors in every month.
      expect(provenance.leftOut.map((r) => `${r.repository}: ${r.reason}`)).to.include.members(['laravel/framework: more than 60 PR authors in a month', 'rails/rails: more than 60 PR authors in a month']);
      expect(Math.max(...snapshot.rows.map((r) => Number(r.active_authors)))).to.be.at.most(60);
      expect([snapshot.windowFrom, snapshot.windowTo, provenance.readOn]).to.deep.equal([list.windowFrom, list.windowTo, list.readOn]);
      const keys = provenance.repositories.map((r) => repositoryKey(r.repository)).sort();
      expect(snapshot.rows.map((r) => `${r.repository_key} ${r.month}`)).to.deep.equal(keys.flatMap((k) => monthsBetween(list.windowFrom, list.windowTo).map((m) => `${k} ${m}`)));
      // The web app's help page lists the same repositories.
      expect(MEASURED_CORPUS.repositories).to.deep.equal(provenance.repositories.map((r) => r.repository));
    });

    it('the synthetic recording still builds a synthetic snapshot (tools/benchmarks/snapshot.ts)', async () => {
      const recording = JSON.parse(readFileSync(new URL('../../tools/benchmarks/recording.json', import.meta.url), 'utf8')) as Recording;
      const built = await snapshotFromRecording(await freshDatabase(), recording);
      expect(built.synthetic).to.equal(true);
      expect(new Set(built.rows.map((r) => r.repository_key)).size).to.equal(10);
    });
  });
});
