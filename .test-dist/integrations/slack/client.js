import { WebClient, LogLevel } from "@slack/web-api";
const quiet = {
  debug: () => {
  },
  info: () => {
  },
  warn: () => {
  },
  error: () => {
  },
  setLevel: () => {
  },
  getLevel: () => LogLevel.ERROR,
  setName: () => {
  }
};
function slackClient(config, token) {
  return new WebClient(token, { slackApiUrl: `${config.vendorUrls.slackApi}/`, logger: quiet, retryConfig: { retries: 0 }, timeout: 1e4 });
}
function grantRefused(error) {
  const code = error.data?.error;
  return code === "invalid_auth" || code === "token_revoked" || code === "account_inactive" || code === "not_authed";
}
function slackErrorCode(error) {
  return error.data?.error ?? error.code ?? "request failed";
}
export {
  grantRefused,
  slackClient,
  slackErrorCode
};
