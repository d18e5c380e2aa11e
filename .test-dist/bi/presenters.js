import { biDatabaseName } from "./database.js";
const presentBiCredential = (c) => ({
  id: c.id,
  name: c.name,
  user: c.user,
  createdAt: c.createdAt.toISOString()
});
function biEndpoint(databaseUrl, bi) {
  const db = new URL(bi.databaseUrl ?? databaseUrl);
  const database = biDatabaseName(decodeURIComponent(db.pathname.replace(/^\//, "")), bi.database);
  if (bi.publicPort !== null && bi.publicHost !== null) return { host: bi.publicHost, port: bi.publicPort, database, sslmode: "require" };
  return { host: db.hostname, port: Number(db.port || 5432), database, sslmode: db.searchParams.get("sslmode") ?? "prefer" };
}
function presentBiConnection(endpoint, credential, password) {
  const { host, port, database, sslmode } = endpoint;
  const url = new URL(`postgresql://${host}`);
  url.port = String(port);
  url.pathname = `/${encodeURIComponent(database)}`;
  url.username = encodeURIComponent(credential.user);
  url.password = encodeURIComponent(password);
  if (sslmode !== "prefer") url.searchParams.set("sslmode", sslmode);
  return { id: credential.id, name: credential.name, user: credential.user, password, host, port, database, sslmode, url: url.toString() };
}
export {
  biEndpoint,
  presentBiConnection,
  presentBiCredential
};
