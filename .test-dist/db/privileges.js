import pg from "pg";
const PRIVATE_SCHEMAS = ["public", "drizzle", "pgboss"];
async function restrictDatabaseToApplication(client) {
  const { rows } = await client.query("select current_database() as name");
  const database = pg.escapeIdentifier(rows[0].name);
  await client.query(`GRANT CONNECT, TEMPORARY ON DATABASE ${database} TO CURRENT_USER`);
  await client.query(`GRANT TEMPORARY ON DATABASE ${database} TO app_tenant, app_system`);
  await client.query(`REVOKE CONNECT, TEMPORARY ON DATABASE ${database} FROM PUBLIC`);
  const present = await client.query("select nspname from pg_namespace where nspname = any($1::text[])", [PRIVATE_SCHEMAS]);
  for (const { nspname } of present.rows) await client.query(`REVOKE ALL ON SCHEMA ${pg.escapeIdentifier(nspname)} FROM PUBLIC`);
}
async function databaseOpenToPublic(client) {
  const { rows } = await client.query(
    `select has_database_privilege('public', current_database(), 'CONNECT') or has_database_privilege('public', current_database(), 'TEMPORARY') as open`
  );
  return rows[0].open;
}
export {
  databaseOpenToPublic,
  restrictDatabaseToApplication
};
