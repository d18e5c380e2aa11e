import type { BiConfig } from '../config/index.js';
import type { BiCredential } from './credentials.js';
import { biDatabaseName } from './database.js';

/** A credential as listed: never its password (it is not stored). */
export const presentBiCredential = (c: BiCredential) => ({
  id: c.id,
  name: c.name,
  user: c.user,
  createdAt: c.createdAt.toISOString(),
});

export interface BiEndpoint {
  host: string;
  port: number;
  database: string;
  sslmode: string;
}

/**
 * Where BI tools connect (docs/bi-setup.md "Deployment"). With BI_PORT, the load balancer's TLS entry
 * point on BI_HOST (APP_URL's host by default), `sslmode=require`: the TLS is the load balancer's.
 * Without it, the server BI sessions use, as the server sees it: DATABASE_URL_BI (a replica)
 * or else DATABASE_URL, with the sslmode of that URL (else `prefer`). The database is always the
 * BI database (BI_DATABASE, else `<that URL's database>_bi`), never the application's.
 */
export function biEndpoint(databaseUrl: string, bi: BiConfig): BiEndpoint {
  const db = new URL(bi.databaseUrl ?? databaseUrl);
  const database = biDatabaseName(decodeURIComponent(db.pathname.replace(/^\//, '')), bi.database);
  if (bi.publicPort !== null && bi.publicHost !== null) return { host: bi.publicHost, port: bi.publicPort, database, sslmode: 'require' };
  return { host: db.hostname, port: Number(db.port || 5432), database, sslmode: db.searchParams.get('sslmode') ?? 'prefer' };
}

/**
 * What a BI tool needs to connect. `url` is a postgresql:// connection string a client uses as is
 * (the password is URL-safe base64), with `sslmode` when it is not libpq's default.
 */
export function presentBiConnection(endpoint: BiEndpoint, credential: BiCredential, password: string) {
  const { host, port, database, sslmode } = endpoint;
  const url = new URL(`postgresql://${host}`);
  url.port = String(port);
  url.pathname = `/${encodeURIComponent(database)}`;
  url.username = encodeURIComponent(credential.user);
  url.password = encodeURIComponent(password);
  if (sslmode !== 'prefer') url.searchParams.set('sslmode', sslmode);
  return { id: credential.id, name: credential.name, user: credential.user, password, host, port, database, sslmode, url: url.toString() };
}
