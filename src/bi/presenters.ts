import type { BiCredential } from './credentials.js';

/** A credential as listed: never its password (it is not stored). */
export const presentBiCredential = (c: BiCredential) => ({
  id: c.id,
  name: c.name,
  user: c.user,
  createdAt: c.createdAt.toISOString(),
});

/**
 * What a BI tool needs to connect, from the URL of the database the role was created in. `url`
 * is a postgresql:// connection string a client uses as is (the password is URL-safe base64).
 */
export function presentBiConnection(databaseUrl: string, credential: BiCredential, password: string) {
  const db = new URL(databaseUrl);
  const host = db.hostname;
  const port = Number(db.port || 5432);
  const database = decodeURIComponent(db.pathname.replace(/^\//, ''));
  const sslmode = db.searchParams.get('sslmode') ?? 'prefer';
  const url = new URL(`postgresql://${host}`);
  url.port = String(port);
  url.pathname = `/${encodeURIComponent(database)}`;
  url.username = encodeURIComponent(credential.user);
  url.password = encodeURIComponent(password);
  if (db.searchParams.has('sslmode')) url.searchParams.set('sslmode', sslmode);
  return { id: credential.id, name: credential.name, user: credential.user, password, host, port, database, sslmode, url: url.toString() };
}
