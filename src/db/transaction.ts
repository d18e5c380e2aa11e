/**
 * Transactions on plain `pg` connections, for the few places that need a connection of their own
 * (session advisory locks, SET LOCAL, pg-boss inside the same transaction). Drizzle's
 * `db.transaction` serves the rest.
 */
import type pg from 'pg';

/** Connections whose rollback failed: their state is unknown, so the pool must not reuse them. */
const broken = new WeakSet<pg.ClientBase>();

/**
 * Runs `work` between `begin` (default plain BEGIN; e.g. `begin isolation level repeatable read
 * read only`) and COMMIT on a connection already held; rolls back and rethrows when it throws.
 * `begin` may be several statements in one simple query (a first read saves a round trip):
 * `work` gets what they returned, one result per statement.
 */
export async function transactionOn<C extends pg.ClientBase, T>(client: C, work: (client: C, opened: pg.QueryResult[]) => Promise<T>, begin = 'begin'): Promise<T> {
  let opened: pg.QueryResult | pg.QueryResult[];
  try {
    opened = await client.query(begin);
  } catch (error) {
    // A statement after BEGIN in the same simple query failed: the transaction is open (aborted).
    await client.query('rollback').catch(() => broken.add(client));
    throw error;
  }
  try {
    const result = await work(client, Array.isArray(opened) ? opened : [opened]);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => broken.add(client));
    throw error;
  }
}

/** `transactionOn` a connection taken from the pool for the length of the transaction. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient, opened: pg.QueryResult[]) => Promise<T>, begin = 'begin'): Promise<T> {
  const client = await pool.connect();
  try {
    return await transactionOn(client, work, begin);
  } finally {
    client.release(broken.has(client) ? new Error('rollback failed; connection discarded') : undefined);
  }
}
