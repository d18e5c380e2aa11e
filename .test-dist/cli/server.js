import semver from "semver";
import { PRODUCT } from "../version.js";
import { UsageError } from "./args.js";
const LOOPBACK = /* @__PURE__ */ new Set(["127.0.0.1", "[::1]", "localhost"]);
class RemoteError extends Error {
}
function serverUrl(raw) {
  const url = URL.parse(raw);
  if (!url || url.protocol !== "https:" && url.protocol !== "http:") throw new UsageError("--url must be the server address, https://\u2026");
  if (url.protocol === "http:" && !LOOPBACK.has(url.hostname)) {
    throw new UsageError("--url must use https (plain http is only accepted for this machine: localhost, 127.0.0.1, [::1])");
  }
  if (url.username || url.password) throw new UsageError("--url must not contain a user name or password");
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}
function knownVersion(version) {
  if (typeof version !== "string" || version === "dev") return null;
  return semver.valid(semver.clean(version) ?? "") ?? null;
}
const describeVersion = (version) => knownVersion(version) ?? "unknown";
async function call(url, init = {}) {
  try {
    return await fetch(url, { ...init, redirect: "error", signal: AbortSignal.timeout(3e4) });
  } catch (error) {
    const cause = error.cause?.code ?? error.message;
    throw new RemoteError(`cannot reach ${new URL(url).origin}: ${cause}`);
  }
}
async function checkServer(server, ownVersion) {
  const res = await call(`${server}/api/version`);
  const body = await res.json().catch(() => null);
  if (!res.ok || !body || body.product !== PRODUCT) throw new RemoteError(`${server} is not a ${PRODUCT} server (GET /api/version answered ${res.status})`);
  const version = knownVersion(body.version);
  const minimum = knownVersion(body.minimumClientVersion);
  const own = knownVersion(ownVersion);
  if (own && minimum && semver.lt(own, minimum)) {
    throw new RemoteError(
      `this ${PRODUCT} CLI is version ${own}, but the server at ${server} (version ${describeVersion(version)}) needs version ${minimum} or later: install a newer ${PRODUCT} and try again`
    );
  }
  return { version, minimumClientVersion: minimum };
}
async function withKey(server, apiKey, path, init = {}) {
  return call(`${server}${path}`, { ...init, headers: { ...init.headers, authorization: `Bearer ${apiKey}` } });
}
async function errorMessage(res) {
  const body = await res.json().catch(() => null);
  const message = body?.error?.message ?? `HTTP ${res.status}`;
  const details = body?.error?.details?.map((d) => `${d.path}: ${d.message}`).join("; ");
  return details ? `${message} (${details})` : message;
}
async function postForm(url, fields) {
  const res = await call(url, { method: "POST", body: new URLSearchParams(fields), headers: { accept: "application/json" } });
  const body = await res.json().catch(() => ({}));
  return { status: res.status, body };
}
export {
  RemoteError,
  checkServer,
  describeVersion,
  errorMessage,
  knownVersion,
  postForm,
  serverUrl,
  withKey
};
