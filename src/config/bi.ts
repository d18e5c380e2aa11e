/** BI access (docs/bi.md "Deployment"): DATABASE_URL_BI, BI_PORT and BI_HOST. */
import { checkDatabaseUrl } from './database.js';
import type { Reader } from './reader.js';

export interface BiConfig {
  /** DATABASE_URL_BI: a read replica where BI sessions run (roles are created on DATABASE_URL and replicate). */
  databaseUrl: string | null;
  /** BI_PORT: the load balancer's TLS entry point for PostgreSQL; when set, BI tools are given it. */
  publicPort: number | null;
  /** BI_HOST: the host name BI tools connect to with BI_PORT (default: APP_URL's host). */
  publicHost: string | null;
}

export function parseBi(r: Reader, appUrl: URL | null): BiConfig {
  const databaseUrl = r.get('DATABASE_URL_BI');
  checkDatabaseUrl(r, 'DATABASE_URL_BI', databaseUrl);
  const publicPort = r.get('BI_PORT') === null ? null : r.integer('BI_PORT', 0, 1, 65535);
  const host = r.get('BI_HOST');
  if (host !== null && !/^[A-Za-z0-9.-]+$/.test(host)) r.problems.push('BI_HOST must be a host name (letters, digits, dots and hyphens)');
  return { databaseUrl, publicPort, publicHost: host ?? appUrl?.hostname ?? null };
}
