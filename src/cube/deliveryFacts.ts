/**
 * The stored delivery facts (deployment_facts, change_lead_times) are brought up to date when they
 * are read (migration 0055, docs/write-path.md): writes only note what they changed, and
 * `delivery_facts_catch_up` recomputes a tenant's noted changes. Every cube query that reads those
 * tables catches up first, in a transaction of its own that commits before the query's snapshot is
 * taken, so the answer holds every write committed before the query began.
 */
import type pg from 'pg';
import type { ValidQuery } from './query.js';

/** The cubes whose SQL reads the stored facts (schema/deployments.yml, schema/change_lead_times.yml). */
const STORED_FACT_CUBES = new Set(['deployments', 'change_lead_times']);

type Filter = ValidQuery['filters'][number];

function filterMembers(filter: Filter, into: string[]): void {
  const f = filter as { member?: string; dimension?: string; and?: Filter[]; or?: Filter[] };
  if (f.member) into.push(f.member);
  if (f.dimension) into.push(f.dimension);
  for (const inner of [...(f.and ?? []), ...(f.or ?? [])]) filterMembers(inner, into);
}

/** Whether a query names a member of a cube that reads the stored facts. */
export function readsStoredFacts(q: ValidQuery): boolean {
  const members = [...q.measures, ...q.dimensions, ...q.segments, ...q.hiddenMeasures, ...q.timeDimensions.map((t) => t.dimension), ...q.order.map((o) => o.id)];
  for (const filter of q.filters) filterMembers(filter, members);
  return members.some((m) => STORED_FACT_CUBES.has(m.slice(0, m.indexOf('.'))));
}

const DEADLOCK = '40P01';

/**
 * Recomputes what the tenant's noted writes changed; returns how many notes it took (0, after one
 * quick lookup, when there are none). A deadlock with a writer deleting a deployment the catch-up
 * holds is retried (the catch-up changes nothing until it commits).
 */
export async function catchUpDeliveryFacts(pool: pg.Pool, tenantId: string): Promise<number> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const { rows } = await pool.query<{ taken: number }>('select delivery_facts_catch_up($1) as taken', [tenantId]);
      return rows[0]?.taken ?? 0;
    } catch (error) {
      if ((error as { code?: string }).code !== DEADLOCK || attempt >= 3) throw error;
    }
  }
}

/** Every tenant with noted writes, caught up (the schedule; system scope: it spans tenants). */
export async function catchUpAllDeliveryFacts(pool: pg.Pool): Promise<{ tenants: number; notes: number }> {
  const { rows } = await pool.query<{ tenant_id: string }>('select distinct tenant_id from delivery_facts_pending');
  let notes = 0;
  for (const { tenant_id: tenantId } of rows) notes += await catchUpDeliveryFacts(pool, tenantId);
  return { tenants: rows.length, notes };
}
