const TRACKER_KINDS = ["jira", "linear"];
class TrackerRateLimited extends Error {
  constructor(retryAfterSeconds2) {
    super(`rate limited by the tracker (retry after ${retryAfterSeconds2} s)`);
    this.retryAfterSeconds = retryAfterSeconds2;
    this.name = "TrackerRateLimited";
  }
  retryAfterSeconds;
}
class TrackerGrantRefused extends Error {
  constructor(message = "the tracker refused the grant") {
    super(message);
    this.name = "TrackerGrantRefused";
  }
}
class TrackerUnavailable extends Error {
  constructor(message) {
    super(message);
    this.name = "TrackerUnavailable";
  }
}
function retryAfterSeconds(header, fallback = 30) {
  if (!header) return fallback;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? fallback : Math.max(0, Math.ceil((at - Date.now()) / 1e3));
}
function grantOf(body, now = Date.now()) {
  if (typeof body.access_token !== "string" || body.access_token === "") throw new TrackerUnavailable("the token endpoint answered without an access token");
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === "string" ? body.refresh_token : null,
    expiresAt: typeof body.expires_in === "number" ? new Date(now + body.expires_in * 1e3) : null,
    scopes: typeof body.scope === "string" ? body.scope : null
  };
}
async function postToken(url, body, form) {
  let res;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: { "content-type": form ? "application/x-www-form-urlencoded" : "application/json", accept: "application/json" },
      body: form ? new URLSearchParams(body).toString() : JSON.stringify(body),
      signal: AbortSignal.timeout(15e3)
    });
  } catch {
    throw new TrackerUnavailable("the token endpoint could not be reached");
  }
  if (res.status === 429) throw new TrackerRateLimited(retryAfterSeconds(res.headers.get("retry-after")));
  if (res.status === 400 || res.status === 401 || res.status === 403) throw new TrackerGrantRefused(`the token endpoint refused the grant (HTTP ${res.status})`);
  if (!res.ok) throw new TrackerUnavailable(`the token endpoint answered HTTP ${res.status}`);
  return grantOf(await res.json());
}
export {
  TRACKER_KINDS,
  TrackerGrantRefused,
  TrackerRateLimited,
  TrackerUnavailable,
  grantOf,
  postToken,
  retryAfterSeconds
};
