/**
 * The stored delivery facts (deployment_facts, change_lead_times) are brought up to date when they
 * are read (migration 0055, docs/write-path.md): writes only note what they changed, and
 * `delivery_facts_catch_up` recomputes a tenant's noted changes. Every cube query that reads those
 * tables catches up first, in a transaction of its own that commits before the query's snapshot is
 * taken, so the answer holds every write committed before the query began.
 */
import type pg from 'pg';
import { AppError } from '../errors.js';
import { filterMembers } from './filters.js';
import type { ValidQuery } from './query.js';
import { cubeSettings } from './settings.js';

/** The cubes whose SQL reads the stored facts (schema/deployments.yml, schema/change_lead_times.yml). */
const STORED_FACT_CUBES = new Set(['deployments', 'change_lead_times']);

/** Whether a query names a member of a cube that reads the stored facts. */
export function readsStoredFacts(q: ValidQuery): boolean {
  const members = [...q.measures, ...q.dimensions, ...q.segments, ...q.hiddenMeasures, ...q.timeDimensions.map((t) => t.dimension), ...q.order.map((o) => o.id), ...q.filters.flatMap(filterMembers)];
  return members.some((m) => STORED_FACT_CUBES.has(m.slice(0, m.indexOf('.'))));
}

/** Why a catch-up is run again: a deadlock, or a fact row whose deployment or PR was deleted after the catch-up's snapshot (migration 0057). */
const RETRIED = new Set(['40P01', '23503']);
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * Recomputes what the tenant's noted writes changed; returns how many notes it took (0, after one
 * quick lookup, when there are none). A failed catch-up changes nothing (its notes stay), so it is
 * simply run again with a new snapshot. It waits for another catch-up of the tenant at most the
 * cube query timeout, then answers 504 like a query that ran too long.
 */
export async function catchUpDeliveryFacts(pool: pg.Pool, tenantId: string): Promise<number> {
  const waitMs = Math.trunc(cubeSettings().queryTimeoutMs);
  for (let attempt = 1; ; attempt += 1) {
    try {
      const { rows } = await pool.query<{ taken: number }>('select delivery_facts_catch_up($1, $2) as taken', [tenantId, waitMs]);
      return rows[0]?.taken ?? 0;
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === LOCK_NOT_AVAILABLE) {
        throw new AppError('timeout', `The deployment facts are being brought up to date by another request for more than ${waitMs / 1000} s (CUBE_QUERY_TIMEOUT_SECONDS); try again shortly`);
      }
      if (!RETRIED.has(code ?? '') || attempt >= 3) throw error;
    }
  }
}

/**
 * Every tenant with noted writes, caught up (the schedule; system scope: it spans tenants). A
 * tenant whose catch-up fails is counted and left for the next run; the others go on. Fewest notes
 * first, so that one tenant's flood of writes does not hold up the others' BI views.
 */
export async function catchUpAllDeliveryFacts(pool: pg.Pool): Promise<{ tenants: number; notes: number; failed: number }> {
  const { rows } = await pool.query<{ tenant_id: string }>('select tenant_id from delivery_facts_pending group by tenant_id order by count(*), tenant_id');
  let notes = 0;
  let failed = 0;
  for (const { tenant_id: tenantId } of rows) {
    try {
      notes += await catchUpDeliveryFacts(pool, tenantId);
    } catch {
      failed += 1;
    }
  }
  return { tenants: rows.length, notes, failed };
}
