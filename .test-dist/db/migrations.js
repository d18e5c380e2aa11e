import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { restrictDatabaseToApplication } from "./privileges.js";
import { SchemaBehindError } from "./errors.js";
const MIGRATIONS_DIR = fileURLToPath(new URL("../../migrations", import.meta.url));
function bundledMigrations(dir = MIGRATIONS_DIR) {
  const journal = JSON.parse(readFileSync(`${dir}/meta/_journal.json`, "utf8"));
  return journal.entries;
}
async function schemaStatus(pool, dir = MIGRATIONS_DIR) {
  const bundled = bundledMigrations(dir);
  const exists = await pool.query(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as present"
  );
  const rows = exists.rows[0]?.present ? (await pool.query("select created_at from drizzle.__drizzle_migrations")).rows : [];
  const appliedStamps = new Set(rows.map((r) => Number(r.created_at)));
  const bundledStamps = new Set(bundled.map((m) => m.when));
  const missing = bundled.filter((m) => !appliedStamps.has(m.when)).map((m) => m.tag);
  const ahead = [...appliedStamps].some((stamp) => !bundledStamps.has(stamp));
  return { applied: bundled.length - missing.length, bundled: bundled.length, ahead, missing };
}
const MIGRATION_LOCK = 4127301559;
async function runMigrations(pool, dir = MIGRATIONS_DIR) {
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    try {
      await migrate(drizzle(client), { migrationsFolder: dir });
      const [{ installJobQueues, BOSS_SCHEMA }, { jobCatalog }] = await Promise.all([import("../jobs/boss.js"), import("../jobs/catalog.js")]);
      await installJobQueues(client, jobCatalog);
      await client.query(`GRANT USAGE ON SCHEMA ${BOSS_SCHEMA} TO app_tenant`);
      await client.query(`GRANT INSERT, SELECT (id) ON ${BOSS_SCHEMA}.job TO app_tenant`);
      await client.query(`GRANT SELECT ON ${BOSS_SCHEMA}.queue TO app_tenant`);
      await restrictDatabaseToApplication(client);
      const { rows } = await client.query("select to_regclass('benchmark_corpus_source') is not null as present");
      if (rows[0]?.present) await (await import("../benchmarks/store.js")).loadShippedSnapshot(client);
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
  return schemaStatus(pool, dir);
}
export {
  MIGRATIONS_DIR,
  SchemaBehindError,
  bundledMigrations,
  runMigrations,
  schemaStatus
};
