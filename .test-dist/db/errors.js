const SQLSTATE = /^[0-9A-Z]{5}$/;
function databaseError(error) {
  let current = error;
  for (let hops = 0; current && typeof current === "object" && hops < 5; hops += 1) {
    if (typeof current.code === "string" && SQLSTATE.test(current.code) && typeof current.severity === "string") {
      const { code, constraint, table, column } = current;
      return { code, ...constraint ? { constraint } : {}, ...table ? { table } : {}, ...column ? { column } : {} };
    }
    current = current.cause;
  }
  return null;
}
const isQueryWrapper = (error) => error instanceof Error && (error.name === "DrizzleQueryError" || Object.prototype.hasOwnProperty.call(error, "params"));
const isDataException = (summary) => summary !== null && summary.code.startsWith("22");
function describeError(error) {
  const db = databaseError(error);
  if (db) return `database error ${db.code}${db.constraint ? ` on ${db.constraint}` : db.table ? ` on ${db.table}` : ""}`;
  if (isQueryWrapper(error)) return "database query failed";
  return error instanceof Error ? error.message : String(error);
}
function serializeError(error, standard) {
  if (!(error instanceof Error)) return error;
  const db = databaseError(error);
  if (!db && !isQueryWrapper(error)) return standard(error);
  const frames = (error.stack ?? "").split("\n").filter((line) => line.startsWith("    at ")).join("\n");
  return { type: error.name, message: describeError(error), ...db ? { db } : {}, stack: frames };
}
class SchemaBehindError extends Error {
  constructor(missing) {
    super(`database schema is behind this server: expected migration ${missing[0]} (run "delivery-analytics migrate")`);
    this.missing = missing;
  }
  missing;
}
export {
  SchemaBehindError,
  databaseError,
  describeError,
  isDataException,
  serializeError
};
