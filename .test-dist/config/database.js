function checkDatabaseUrl(r, name, value) {
  if (value === null) return;
  let ok = false;
  try {
    const url = new URL(value);
    ok = (url.protocol === "postgresql:" || url.protocol === "postgres:") && url.hostname !== "" && url.username !== "" && url.pathname.length > 1;
  } catch {
    ok = false;
  }
  if (!ok) r.problems.push(`${name} must have the shape postgresql://<user>:<password>@<host>:<port>/<database>`);
}
function parseDatabaseUrl(r) {
  const url = r.required("DATABASE_URL");
  checkDatabaseUrl(r, "DATABASE_URL", url);
  return url ?? "";
}
function parseDatabase(r) {
  const url = parseDatabaseUrl(r);
  const directUrl = r.get("DATABASE_URL_DIRECT");
  checkDatabaseUrl(r, "DATABASE_URL_DIRECT", directUrl);
  return { url, directUrl };
}
export {
  checkDatabaseUrl,
  parseDatabase,
  parseDatabaseUrl
};
