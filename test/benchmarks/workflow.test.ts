/**
 * `benchmarks.corpus` against a fake code-host GraphQL on loopback: paging, the rate limits (a
 * low `remaining`, secondary limits, a long reset that reschedules), a crash resumed from its
 * checkpoint with exact request counts, and nothing but aggregates stored.
 */
import { expect } from 'chai';
import pg from 'pg';
import type { AppContext } from '../../src/context.js';
import type { Database } from '../../src/db/client.js';
import { repositoryKey } from '../../src/benchmarks/measures.js';
import { freshDatabase } from '../helpers/database.js';
import { fakeCodeHostGraphql, type FakeCodeHostGraphql } from '../helpers/fakeCodeHostGraphql.js';
import { AS_OF, corpusApp, FULL_RUN_REQUESTS, LIST, runCorpus, sample, WINDOW } from './helpers.js';

describe('benchmark corpus workflow (fake code-host GraphQL)', function () {
  this.timeout(60_000);
  let fake: FakeCodeHostGraphql;
  let app: AppContext;
  let database: Database;
  let admin: pg.Pool;
  const payload = { asOf: AS_OF, pageSize: 2, repositories: LIST };
  const alpha = repositoryKey('fixture-org/alpha');
  const bravo = repositoryKey('fixture-org/bravo');

  before(async () => {
    fake = await fakeCodeHostGraphql({ repositories: sample() });
    const url = await freshDatabase();
    ({ app, database } = corpusApp(url, { CODEHOST_PUBLIC_TOKEN: fake.token, CODEHOST_PUBLIC_GRAPHQL_URL: fake.url }));
    admin = new pg.Pool({ connectionString: url, max: 2 });
  });
  beforeEach(async () => {
    fake.requests.length = 0;
    fake.script.clear();
    await admin.query('delete from benchmark_corpus_runs; delete from benchmark_corpus; delete from benchmark_corpus_source');
  });
  after(async () => {
    await database.close();
    await admin.end();
    await fake.close();
  });

  const corpus = async () =>
    (await admin.query(`select repository_key, to_char(month, 'YYYY-MM') as month, prs_merged, active_authors, pr_cycle_time_p50_seconds, prs_merged_per_active_author,
      releases, revert_or_hotfix_prs, change_failure_proxy from benchmark_corpus order by 1, 2`)).rows;
  const runRow = async () => (await admin.query('select requests, outcome, finished_at is not null as finished, paused_until from benchmark_corpus_runs')).rows[0];
  const ops = () => fake.requests.map((r) => r.operation);

  it('pages through releases and monthly searches, leaves out the fork and bots, and publishes one aggregate row per repository month', async () => {
    const result = await runCorpus(app, payload);
    expect(result.state).to.deep.include({ outcome: 'published', repositories: 2 });
    expect(fake.requests).to.have.length(FULL_RUN_REQUESTS);
    expect(fake.requests.every((r) => r.status === 200)).to.equal(true);
    expect(ops().slice(0, 6)).to.deep.equal(['Repository', 'Releases', 'Releases', 'MergedPulls', 'MergedPulls', 'MergedPulls']);
    expect(fake.requests[2]!.variables.after).to.be.a('string');
    expect(fake.requests[3]!.variables.search).to.equal('repo:fixture-org/alpha is:pr is:merged merged:2024-02-01T00:00:00Z..2024-02-29T23:59:59Z');
    expect(fake.requests[4]!.variables).to.deep.include({ first: 2 }).and.have.property('after').that.is.a('string');
    // The fork: one request, then bravo.
    expect(fake.requests[27]!.variables).to.deep.equal({ owner: 'fixture-org', name: 'forked' });
    expect(fake.requests[28]!.variables).to.deep.equal({ owner: 'fixture-org', name: 'bravo' });

    const rows = await corpus();
    expect(rows).to.have.length(24);
    expect(rows.filter((r) => r.repository_key === alpha).map((r) => r.month)).to.deep.equal(WINDOW);
    const at = (key: string, month: string) => rows.find((r) => r.repository_key === key && r.month === month);
    // Change failure per release: of June's v1.1.0, v1.2.0 and v1.2.1 (the pre-release left out),
    // v1.1.0 is followed by bob's revert (5 days) and v1.2.0 by the patch release v1.2.1 (4 days).
    expect(at(alpha, '2024-06')).to.deep.equal({
      repository_key: alpha, month: '2024-06', prs_merged: 2, active_authors: 2, pr_cycle_time_p50_seconds: 10800, prs_merged_per_active_author: 1,
      releases: 3, revert_or_hotfix_prs: 1, change_failure_proxy: 2 / 3,
    });
    // No release, no value: the proxy is per release, not per merged PR.
    expect(at(alpha, '2024-07')).to.deep.include({ releases: 0, revert_or_hotfix_prs: 0, change_failure_proxy: null });
    expect(at(bravo, '2024-03')).to.deep.equal({
      repository_key: bravo, month: '2024-03', prs_merged: 2, active_authors: 1, pr_cycle_time_p50_seconds: 19800, prs_merged_per_active_author: 2,
      releases: 0, revert_or_hotfix_prs: 1, change_failure_proxy: null,
    });
    // v2.0.0 (31 Jul) fails by the revert merged into main on 3 Aug: July's row, set after August is read.
    expect(at(bravo, '2024-07')).to.deep.include({ releases: 1, change_failure_proxy: 1 });
    expect(at(bravo, '2024-08')).to.deep.include({ releases: 0, revert_or_hotfix_prs: 1, change_failure_proxy: null });
    // v2.1.0 (5 Sep): the revert of 10 Sep went into release-2.0, not the default branch.
    expect(at(bravo, '2024-09')).to.deep.include({ releases: 1, revert_or_hotfix_prs: 1, change_failure_proxy: 0 });
    expect((await admin.query(`select kind, to_char(window_from, 'YYYY-MM') as "from", to_char(window_to, 'YYYY-MM') as "to", repositories from benchmark_corpus_source`)).rows)
      .to.deep.equal([{ kind: 'live', from: '2024-02', to: '2025-01', repositories: 2 }]);
    expect(await runRow()).to.deep.include({ requests: FULL_RUN_REQUESTS, outcome: 'published', finished: true });
    expect((await admin.query('select count(*)::int as n from benchmark_corpus_staging')).rows[0].n).to.equal(0);

    // The same window again: nothing to read.
    fake.requests.length = 0;
    expect((await runCorpus(app, payload)).state).to.deep.include({ outcome: 'current' });
    expect(fake.requests).to.have.length(0);
  });

  it('stores aggregates only: no login, name, title or label in any corpus table', async () => {
    await runCorpus(app, payload);
    const columns = (await admin.query(`select table_name, column_name from information_schema.columns where table_name in ('benchmark_corpus', 'benchmark_corpus_source', 'benchmark_corpus_staging') order by table_name, ordinal_position`)).rows;
    expect(columns.filter((c) => c.table_name === 'benchmark_corpus').map((c) => c.column_name)).to.deep.equal([
      'repository_key', 'month', 'prs_merged', 'active_authors', 'pr_cycle_time_p50_seconds', 'prs_merged_per_active_author', 'releases', 'revert_or_hotfix_prs', 'change_failure_proxy',
      'lead_time_p50_seconds',
    ]);
    // A run from the code host's API measures no lead time (git history only): empty in every row.
    expect((await admin.query('select count(*)::int as n, count(lead_time_p50_seconds)::int as with_lead_time from benchmark_corpus')).rows).to.deep.equal([{ n: 24, with_lead_time: 0 }]);
    expect(columns.filter((c) => c.table_name === 'benchmark_corpus_source').map((c) => c.column_name)).to.deep.equal(['id', 'kind', 'generated_at', 'window_from', 'window_to', 'repositories', 'snapshot_checksum']);
    // Every value (not the column names) of the corpus, its source and the run's cursor.
    const values = (await admin.query(`select row_to_json(c)::text as v from benchmark_corpus c union all select row_to_json(s)::text from benchmark_corpus_source s
      union all select (cursor - 'list')::text from benchmark_corpus_runs`)).rows.flatMap((r) => Object.values(JSON.parse(r.v)).map((v) => JSON.stringify(v)));
    expect(values.length).to.be.greaterThan(24 * 9);
    const everything = values.join('\n').toLowerCase();
    for (const personal of ['alice', 'bob', 'carol', 'dependabot', 'revert', 'hotfix', 'cache', 'login']) expect(everything, personal).not.to.include(personal);
    // Repository names stay out of the corpus: an opaque key instead (the run's own cursor keeps the sample list).
    const corpusOnly = JSON.stringify((await admin.query('select json_agg(c) as rows from benchmark_corpus c')).rows);
    expect(corpusOnly).not.to.include('fixture-org');
    expect(alpha).to.match(/^[0-9a-f]{16}$/);
  });

  it('waits in place for a low rate limit and for secondary limits (retry-after, x-ratelimit-reset), then carries on', async () => {
    const resetAt = new Date(Date.now() + 1500);
    fake.script.set(3, { remaining: 5, resetAt: resetAt.toISOString() });
    fake.script.set(5, { status: 403, headers: { 'retry-after': '1' } });
    const reset = Math.ceil(Date.now() / 1000) + 4;
    fake.script.set(7, { status: 429, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) } });
    const result = await runCorpus(app, payload);
    expect(result.state).to.deep.include({ outcome: 'published', repositories: 2 });
    // Two refused requests, each asked again: two more than a clean run.
    expect(fake.requests).to.have.length(FULL_RUN_REQUESTS + 2);
    expect(fake.requests.map((r) => r.status).filter((s) => s !== 200)).to.deep.equal([403, 429]);
    const [r3, r4, r5, r6, r7, r8] = fake.requests.slice(2, 8) as typeof fake.requests;
    expect(r4!.at).to.be.at.least(resetAt.getTime());
    expect(r6!.at - r5!.at).to.be.at.least(1000);
    expect(r6!.variables).to.deep.equal(r5!.variables);
    expect(r8!.variables).to.deep.equal(r7!.variables);
    expect(r8!.at).to.be.at.least(reset * 1000);
    expect(r3!.status).to.equal(200);
    expect((await corpus())).to.have.length(24);
    expect(await runRow()).to.deep.include({ requests: FULL_RUN_REQUESTS + 2 });
  });

  it('a reset beyond a minute pauses the run and enqueues its continuation for then, which resumes at the month it stopped in', async () => {
    const resetAt = new Date(Date.now() + 10 * 60_000);
    // Request 10: alpha's fourth month, first page (1 check, 2 release pages, 3 months of 2 pages).
    fake.script.set(10, { rateLimited: true, resetAt: resetAt.toISOString() });
    const first = await runCorpus(app, payload);
    expect(first.state).to.deep.include({ outcome: 'paused', until: resetAt.toISOString() });
    expect(fake.requests).to.have.length(10);
    const run = (await admin.query('select id, paused_until, lease_job_id from benchmark_corpus_runs')).rows[0];
    expect(run.paused_until.toISOString()).to.equal(resetAt.toISOString());
    expect(run.lease_job_id).to.equal(null);
    const jobs = (await admin.query(`select data, start_after from pgboss.job where name = 'benchmarks.corpus'`)).rows;
    expect(jobs).to.have.length(1);
    expect(jobs[0].data).to.deep.equal({ runId: run.id, pageSize: 2 });
    expect(jobs[0].start_after.toISOString()).to.equal(resetAt.toISOString());
    expect((await admin.query('select count(*)::int as n from benchmark_corpus_staging')).rows[0].n).to.equal(3);
    expect((await admin.query(`select count(*)::int as n from benchmark_corpus`)).rows[0].n).to.equal(0);

    fake.script.clear();
    // The daily schedule meanwhile (no runId) leaves the paused run alone: no request, no second continuation.
    const scheduled = await runCorpus(app, payload);
    expect(scheduled.state).to.deep.include({ outcome: 'skipped: another job holds this run, or it is paused for the rate limit', runId: run.id });
    expect(fake.requests).to.have.length(10);
    expect((await admin.query(`select count(*)::int as n from pgboss.job where name = 'benchmarks.corpus'`)).rows[0].n).to.equal(1);
    const continued = await runCorpus(app, jobs[0].data);
    expect(continued.state).to.deep.include({ outcome: 'published', repositories: 2 });
    // The continuation re-reads the fourth month only: 33 requests after the first 9 that counted.
    expect(fake.requests).to.have.length(10 + FULL_RUN_REQUESTS - 9);
    expect(fake.requests[10]!.variables.search).to.include('merged:2024-05-01T00:00:00Z');
    expect(await corpus()).to.have.length(24);
    await admin.query(`delete from pgboss.job where name = 'benchmarks.corpus'`);
  });

  it('a crash mid-month (the code host fails) is retried by the same job, which resumes at that month with exact request counts', async () => {
    const expected = await (async () => {
      await runCorpus(app, payload);
      return corpus();
    })();
    await admin.query('delete from benchmark_corpus_runs');
    fake.requests.length = 0;
    // Request 11: the second page of alpha's fourth month.
    fake.script.set(11, { status: 502 });
    const jobId = '7d1c5a52-5b0e-4a52-9a67-3c0d0b9d2f11';
    let failure: unknown = null;
    await runCorpus(app, payload, jobId).catch((error) => (failure = error));
    expect(String(failure)).to.include('The code host answered HTTP 502');
    expect(String(failure)).not.to.include(fake.token);
    expect(fake.requests).to.have.length(11);
    const cursor = (await admin.query('select cursor from benchmark_corpus_runs')).rows[0].cursor;
    expect(cursor).to.deep.include({ repo: 0, phase: 'pulls', month: 3 });
    expect((await admin.query('select count(*)::int as n from benchmark_corpus_staging')).rows[0].n).to.equal(3);

    fake.script.clear();
    const retried = await runCorpus(app, payload, jobId);
    expect(retried.state).to.deep.include({ outcome: 'published', repositories: 2 });
    // 9 requests had been checkpointed; the retry re-reads the fourth month and goes on: 33 more.
    expect(fake.requests).to.have.length(11 + FULL_RUN_REQUESTS - 9);
    expect(fake.requests[11]!.variables).to.deep.equal(fake.requests[9]!.variables);
    expect(await runRow()).to.deep.include({ requests: 11 + FULL_RUN_REQUESTS - 9, finished: true });
    expect(await corpus()).to.deep.equal(expected);
  });

  it('does nothing without CODEHOST_PUBLIC_TOKEN', async () => {
    const { app: tokenless, database: db } = corpusApp(database.pool.options.connectionString as string);
    try {
      expect((await runCorpus(tokenless, payload)).state).to.deep.equal({ outcome: 'skipped: CODEHOST_PUBLIC_TOKEN is not set' });
      expect(fake.requests).to.have.length(0);
    } finally {
      await db.close();
    }
  });
});
