/**
 * Taking a credential back from a holder who resists (issue 43, docs/bi.md "Rotating and
 * revoking"): a BI role may hold its connection slots and keep an `ALTER ROLE current_user …` open
 * in a transaction (its idle timeout switched off), which holds its role's catalogue row: the
 * owner's ALTER ROLE (NOLOGIN, a new password) would wait for it forever. Rotation and revocation
 * end the role's sessions, waiting until each is gone, and alter the role without waiting on them.
 */
import type pg from 'pg';
import { inTransaction } from '../db/transaction.js';

type Queryable = Pick<pg.ClientBase, 'query'>;

// How long one terminate waits for a backend to exit, and how long an ALTER ROLE waits on a lock
// before the role's sessions are ended and it runs again. Neither is a limit a test waits for.
const EXIT_WAIT_MS = 5000;
const LOCK_WAIT = '2s';
const ATTEMPTS = 5;

/**
 * Ends every session of the roles (all databases of this server) and waits until none is left;
 * looks again while new ones appear (a role that may still log in), a few times.
 */
export async function terminateSessions(db: Queryable, roles: string[]): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const { rows } = await db.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE usename = ANY($1::text[]) AND pid <> pg_backend_pid()',
      [roles],
    );
    if (rows.length === 0) return;
    await db.query('SELECT pg_terminate_backend(pid, $2) FROM unnest($1::int[]) AS pid', [rows.map((r) => r.pid), EXIT_WAIT_MS]);
  }
}

/**
 * Runs `work` (ALTER ROLE of `roles`, and its own rows) in a transaction after ending the roles'
 * sessions; should a session that came back meanwhile hold a role's row, the ALTER gives up after
 * LOCK_WAIT, the sessions are ended again and `work` runs again.
 */
export async function alterPastSessions<T>(pool: pg.Pool, roles: string[], work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    await terminateSessions(pool, roles);
    try {
      return await inTransaction(pool, async (client) => {
        await client.query(`SET LOCAL lock_timeout = '${LOCK_WAIT}'`);
        return work(client);
      });
    } catch (error) {
      if ((error as { code?: string }).code !== '55P03' || attempt >= ATTEMPTS) throw error;
    }
  }
}
