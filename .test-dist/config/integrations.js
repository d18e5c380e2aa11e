import { endpointOverride, parseHttpUrl, withoutTrailingSlash } from "./reader.js";
const CREDENTIAL_GROUPS = {
  tracker1: ["TRACKER1_CLIENT_ID", "TRACKER1_SECRET", "TRACKER1_REDIRECT_URI"],
  tracker2: ["TRACKER2_CLIENT_ID", "TRACKER2_CLIENT_SECRET"],
  docs: ["DOCS_CLIENT_ID", "DOCS_CLIENT_SECRET"],
  chat: ["CHAT_CLIENT_ID", "CHAT_CLIENT_SECRET"]
};
const GROUP_OVERRIDES = {
  tracker1: ["JIRA_AUTH_BASE_URL", "JIRA_API_BASE_URL"],
  tracker2: ["LINEAR_AUTH_BASE_URL", "LINEAR_API_BASE_URL"]
};
function parseIntegrations(r, production) {
  const integrations = Object.fromEntries(
    Object.entries(CREDENTIAL_GROUPS).map(([label, names]) => [label, r.group(`${label} (${names.join(", ")})`, names, GROUP_OVERRIDES[label])])
  );
  const url = (name, group, fallback) => {
    const parsed = parseHttpUrl(r, name, r.get(name));
    if (!parsed) return fallback;
    if (integrations[group] === null) r.problems.push(`${name} is set but the ${group} group (${CREDENTIAL_GROUPS[group].join(", ")}) is not`);
    if (production && parsed.protocol !== "https:") r.problems.push(`${name} must use https when NODE_ENV is production`);
    return withoutTrailingSlash(parsed);
  };
  return {
    integrations,
    vendorUrls: {
      slackApi: url("SLACK_API_BASE_URL", "chat", "https://slack.com/api"),
      slackAuthorize: url("SLACK_AUTHORIZE_URL", "chat", "https://slack.com/oauth/v2/authorize"),
      notionApi: url("NOTION_API_BASE_URL", "docs", "https://api.notion.com")
    },
    docsWebhookSecret: r.get("DOCS_WEBHOOK_SECRET"),
    chatSigningSecret: r.get("CHAT_SIGNING_SECRET")
  };
}
function parseTrackers(r, appUrl, production, jira, linear) {
  return {
    jira: jira && {
      clientId: jira.TRACKER1_CLIENT_ID,
      clientSecret: jira.TRACKER1_SECRET,
      redirectUri: parseHttpUrl(r, "TRACKER1_REDIRECT_URI", jira.TRACKER1_REDIRECT_URI)?.href ?? "",
      authBaseUrl: endpointOverride(r, "JIRA_AUTH_BASE_URL", production, "https://auth.atlassian.com"),
      apiBaseUrl: endpointOverride(r, "JIRA_API_BASE_URL", production, "https://api.atlassian.com")
    },
    linear: linear && {
      clientId: linear.TRACKER2_CLIENT_ID,
      clientSecret: linear.TRACKER2_CLIENT_SECRET,
      redirectUri: `${appUrl}/api/integrations/linear/callback`,
      authBaseUrl: endpointOverride(r, "LINEAR_AUTH_BASE_URL", production, "https://linear.app"),
      apiBaseUrl: endpointOverride(r, "LINEAR_API_BASE_URL", production, "https://api.linear.app")
    }
  };
}
export {
  CREDENTIAL_GROUPS,
  parseIntegrations,
  parseTrackers
};
