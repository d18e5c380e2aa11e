/** BI access (docs/bi-setup.md "Deployment", "The BI database"): DATABASE_URL_BI, BI_PORT, BI_HOST and BI_DATABASE. */
import { checkDatabaseUrl } from './database.js';
import type { Reader } from './reader.js';

export interface BiConfig {
  /** DATABASE_URL_BI: a read replica where BI sessions run (roles are created on DATABASE_URL and replicate). */
  databaseUrl: string | null;
  /** BI_PORT: the load balancer's TLS entry point for PostgreSQL; when set, BI tools are given it. */
  publicPort: number | null;
  /** BI_HOST: the host name BI tools connect to with BI_PORT (default: APP_URL's host). */
  publicHost: string | null;
  /** BI_DATABASE: the database BI tools connect to, holding only the `bi` foreign tables (default: `<main database>_bi`). */
  database: string | null;
}

export function parseBi(r: Reader, appUrl: URL | null): BiConfig {
  const databaseUrl = r.get('DATABASE_URL_BI');
  checkDatabaseUrl(r, 'DATABASE_URL_BI', databaseUrl);
  const publicPort = r.get('BI_PORT') === null ? null : r.integer('BI_PORT', 0, 1, 65535);
  const host = r.get('BI_HOST');
  if (host !== null && !/^[A-Za-z0-9.-]+$/.test(host)) r.problems.push('BI_HOST must be a host name (letters, digits, dots and hyphens)');
  const database = r.get('BI_DATABASE');
  if (database !== null && !/^[A-Za-z_][A-Za-z0-9_$-]{0,62}$/.test(database)) r.problems.push('BI_DATABASE must be a database name (a letter or _, then letters, digits, _, $ or -; at most 63)');
  return { databaseUrl, publicPort, publicHost: host ?? appUrl?.hostname ?? null, database };
}
