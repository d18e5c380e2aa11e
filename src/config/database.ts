/** DATABASE_URL, DATABASE_URL_DIRECT (the migrations' and listeners' direct connection) and DATABASE_POOL_SIZE. */
import type { Reader } from './reader.js';

export interface DatabaseConfig {
  url: string;
  directUrl: string | null;
  /**
   * DATABASE_POOL_SIZE: an instance's connections for requests, all kept open (src/server.ts). A
   * new connection is a backend whose first statements read the catalog (about 100 ms of the
   * database's CPU before a cube query plans in 10 ms), so fewer, busier connections cost less
   * where requests are few (the tests use 3).
   */
  poolSize: number;
}

export function checkDatabaseUrl(r: Reader, name: string, value: string | null): void {
  if (value === null) return;
  let ok = false;
  try {
    const url = new URL(value);
    ok =
      (url.protocol === 'postgresql:' || url.protocol === 'postgres:') &&
      url.hostname !== '' &&
      url.username !== '' &&
      url.pathname.length > 1;
  } catch {
    ok = false;
  }
  if (!ok) r.problems.push(`${name} must have the shape postgresql://<user>:<password>@<host>:<port>/<database>`);
}

/** DATABASE_URL alone (required). */
export function parseDatabaseUrl(r: Reader): string {
  const url = r.required('DATABASE_URL');
  checkDatabaseUrl(r, 'DATABASE_URL', url);
  return url ?? '';
}

export function parseDatabase(r: Reader): DatabaseConfig {
  const url = parseDatabaseUrl(r);
  const directUrl = r.get('DATABASE_URL_DIRECT');
  checkDatabaseUrl(r, 'DATABASE_URL_DIRECT', directUrl);
  return { url, directUrl, poolSize: r.integer('DATABASE_POOL_SIZE', 10, 2, 100) };
}
