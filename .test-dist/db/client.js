import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import * as schema from "./schema/index.js";
import { currentScope } from "./tenancy.js";
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
const NO_TENANT = "";
const APPLIED = /* @__PURE__ */ Symbol("tenant scope applied to this connection");
function settingsOf(scope, unscoped) {
  if (scope?.kind === "tenant") return ["app_tenant", scope.tenantId];
  if (scope?.kind === "system" || unscoped) return ["none", NO_TENANT];
  return ["app_tenant", NO_TENANT];
}
class TenantPool extends pg.Pool {
  constructor(config, unscoped) {
    super(config);
    this.unscoped = unscoped;
  }
  unscoped;
  connect(callback) {
    const [role, tenant] = settingsOf(currentScope(), this.unscoped);
    const key = `${role}/${tenant}`;
    const ready = super.connect().then(async (client) => {
      if (client[APPLIED] === key) return client;
      try {
        await client.query("select set_config('role', $1, false), set_config('app.tenant_id', $2, false)", [role, tenant]);
      } catch (error) {
        client.release(error);
        throw error;
      }
      client[APPLIED] = key;
      return client;
    });
    if (!callback) return ready;
    ready.then(
      (client) => callback(void 0, client, client.release.bind(client)),
      (error) => callback(error, void 0, () => {
      })
    );
  }
}
function openDatabase(url, options = {}) {
  const pool = new TenantPool(
    {
      connectionString: url,
      max: options.max ?? 10,
      application_name: options.applicationName ?? "delivery-analytics",
      connectionTimeoutMillis: 5e3
    },
    options.unscoped
  );
  pool.on("error", () => {
  });
  pool.on("connect", (client) => client.on("error", () => {
  }));
  return { pool, db: drizzle(pool, { schema }), close: () => pool.end() };
}
export {
  openDatabase
};
