/**
 * The rollup marks of the intake's two tables (cube_rollup_changed's statements for ai_sessions
 * and ai_telemetry_days, src/cube/sql/cube_rollup_changed.sql, static for every table since
 * migration 0082): each insert, upsert and delete marks the months the rule names. Hand-worked, on one tenant, marks cleared before each write:
 *   person-day 2025-03-15: insert, update, delete      → ai_sessions 2025-03
 *   session started 2025-04-09, linked to a commit of 2025-02-03 (project of the tenant):
 *     insert (not yet linked)                         → ai_sessions 2025-04
 *     update (linked)                                 → ai_sessions 2025-04, ai_commits 2025-02
 *     delete (linked)                                 → ai_sessions 2025-04, ai_commits 2025-02
 *   the upsert the intake runs (insert … on conflict do update) on a new and an existing row
 *                                                      → ai_sessions 2025-03 (its statement's triggers, both)
 */
import { expect } from 'chai';
import pg from 'pg';
import { buildTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';

describe('AI telemetry: rollup marks of sessions and person-days', function () {
  this.timeout(120_000);
  let api: TestServer;
  let pool: pg.Pool;
  let t: string;

  before(async () => {
    api = await testServer();
    pool = new pg.Pool({ connectionString: api.databaseUrl, max: 2 });
    t = (await buildTenant(api.databaseUrl)).tenantId;
  });
  after(async () => {
    await pool?.end();
    await api?.close();
  });

  /** Runs `write` with the tenant's marks cleared first; the marks it left, sorted. */
  const marks = async (write: () => Promise<unknown>) => {
    await pool.query('delete from cube_rollup_changes where tenant_id = $1', [t]);
    await write();
    const { rows } = await pool.query(`select cube, to_char(month, 'YYYY-MM') as month from cube_rollup_changes where tenant_id = $1 order by cube, month`, [t]);
    return rows.map((r) => `${r.cube} ${r.month}`);
  };

  it('marks the month of a person-day on insert, upsert and delete', async () => {
    const upsert = () => pool.query(`insert into ai_telemetry_days (tenant_id, tool, person_key, person_email, day, prompts) values ($1, 'claude-code', 'a@x.example', 'a@x.example', '2025-03-15', 1)
      on conflict (tenant_id, person_key, day, tool) do update set prompts = ai_telemetry_days.prompts + 1`, [t]);
    expect(await marks(upsert)).to.deep.equal(['ai_sessions 2025-03']);
    expect(await marks(upsert)).to.deep.equal(['ai_sessions 2025-03']);
    expect(await marks(() => pool.query(`update ai_telemetry_days set prompts = 0 where tenant_id = $1`, [t]))).to.deep.equal(['ai_sessions 2025-03']);
    expect(await marks(() => pool.query(`delete from ai_telemetry_days where tenant_id = $1`, [t]))).to.deep.equal(['ai_sessions 2025-03']);
    expect(await marks(() => pool.query(`update ai_telemetry_days set prompts = 0 where tenant_id = $1`, [t]))).to.deep.equal([]);
  });

  it("marks a session's month, and its linked commits' months, on insert, update and delete", async () => {
    const project = (await pool.query(`insert into projects (tenant_id, provider, project_key, source_type) values ($1, 'manual', 'marks/one', 'manual') returning id`, [t])).rows[0].id as string;
    const commit = (await pool.query(`insert into commits (tenant_id, project_id, sha, committed_at, message) values ($1, $2, md5('marks'), '2025-02-03T12:00:00Z', 'm') returning id`, [t, project])).rows[0].id as string;
    let session = '';
    expect(await marks(async () => {
      session = (await pool.query(`insert into ai_sessions (id, tenant_id, source, tool, telemetry_id, started_at) values (gen_random_uuid(), $1, 'telemetry', 'claude-code', 'marks-1', '2025-04-09T12:00:00Z')
        on conflict (tenant_id, tool, telemetry_id) do update set prompt_count = ai_sessions.prompt_count + 1 returning id`, [t])).rows[0].id;
    })).to.deep.equal(['ai_sessions 2025-04']);
    await pool.query(`insert into ai_session_links (tenant_id, session_id, commit_id, linked_by) values ($1, $2, $3, 'commit_sha')`, [t, session, commit]);
    expect(await marks(() => pool.query(`update ai_sessions set prompt_count = 3 where id = $1`, [session]))).to.deep.equal(['ai_commits 2025-02', 'ai_sessions 2025-04']);
    expect(await marks(() => pool.query(`insert into ai_sessions (id, tenant_id, source, tool, telemetry_id, started_at) values (gen_random_uuid(), $1, 'telemetry', 'claude-code', 'marks-1', '2025-04-10T12:00:00Z')
      on conflict (tenant_id, tool, telemetry_id) do update set prompt_count = ai_sessions.prompt_count + 1`, [t]))).to.deep.equal(['ai_commits 2025-02', 'ai_sessions 2025-04']);
    expect(await marks(() => pool.query(`delete from ai_sessions where id = $1`, [session]))).to.deep.equal(['ai_commits 2025-02', 'ai_sessions 2025-04']);
  });
  it('every rollup-mark trigger hands over one transition table, read by static statements (no EXECUTE on the write path)', async () => {
    // Migration 0082: dynamic SQL was planned on every write statement (0.7–1.1 ms of CPU per
    // single-row write, docs/benchmarks/2026-11-29-test-postgres.md).
    const { rows } = await pool.query(`select c.relname as "table", string_agg(t.tgname || ':' || coalesce(t.tgoldtable, '-') || '/' || coalesce(t.tgnewtable, '-'), ' ' order by t.tgname) as triggers
      from pg_trigger t join pg_class c on c.oid = t.tgrelid where t.tgfoid = 'cube_rollup_changed'::regproc group by c.relname order by c.relname`);
    const each = 'cube_rollup_delete:changed/- cube_rollup_insert:-/changed cube_rollup_update:changed/- cube_rollup_update_new:-/changed';
    expect(rows).to.deep.equal(['ai_attribution_settings', 'ai_session_links', 'ai_sessions', 'ai_telemetry_days', 'ai_vendor_commits', 'ai_vendor_days', 'commits',
      'person_identities', 'pull_request_commits', 'pull_requests', 'team_memberships'].map((table) => ({ table, triggers: each })));
    const body = (await pool.query(`select prosrc from pg_proc where oid = 'cube_rollup_changed'::regproc`)).rows[0].prosrc as string;
    expect(body.toLowerCase()).not.to.include('execute');
    expect(body).not.to.include('TG_ARGV');
  });
});
