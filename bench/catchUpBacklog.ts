/**
 * A tenant's backlog of delivery-fact notes (migration 0055), written in a few bulk statements with
 * every trigger on, as an import or a backfill leaves it: deployments over 8 projects (one in 40 a
 * rollback of an earlier one, a third to staging, one in 7 failed), incidents in the hours after
 * deployments (a third naming one), merged pull requests, then a status change of a third of the
 * deployments (two notes each). About `notes` notes in all.
 */
import pg from 'pg';
import { catchUpDeliveryFacts, catchUpForRead } from '../src/cube/deliveryFacts.js';
import { AppError } from '../src/errors.js';

export async function seedBacklog(pool: pg.Pool, tenantId: string, notes: number): Promise<{ projects: string[]; notes: number }> {
  const projects: string[] = [];
  for (let p = 0; p < 8; p += 1) {
    const { rows } = await pool.query(`insert into projects (tenant_id, provider, project_key, source_type) values ($1, 'manual', $2, 'manual') returning id`, [tenantId, `backlog/p${p}`]);
    projects.push(rows[0].id as string);
  }
  // deployments + incidents + PRs + 2 × updates = notes
  const deployments = Math.round(notes / 2);
  const updates = Math.round(notes / 6);
  const incidents = Math.round(notes / 24);
  const prs = notes - deployments - 2 * updates - incidents;
  const year = 365 * 86_400;
  await pool.query(
    `insert into deployments (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task, is_rollback, rollback_from_sha, created_at)
     select $1, ($2::uuid[])[1 + i % 8], 'manual', 'bd-' || i, 'main', md5(i::text), case when i % 3 = 0 then 'staging' else 'production' end,
            case when i % 7 = 0 then 'failure' else 'success' end, 'deploy', i % 40 = 0, case when i % 40 = 0 then left(md5((i - 16)::text), 7) end,
            timestamptz '2025-01-01' + make_interval(secs => i * $4::float8)
     from generate_series(1, $3::int) i`,
    [tenantId, projects, deployments, year / deployments]);
  await pool.query(
    `insert into issues (tenant_id, project_id, provider, external_id, number, title, type, state, metadata, created_at)
     select $1, ($2::uuid[])[1 + (i * 24) % 8], 'manual', 'bi-' || i, i, 'down', 'incident', 'open',
            case when i % 3 = 0 then jsonb_build_object('causedByDeployment', 'bd-' || (i * 24)) end,
            timestamptz '2025-01-01' + make_interval(secs => (i * 24) * $4::float8 + 3600)
     from generate_series(1, $3::int) i`,
    [tenantId, projects, incidents, year / deployments]);
  await pool.query(
    `insert into pull_requests (tenant_id, project_id, external_id, number, title, state, created_at, merged_at)
     select $1, ($2::uuid[])[1 + i % 8], 'bp-' || i, i, 'p', 'merged',
            timestamptz '2025-01-01' + make_interval(secs => i * $4::float8) - interval '2 days',
            timestamptz '2025-01-01' + make_interval(secs => i * $4::float8)
     from generate_series(1, $3::int) i`,
    [tenantId, projects, prs, year / prs]);
  await pool.query(
    `update deployments set status = case when status = 'success' then 'failure' else 'success' end
     where tenant_id = $1 and external_id = any (array(select 'bd-' || (i * 3 + 1) from generate_series(0, $2::int - 1) i))`,
    [tenantId, updates]);
  const { rows } = await pool.query(`select count(*)::int as n from delivery_facts_pending where tenant_id = $1`, [tenantId]);
  return { projects, notes: rows[0].n as number };
}

export interface BacklogFigures {
  notes: number;
  /** chunks: those that took notes (a reader's last call, finding none left, is not one). */
  chunked: { seconds: number; chunks: number; longestChunkMs: number };
  readers: { count: number; timeouts: number; p50Ms: number; p100Ms: number; longestChunkMs: number };
  scratch: { seconds: number; identical: boolean };
  oneTransaction: { seconds: number; readerMs: number } | null;
}

const p = (xs: number[], q: number) => { const s = [...xs].sort((a, b) => a - b); return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!; };
const newTenant = async (pool: pg.Pool, name: string) =>
  (await pool.query(`insert into tenants (name, slug) values ($1, $1 || '-' || gen_random_uuid()) returning id`, [name])).rows[0].id as string;
/** A digest of the tenant's stored facts, to compare them with the facts recomputed from scratch. */
const digest = async (client: Pick<pg.Pool, 'query'>, tenantId: string) => (await client.query(
  `select md5(coalesce((select string_agg(f::text, ',' order by f.deployment_id) from deployment_facts f where f.tenant_id = $1), '')
            || coalesce((select string_agg(c::text, ',' order by c.pull_request_id) from change_lead_times c where c.tenant_id = $1), '')) as d`, [tenantId])).rows[0].d as string;

/**
 * A backlog of about `notes` notes caught up as the schedule does (chunks of CATCH_UP_CHUNK_NOTES,
 * each committed), while a reader arrives every second (a cube read: its own catch-up, then a read
 * of the facts). Reference, in the same run: the same tenant's facts recomputed from scratch in one
 * transaction (what `delivery_facts_rebuild` does per tenant), checked identical to the caught-up
 * ones. `oneTransaction`: the same backlog on a second tenant caught up in one transaction (before
 * migration 0058), with one reader arriving a second after it began.
 */
export async function measureBacklog(url: string, notes: number, oneTransaction: boolean): Promise<BacklogFigures> {
  const pool = new pg.Pool({ connectionString: url, max: 72 });
  pool.on('connect', (client) => client.on('error', () => {}));
  try {
    const tenant = await newTenant(pool, 'backlog');
    const seeded = await seedBacklog(pool, tenant, notes);
    const before = oneTransaction ? await newTenant(pool, 'backlog-one') : null;
    if (before) await seedBacklog(pool, before, notes);
    await pool.query('analyze');

    let figuresBefore: BacklogFigures['oneTransaction'] = null;
    if (before) {
      const started = performance.now();
      const whole = pool.query('select delivery_facts_catch_up($1, null, 2147483647)', [before]);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const readerStarted = performance.now();
      await catchUpDeliveryFacts(pool, before).catch(() => 0);
      const readerMs = performance.now() - readerStarted;
      await whole;
      figuresBefore = { seconds: (performance.now() - started) / 1000, readerMs };
    }

    const chunks: number[] = [];
    const readerMs: number[] = [];
    const readerChunks: number[] = [];
    let timeouts = 0;
    let done = false;
    const started = performance.now();
    const schedule = (async () => {
      // As the schedule: a run stops at the query timeout and the next run goes on.
      while ((await pool.query('select 1 from delivery_facts_pending where tenant_id = $1 limit 1', [tenant])).rows.length > 0) {
        await catchUpDeliveryFacts(pool, tenant, { onChunk: (n, ms) => { if (n > 0) chunks.push(ms); } }).catch((error: unknown) => {
          if (!(error instanceof AppError)) throw error;
          return 0;
        });
      }
      done = true;
    })();
    const readers: Promise<void>[] = [];
    while (!done) {
      readers.push((async () => {
        const t0 = performance.now();
        try {
          // As a cube query reads (src/cube/run.ts): at most one chunk waited for.
          await catchUpForRead(pool, tenant, { onChunk: (n, ms) => { if (n > 0) readerChunks.push(ms); } });
          await pool.query('select count(*) from deployment_facts where tenant_id = $1', [tenant]);
          readerMs.push(performance.now() - t0);
        } catch {
          timeouts += 1;
        }
      })());
      await Promise.race([schedule, new Promise((resolve) => setTimeout(resolve, 1000))]);
    }
    await schedule;
    const seconds = (performance.now() - started) / 1000;
    await Promise.all(readers);

    const client = await pool.connect();
    let scratch: BacklogFigures['scratch'];
    try {
      const caughtUp = await digest(client, tenant);
      await client.query('begin');
      const t0 = performance.now();
      await client.query('delete from deployment_facts where tenant_id = $1', [tenant]);
      await client.query('delete from change_lead_times where tenant_id = $1', [tenant]);
      await client.query(`select deployment_facts_refresh(array(select id from deployments where tenant_id = $1), '{}', '{}')`, [tenant]);
      await client.query('select change_lead_times_refresh(array(select id from pull_requests where tenant_id = $1 and merged_at is not null))', [tenant]);
      const scratchSeconds = (performance.now() - t0) / 1000;
      scratch = { seconds: scratchSeconds, identical: (await digest(client, tenant)) === caughtUp };
      await client.query('commit');
    } finally {
      client.release();
    }
    const all = [...chunks, ...readerChunks];
    return {
      notes: seeded.notes,
      chunked: { seconds, chunks: all.length, longestChunkMs: Math.max(0, ...all) },
      readers: { count: readerMs.length + timeouts, timeouts, p50Ms: p(readerMs, 0.5), p100Ms: p(readerMs, 1), longestChunkMs: Math.max(0, ...readerChunks) },
      scratch,
      oneTransaction: figuresBefore,
    };
  } finally {
    await pool.end();
  }
}
