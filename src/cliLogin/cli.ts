/**
 * `login`, `whoami` and `logout` (docs/auth.md): the CLI side of the OAuth 2.0 device authorization
 * grant (RFC 8628). The device code and the key are never printed; the user code is, since the
 * person must compare it with the browser page.
 */
import { hostname } from 'node:os';
import openBrowser from 'open';
import { loadClientConfig, type Env } from '../config/index.js';
import type { presentApiKey } from '../apiKeys/presenters.js';
import type { presentMe } from '../users/presenters.js';
import { CLI_CLIENT_ID, CLI_SCOPE, DEVICE_AUTHORIZATION_PATH, DEVICE_GRANT_TYPE, TOKEN_PATH } from '../oauth/constants.js';
import { requireOption, type Options } from '../cli/args.js';
import type { Command } from '../cli/commands.js';
import { CredentialsStore } from './credentials.js';
import { getData, remoteSession, type RemoteSession } from './remote.js';
import { checkServer, describeVersion, errorMessage, postForm, RemoteError, serverUrl, withKey } from './serverClient.js';

const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const EXPIRED = 'the login was not approved in time (a login waits 10 minutes) or is no longer valid: run delivery-analytics login again';

/** The server's answers, typed by the presenters that build them (as the web app's are). */
type Me = ReturnType<typeof presentMe>;
type CurrentKey = ReturnType<typeof presentApiKey>;

/** A browser can be opened here: macOS and Windows always; elsewhere only inside a graphical session. */
function hasBrowser(env: Env): boolean {
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** Polls the token endpoint as RFC 8628 §3.4–3.5 say, until the key arrives or the login ends. */
async function waitForKey(server: string, deviceCode: string, intervalSeconds: number, expiresInSeconds: number): Promise<Record<string, unknown>> {
  let wait = intervalSeconds;
  const deadline = Date.now() + expiresInSeconds * 1000;
  for (;;) {
    await sleep(wait * 1000);
    if (Date.now() > deadline) throw new RemoteError(EXPIRED);
    const answer = await postForm(`${server}${TOKEN_PATH}`, { grant_type: DEVICE_GRANT_TYPE, device_code: deviceCode, client_id: CLI_CLIENT_ID });
    if (answer.status === 200 && typeof answer.body.access_token === 'string') return answer.body;
    const { error, error_description: description } = answer.body;
    if (error === 'authorization_pending') continue;
    if (error === 'slow_down') {
      wait += 5;
      continue;
    }
    if (error === 'access_denied') throw new RemoteError('the login was denied in the browser; no key was issued');
    if (error === 'expired_token') throw new RemoteError(EXPIRED);
    if (error === 'invalid_grant') {
      throw new RemoteError(typeof description === 'string' && description !== 'grant request is invalid' ? `the login failed: ${description}` : EXPIRED);
    }
    throw new RemoteError(`the server refused the login: ${String(description ?? error ?? `HTTP ${answer.status}`)}`);
  }
}

async function login(options: Options, env: Env): Promise<void> {
  const server = serverUrl(requireOption(options, 'url'));
  const client = loadClientConfig(env);
  await checkServer(server, client.releaseVersion);
  const store = new CredentialsStore(client.configHome);

  const machine = hostname().replace(/[\p{Cc}\p{Cf}]/gu, '').slice(0, 100) || 'unnamed machine';
  const started = await postForm(`${server}${DEVICE_AUTHORIZATION_PATH}`, { client_id: CLI_CLIENT_ID, scope: CLI_SCOPE, machine_name: machine });
  const { device_code: deviceCode, user_code: userCode, verification_uri: entry, verification_uri_complete: link, expires_in: expiresIn, interval } = started.body;
  if (started.status !== 200 || typeof deviceCode !== 'string' || typeof link !== 'string') {
    throw new RemoteError(`the server refused to start a login: ${String(started.body.error_description ?? started.body.error ?? `HTTP ${started.status}`)}`);
  }
  say(`To approve this login, open this page in a browser where you are signed in to ${server}:\n\n  ${link}\n`);
  say(`Check that the page shows the code ${String(userCode)} (or open ${String(entry)} and type it in).`);
  // Only a page of the server the user named is opened for them.
  if (options['no-browser'] !== true && hasBrowser(env) && URL.parse(link)?.origin === new URL(server).origin) {
    await openBrowser(link).catch(() => undefined);
  }
  say('Waiting for the approval… (Ctrl-C stops)');

  const answer = await waitForKey(server, deviceCode, typeof interval === 'number' ? interval : 5, typeof expiresIn === 'number' ? expiresIn : 600);
  await store.put(server, {
    apiKey: answer.access_token as string,
    keyId: String(answer.key_id),
    keyName: String(answer.key_name),
    tenantId: String(answer.tenant_id),
    createdAt: new Date().toISOString(),
  });
  const session = await remoteSession({ url: server }, env);
  const me = await getData<Me>(session, '/api/users/me');
  say(`Logged in to ${server} as ${me.user.email} in ${me.activeTenant.name} (${me.activeTenant.role}).`);
  say(`The new API key "${String(answer.key_name)}" is stored in ${store.path}.`);
}

async function whoami(session: RemoteSession): Promise<void> {
  const me = await getData<Me>(session, '/api/users/me');
  const key = await getData<CurrentKey>(session, '/api/keys/current');
  say(`server: ${session.server} (version ${describeVersion(session.version.version)})`);
  say(`user:   ${me.user.email}`);
  say(`tenant: ${me.activeTenant.name} (${me.activeTenant.id})`);
  say(`role:   ${me.activeTenant.role}`);
  say(`key:    ${key.name} (${key.prefix}…)`);
}

async function logout(session: RemoteSession): Promise<void> {
  const res = await withKey(session.server, session.key.apiKey, `/api/keys/${session.key.keyId}`, { method: 'DELETE' });
  // A key the server no longer accepts is as good as revoked: only the local copy is left to remove.
  if (!res.ok && res.status !== 401 && res.status !== 404) throw new RemoteError(`the server did not revoke the key: ${await errorMessage(res)}`);
  await session.store.remove(session.server);
  const what = res.ok ? 'revoked' : 'was no longer valid on the server';
  say(`Logged out of ${session.server}: the API key "${session.key.keyName}" ${what} and is removed from ${session.store.path}.`);
}

export const loginCommands: Record<string, Command> = {
  login: {
    summary: 'Sign this machine in to a server through the browser (stores a new API key).',
    usage: 'login --url=<APP_URL> [--no-browser]',
    run: (options, env) => login(options, env),
  },
  whoami: {
    summary: 'Show the user, tenant, role and key this machine uses on a server.',
    usage: 'whoami [--url=<APP_URL>]',
    run: async (options, env) => whoami(await remoteSession(options, env)),
  },
  logout: {
    summary: 'Revoke the stored API key on the server and forget it here.',
    usage: 'logout [--url=<APP_URL>]',
    run: async (options, env) => logout(await remoteSession(options, env)),
  },
};

