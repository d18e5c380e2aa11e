/**
 * The integrations' OAuth applications: the issue trackers (tracker1 Jira, tracker2 Linear,
 * docs/integrations-trackers.md), the document workspace (docs: Notion) and the chat tool (chat:
 * Slack, docs/integrations-chat-docs.md), with their endpoint overrides and inbound secrets.
 */
import { endpointOverride, parseHttpUrl, withoutTrailingSlash, type Credentials, type Reader } from './reader.js';

/** Pairs and triples of integrations: all present or all absent. */
export const CREDENTIAL_GROUPS = {
  tracker1: ['TRACKER1_CLIENT_ID', 'TRACKER1_SECRET', 'TRACKER1_REDIRECT_URI'],
  tracker2: ['TRACKER2_CLIENT_ID', 'TRACKER2_CLIENT_SECRET'],
  docs: ['DOCS_CLIENT_ID', 'DOCS_CLIENT_SECRET'],
  chat: ['CHAT_CLIENT_ID', 'CHAT_CLIENT_SECRET'],
} as const;
type GroupName = keyof typeof CREDENTIAL_GROUPS;

/** Endpoint overrides that belong to a credential group: set without its credentials, the group is partial. */
const GROUP_OVERRIDES: Partial<Record<GroupName, string[]>> = {
  tracker1: ['JIRA_AUTH_BASE_URL', 'JIRA_API_BASE_URL'],
  tracker2: ['LINEAR_AUTH_BASE_URL', 'LINEAR_API_BASE_URL'],
};

/** An issue tracker's OAuth application and the vendor's endpoints (overridable for tests and proxies). */
export interface TrackerApp {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** Where the owner is sent to consent, and where codes and refresh tokens are exchanged. */
  authBaseUrl: string;
  /** The vendor's API origin (Jira: api.atlassian.com, Linear: api.linear.app). */
  apiBaseUrl: string;
}

export interface IntegrationsConfig {
  integrations: Record<GroupName, Credentials | null>;
  /**
   * Where the chat tool (Slack) and the document workspace (Notion) are reached: their public
   * endpoints unless SLACK_API_BASE_URL, SLACK_AUTHORIZE_URL or NOTION_API_BASE_URL (tests, an
   * egress proxy) say otherwise. docs/integrations-chat-docs.md.
   */
  vendorUrls: { slackApi: string; slackAuthorize: string; notionApi: string };
  docsWebhookSecret: string | null;
  chatSigningSecret: string | null;
}

export type TrackersConfig = { jira: TrackerApp | null; linear: TrackerApp | null };

/**
 * The four credential groups and the chat and docs endpoint overrides. An override belongs to its
 * group: one set without the group's credentials is a boot error, like a partial group.
 */
export function parseIntegrations(r: Reader, production: boolean): IntegrationsConfig {
  const integrations = Object.fromEntries(
    Object.entries(CREDENTIAL_GROUPS).map(([label, names]) => [label, r.group(`${label} (${names.join(', ')})`, names, GROUP_OVERRIDES[label as GroupName])]),
  ) as Record<GroupName, Credentials | null>;
  const url = (name: string, group: 'chat' | 'docs', fallback: string): string => {
    const parsed = parseHttpUrl(r, name, r.get(name));
    if (!parsed) return fallback;
    if (integrations[group] === null) r.problems.push(`${name} is set but the ${group} group (${CREDENTIAL_GROUPS[group].join(', ')}) is not`);
    if (production && parsed.protocol !== 'https:') r.problems.push(`${name} must use https when NODE_ENV is production`);
    return withoutTrailingSlash(parsed);
  };
  return {
    integrations,
    vendorUrls: {
      slackApi: url('SLACK_API_BASE_URL', 'chat', 'https://slack.com/api'),
      slackAuthorize: url('SLACK_AUTHORIZE_URL', 'chat', 'https://slack.com/oauth/v2/authorize'),
      notionApi: url('NOTION_API_BASE_URL', 'docs', 'https://api.notion.com'),
    },
    docsWebhookSecret: r.get('DOCS_WEBHOOK_SECRET'),
    chatSigningSecret: r.get('CHAT_SIGNING_SECRET'),
  };
}

/**
 * Jira Cloud (tracker1) and Linear (tracker2) from their credential groups. Linear's group has no
 * redirect variable: its callback is APP_URL/api/integrations/linear/callback. Production refuses
 * a plain-http override.
 */
export function parseTrackers(r: Reader, appUrl: string, production: boolean, jira: Credentials | null, linear: Credentials | null): TrackersConfig {
  return {
    jira: jira && {
      clientId: jira.TRACKER1_CLIENT_ID as string,
      clientSecret: jira.TRACKER1_SECRET as string,
      redirectUri: parseHttpUrl(r, 'TRACKER1_REDIRECT_URI', jira.TRACKER1_REDIRECT_URI as string)?.href ?? '',
      authBaseUrl: endpointOverride(r, 'JIRA_AUTH_BASE_URL', production, 'https://auth.atlassian.com'),
      apiBaseUrl: endpointOverride(r, 'JIRA_API_BASE_URL', production, 'https://api.atlassian.com'),
    },
    linear: linear && {
      clientId: linear.TRACKER2_CLIENT_ID as string,
      clientSecret: linear.TRACKER2_CLIENT_SECRET as string,
      redirectUri: `${appUrl}/api/integrations/linear/callback`,
      authBaseUrl: endpointOverride(r, 'LINEAR_AUTH_BASE_URL', production, 'https://linear.app'),
      apiBaseUrl: endpointOverride(r, 'LINEAR_API_BASE_URL', production, 'https://api.linear.app'),
    },
  };
}
