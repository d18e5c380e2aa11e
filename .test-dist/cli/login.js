import { hostname } from "node:os";
import openBrowser from "open";
import { loadClientConfig } from "../config/index.js";
import { CLI_CLIENT_ID, CLI_SCOPE, DEVICE_AUTHORIZATION_PATH, DEVICE_GRANT_TYPE, TOKEN_PATH } from "../oauth/constants.js";
import { requireOption } from "./args.js";
import { CredentialsStore } from "./credentials.js";
import { getData, remoteSession } from "./remote.js";
import { checkServer, describeVersion, errorMessage, postForm, RemoteError, serverUrl, withKey } from "./server.js";
const say = (line) => process.stdout.write(`${line}
`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const EXPIRED = "the login was not approved in time (a login waits 10 minutes) or is no longer valid: run delivery-analytics login again";
function hasBrowser(env) {
  if (process.platform === "darwin" || process.platform === "win32") return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}
async function waitForKey(server, deviceCode, intervalSeconds, expiresInSeconds) {
  let wait = intervalSeconds;
  const deadline = Date.now() + expiresInSeconds * 1e3;
  for (; ; ) {
    await sleep(wait * 1e3);
    if (Date.now() > deadline) throw new RemoteError(EXPIRED);
    const answer = await postForm(`${server}${TOKEN_PATH}`, { grant_type: DEVICE_GRANT_TYPE, device_code: deviceCode, client_id: CLI_CLIENT_ID });
    if (answer.status === 200 && typeof answer.body.access_token === "string") return answer.body;
    const { error, error_description: description } = answer.body;
    if (error === "authorization_pending") continue;
    if (error === "slow_down") {
      wait += 5;
      continue;
    }
    if (error === "access_denied") throw new RemoteError("the login was denied in the browser; no key was issued");
    if (error === "expired_token") throw new RemoteError(EXPIRED);
    if (error === "invalid_grant") {
      throw new RemoteError(typeof description === "string" && description !== "grant request is invalid" ? `the login failed: ${description}` : EXPIRED);
    }
    throw new RemoteError(`the server refused the login: ${String(description ?? error ?? `HTTP ${answer.status}`)}`);
  }
}
async function login(options, env) {
  const server = serverUrl(requireOption(options, "url"));
  const client = loadClientConfig(env);
  await checkServer(server, client.releaseVersion);
  const store = new CredentialsStore(client.configHome);
  const machine = hostname().replace(/[\p{Cc}\p{Cf}]/gu, "").slice(0, 100) || "unnamed machine";
  const started = await postForm(`${server}${DEVICE_AUTHORIZATION_PATH}`, { client_id: CLI_CLIENT_ID, scope: CLI_SCOPE, machine_name: machine });
  const { device_code: deviceCode, user_code: userCode, verification_uri: entry, verification_uri_complete: link, expires_in: expiresIn, interval } = started.body;
  if (started.status !== 200 || typeof deviceCode !== "string" || typeof link !== "string") {
    throw new RemoteError(`the server refused to start a login: ${String(started.body.error_description ?? started.body.error ?? `HTTP ${started.status}`)}`);
  }
  say(`To approve this login, open this page in a browser where you are signed in to ${server}:

  ${link}
`);
  say(`Check that the page shows the code ${String(userCode)} (or open ${String(entry)} and type it in).`);
  if (options["no-browser"] !== true && hasBrowser(env) && URL.parse(link)?.origin === new URL(server).origin) {
    await openBrowser(link).catch(() => void 0);
  }
  say("Waiting for the approval\u2026 (Ctrl-C stops)");
  const answer = await waitForKey(server, deviceCode, typeof interval === "number" ? interval : 5, typeof expiresIn === "number" ? expiresIn : 600);
  await store.put(server, {
    apiKey: answer.access_token,
    keyId: String(answer.key_id),
    keyName: String(answer.key_name),
    tenantId: String(answer.tenant_id),
    createdAt: (/* @__PURE__ */ new Date()).toISOString()
  });
  const session = await remoteSession({ url: server }, env);
  const me = await getData(session, "/api/users/me");
  say(`Logged in to ${server} as ${me.user.email} in ${me.activeTenant.name} (${me.activeTenant.role}).`);
  say(`The new API key "${String(answer.key_name)}" is stored in ${store.path}.`);
}
async function whoami(session) {
  const me = await getData(session, "/api/users/me");
  const key = await getData(session, "/api/keys/current");
  say(`server: ${session.server} (version ${describeVersion(session.version.version)})`);
  say(`user:   ${me.user.email}`);
  say(`tenant: ${me.activeTenant.name} (${me.activeTenant.id})`);
  say(`role:   ${me.activeTenant.role}`);
  say(`key:    ${key.name} (${key.prefix}\u2026)`);
}
async function logout(session) {
  const res = await withKey(session.server, session.key.apiKey, `/api/keys/${session.key.keyId}`, { method: "DELETE" });
  if (!res.ok && res.status !== 401 && res.status !== 404) throw new RemoteError(`the server did not revoke the key: ${await errorMessage(res)}`);
  await session.store.remove(session.server);
  const what = res.ok ? "revoked" : "was no longer valid on the server";
  say(`Logged out of ${session.server}: the API key "${session.key.keyName}" ${what} and is removed from ${session.store.path}.`);
}
const loginCommands = {
  login: {
    summary: "Sign this machine in to a server through the browser (stores a new API key).",
    usage: "login --url=<APP_URL> [--no-browser]",
    run: (options, env) => login(options, env)
  },
  whoami: {
    summary: "Show the user, tenant, role and key this machine uses on a server.",
    usage: "whoami [--url=<APP_URL>]",
    run: async (options, env) => whoami(await remoteSession(options, env))
  },
  logout: {
    summary: "Revoke the stored API key on the server and forget it here.",
    usage: "logout [--url=<APP_URL>]",
    run: async (options, env) => logout(await remoteSession(options, env))
  }
};
export {
  loginCommands
};
