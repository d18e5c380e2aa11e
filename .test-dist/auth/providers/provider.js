import * as oidc from "openid-client";
const PROVIDER_IDS = ["github", "gitlab", "google", "microsoft"];
function execute(url) {
  return new URL(url).protocol === "http:" ? [oidc.allowInsecureRequests] : [];
}
const PROVIDER_TIMEOUT_SECONDS = 10;
const lower = (value) => typeof value === "string" && value !== "" ? value.toLowerCase() : null;
export {
  PROVIDER_IDS,
  PROVIDER_TIMEOUT_SECONDS,
  execute,
  lower
};
