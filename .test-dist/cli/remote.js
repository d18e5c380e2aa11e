import { loadClientConfig } from "../config/index.js";
import { UsageError } from "./args.js";
import { CredentialsStore } from "./credentials.js";
import { checkServer, RemoteError, serverUrl, withKey } from "./server.js";
async function remoteSession(options, env) {
  const client = loadClientConfig(env);
  const store = new CredentialsStore(client.configHome);
  let server;
  if (options.url !== void 0) {
    if (typeof options.url !== "string" || options.url === "") throw new UsageError("--url=<server address> needs a value");
    server = serverUrl(options.url);
  } else {
    const servers = await store.servers();
    if (servers.length === 0) throw new RemoteError("not logged in: run delivery-analytics login --url=<server address>");
    if (servers.length > 1) throw new UsageError(`logged in to several servers; choose one with --url (${servers.join(", ")})`);
    server = servers[0];
  }
  const key = await store.get(server);
  if (!key) throw new RemoteError(`not logged in to ${server}: run delivery-analytics login --url=${server}`);
  const version = await checkServer(server, client.releaseVersion);
  return { server, key, store, client, version };
}
async function getData(session, path) {
  const res = await withKey(session.server, session.key.apiKey, path);
  if (res.status === 401) throw keyRefused(session.server);
  if (!res.ok) throw new RemoteError(`GET ${path} answered ${res.status}`);
  return (await res.json()).data;
}
const keyRefused = (server) => new RemoteError(`the stored key for ${server} is no longer accepted (revoked?): run delivery-analytics login --url=${server}`);
export {
  getData,
  keyRefused,
  remoteSession
};
