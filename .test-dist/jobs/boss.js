import PgBoss from "pg-boss";
import pg from "pg";
const BOSS_SCHEMA = "pgboss";
function bossOver(executor, options = {}) {
  return new PgBoss({
    db: { executeSql: (text, values) => executor.query(text, values) },
    schema: BOSS_SCHEMA,
    migrate: options.migrate ?? false,
    supervise: false,
    schedule: false,
    archiveCompletedAfterSeconds: 3600,
    deleteAfterDays: options.retentionDays ?? 7
  });
}
function queueOptions(def) {
  return {
    name: def.name,
    policy: "standard",
    retryLimit: def.retryLimit,
    retryDelay: def.retryDelaySeconds,
    retryBackoff: def.retryDelaySeconds > 0,
    expireInSeconds: def.expireInSeconds
  };
}
async function installJobQueues(executor, defs) {
  const own = executor instanceof pg.Pool ? await executor.connect() : null;
  const client = own ?? executor;
  try {
    await client.query("select pg_advisory_lock($1)", [INSTALL_LOCK]);
    try {
      const boss = bossOver(client, { migrate: true });
      boss.on("error", () => {
      });
      await boss.start();
      try {
        for (const def of defs) {
          await boss.createQueue(def.name, queueOptions(def));
          await boss.updateQueue(def.name, queueOptions(def));
        }
      } finally {
        await boss.stop({ graceful: false, close: false });
      }
    } finally {
      await client.query("select pg_advisory_unlock($1)", [INSTALL_LOCK]);
    }
  } finally {
    own?.release();
  }
}
const INSTALL_LOCK = 4127301560;
class JobSchemaBehindError extends Error {
  constructor(missing) {
    super(`job queues are not installed: ${missing.join(", ")} (run "delivery-analytics migrate")`);
    this.missing = missing;
  }
  missing;
}
async function checkJobQueues(pool, defs) {
  const installed = await pool.query(`select to_regclass('${BOSS_SCHEMA}.version') is not null as present`);
  if (!installed.rows[0]?.present) throw new JobSchemaBehindError([`${BOSS_SCHEMA} schema`]);
  const version = await pool.query(`select version from ${BOSS_SCHEMA}.version`);
  const expected = await bundledBossVersion();
  if (version.rows[0]?.version !== expected) throw new JobSchemaBehindError([`${BOSS_SCHEMA} schema version ${expected}`]);
  const names = defs.map((d) => d.name);
  const found = await pool.query(`select name from ${BOSS_SCHEMA}.queue where name = any($1::text[])`, [names]);
  const present = new Set(found.rows.map((r) => r.name));
  const missing = names.filter((n) => !present.has(n));
  if (missing.length > 0) throw new JobSchemaBehindError(missing);
}
let bossVersion = null;
async function bundledBossVersion() {
  if (bossVersion === null) {
    const { createRequire } = await import("node:module");
    bossVersion = createRequire(import.meta.url)("pg-boss/version.json").schema;
  }
  return bossVersion;
}
async function returnJobs(executor, name, ids) {
  if (ids.length === 0) return 0;
  const result = await executor.query(
    `update ${BOSS_SCHEMA}.job set state = 'created', started_on = null, start_after = now()
      where name = $1 and id = any($2::uuid[]) and state = 'active' returning id`,
    [name, ids]
  );
  return result.rows.length;
}
export {
  BOSS_SCHEMA,
  JobSchemaBehindError,
  bossOver,
  checkJobQueues,
  installJobQueues,
  returnJobs
};
