import { checkDatabaseUrl } from "./database.js";
function parseBi(r, appUrl) {
  const databaseUrl = r.get("DATABASE_URL_BI");
  checkDatabaseUrl(r, "DATABASE_URL_BI", databaseUrl);
  const publicPort = r.get("BI_PORT") === null ? null : r.integer("BI_PORT", 0, 1, 65535);
  const host = r.get("BI_HOST");
  if (host !== null && !/^[A-Za-z0-9.-]+$/.test(host)) r.problems.push("BI_HOST must be a host name (letters, digits, dots and hyphens)");
  const database = r.get("BI_DATABASE");
  if (database !== null && !/^[A-Za-z_][A-Za-z0-9_$-]{0,62}$/.test(database)) r.problems.push("BI_DATABASE must be a database name (a letter or _, then letters, digits, _, $ or -; at most 63)");
  return { databaseUrl, publicPort, publicHost: host ?? appUrl?.hostname ?? null, database };
}
export {
  parseBi
};
