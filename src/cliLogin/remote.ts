/** What every remote command starts with: the server (`--url`, or the only one logged in to) and its stored key. */
import { loadClientConfig, type ClientConfig, type Env } from '../config/index.js';
import { UsageError, type Options } from '../cli/args.js';
import { CredentialsStore, type StoredKey } from './credentials.js';
import { checkServer, RemoteError, serverUrl, withKey, type ServerVersion } from './serverClient.js';

export interface RemoteSession {
  server: string;
  key: StoredKey;
  store: CredentialsStore;
  client: ClientConfig;
  version: ServerVersion;
}

/**
 * Resolves the server and its key, then checks the server's version agreement (which may stop the
 * command). Without --url, the one server this machine is logged in to, when there is exactly one.
 */
export async function remoteSession(options: Options, env: Env): Promise<RemoteSession> {
  const client = loadClientConfig(env);
  const store = new CredentialsStore(client.configHome);
  let server: string;
  if (options.url !== undefined) {
    if (typeof options.url !== 'string' || options.url === '') throw new UsageError('--url=<server address> needs a value');
    server = serverUrl(options.url);
  } else {
    const servers = await store.servers();
    if (servers.length === 0) throw new RemoteError('not logged in: run delivery-analytics login --url=<server address>');
    if (servers.length > 1) throw new UsageError(`logged in to several servers; choose one with --url (${servers.join(', ')})`);
    server = servers[0] as string;
  }
  const key = await store.get(server);
  if (!key) throw new RemoteError(`not logged in to ${server}: run delivery-analytics login --url=${server}`);
  const version = await checkServer(server, client.releaseVersion);
  return { server, key, store, client, version };
}

/** GET with the stored key, answering the data of the general API's envelope. */
export async function getData<T>(session: RemoteSession, path: string): Promise<T> {
  const res = await withKey(session.server, session.key.apiKey, path);
  if (res.status === 401) throw keyRefused(session.server);
  if (!res.ok) throw new RemoteError(`GET ${path} answered ${res.status}`);
  return ((await res.json()) as { data: T }).data;
}

export const keyRefused = (server: string) =>
  new RemoteError(`the stored key for ${server} is no longer accepted (revoked?): run delivery-analytics login --url=${server}`);
