/**
 * The environment, parsed once at startup into one frozen, typed object. Nothing else in the
 * program reads `process.env`. Every problem is collected (never the value, only the variable's
 * name) so a failed start lists all of them at once.
 */
import { isIP } from 'node:net';

export type Env = Record<string, string | undefined>;

export type ObjectStoreConfig =
  | {
      kind: 's3';
      bucket: string;
      endpoint: string;
      accessKeyId: string;
      secretAccessKey: string;
      region: string;
      addressing: 'path' | 'virtual-host';
      /** Whether S3_ADDRESSING was derived from the endpoint rather than set. */
      addressingDerived: boolean;
    }
  | { kind: 'local'; dir: string }
  | { kind: 'none' };

/** One network of TRUSTED_PROXIES. */
export interface Cidr {
  address: string;
  prefix: number;
  family: 4 | 6;
}

type Credentials = Readonly<Record<string, string>>;

/** One sign-in provider's application: the credentials, where the provider sends people back, and whether an endpoint override is set. */
export interface SignInApp {
  clientId: string;
  clientSecret: string;
  /** The provider's redirect URI for this server: the group's REDIRECT_URI, else APP_URL/auth/<provider>/callback. */
  redirectUri: string;
  /** An issuer or base-URL override is set (tests, self-managed installations). */
  overridden: boolean;
}

/** The four sign-in providers (docs/auth.md "Sign-in providers"). */
export interface SignInConfig {
  email: boolean;
  /** First code host: GitHub (CODEHOST_BASE_URL for the web, CODEHOST_API_URL for its REST API). */
  codehost: (SignInApp & { baseUrl: string; apiUrl: string }) | null;
  /** First identity provider: Google (IDP1_ISSUER). */
  idp1: (SignInApp & { issuer: string }) | null;
  /** Second code host: GitLab, gitlab.com unless CODEHOST2_BASE_URL names a self-managed one. */
  codehost2: (SignInApp & { issuer: string }) | null;
  /** Second identity provider: Microsoft Entra ID, `organizations` unless IDP2_TENANT narrows it (IDP2_ISSUER replaces the authority). */
  idp2: (SignInApp & { issuer: string; tenant: string }) | null;
}

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

export interface Config {
  nodeEnv: string;
  production: boolean;
  appUrl: string;
  port: number;
  host: string;
  /** TRUSTED_PROXIES: peers whose X-Forwarded-* headers count (src/http/clientAddress.ts). */
  trustedProxies: Cidr[];
  releaseVersion: string;
  logLevel: string;
  database: { url: string; directUrl: string | null };
  /** BI access (docs/bi.md): where BI roles read, and the address BI tools are given. */
  bi: BiConfig;
  oauthEncryptionKey: Buffer;
  objectStore: ObjectStoreConfig;
  codehostApp: { appId: string; privateKey: string; webhookSecret: string | null; name: string | null } | null;
  signIn: SignInConfig;
  integrations: {
    tracker1: Credentials | null;
    tracker2: Credentials | null;
    docs: Credentials | null;
    chat: Credentials | null;
  };
  /** The issue trackers of the tracker1/tracker2 groups (docs/integrations-trackers.md); null when the group is absent. */
  trackers: { jira: TrackerApp | null; linear: TrackerApp | null };
  /**
   * Where the chat tool (Slack) and the document workspace (Notion) are reached: their public
   * endpoints unless SLACK_API_BASE_URL, SLACK_AUTHORIZE_URL or NOTION_API_BASE_URL (tests, an
   * egress proxy) say otherwise. docs/integrations-chat-docs.md.
   */
  vendorUrls: { slackApi: string; slackAuthorize: string; notionApi: string };
  /** Paddle Billing (docs/billing.md); null while BILLING_ENABLED is off, and then nothing of billing exists. */
  billing: BillingConfig | null;
  /** LLM observability (Langfuse over OpenTelemetry, docs/ai.md); `recordContent` (LLMOBS_RECORD_CONTENT) lets prompts and answers go along. */
  llmObservability: { publicKey: string; secretKey: string; baseUrl: string | null; recordContent: boolean } | null;
  mailerApiKey: string | null;
  /** Origin of the Postmark-compatible mail API (MAILER_API_URL; an addition to the spec, for tests and relays). */
  mailerApiUrl: string;
  /** Sender of sign-in e-mails (MAILER_FROM; an addition: Postmark sends only from a confirmed sender). */
  mailerFrom: string;
  docsWebhookSecret: string | null;
  chatSigningSecret: string | null;
  codehostPublicToken: string | null;
  /** The code host's GraphQL endpoint for the benchmark corpus (CODEHOST_PUBLIC_GRAPHQL_URL; an addition, for tests and GitHub Enterprise). docs/benchmarks.md. */
  codehostPublicGraphqlUrl: string;
  adminSecret: string | null;
  /** The AI features (docs/ai.md): providers A–C are openai, anthropic, google; D (compatible) serves the notebook only. */
  ai: {
    provider: AiProvider | null;
    /** AI_MODELS, in the order they are tried; an entry without a `provider:` prefix is AI_PROVIDER's. */
    models: AiModelRef[];
    keys: { llmA: string | null; llmB: string | null; llmC: string | null; llmD: string | null };
    /** LLM_A_BASE_URL … LLM_D_BASE_URL: gateways, self-hosted model servers, tests. */
    baseUrls: { llmA: string | null; llmB: string | null; llmC: string | null; llmD: string | null };
    promptLogging: boolean;
    /** AI_TIMEOUT_SECONDS: one model call longer than this counts as failed and the next model is tried. */
    timeoutMs: number;
  };
  live: {
    /** Open `/api/live` sockets one tenant may hold on one instance. */
    maxConnectionsPerTenant: number;
  };
  cube: {
    /** CUBE_QUERY_TIMEOUT_SECONDS: statement timeout of every semantic-layer statement. */
    queryTimeoutSeconds: number;
    /** CUBE_CONTINUE_WAIT_SECONDS: a `/cubejs-api/v1/load` still running after this answers Cube's "Continue wait". */
    continueWaitSeconds: number;
  };
  jobs: {
    workerEnabled: boolean;
    pollIntervalMs: number;
    queueConcurrency: number;
    workflowConcurrency: number;
    retentionDays: number;
    shutdownGraceMs: number;
  };
  /**
   * TEST_HOOKS: test-only job kinds, a per-second schedule and the `/api/test/*` routes
   * (src/jobs/testHooks.ts). Refused unless NODE_ENV is test, so production can never enable them.
   */
  testHooks: boolean;
}

/** The four plans, by seat band (src/billing/plans.ts). */
export const BILLING_PLANS = ['individual', 'small_team', 'large_team', 'enterprise'] as const;
export type BillingPlan = (typeof BILLING_PLANS)[number];

export interface BillingConfig {
  apiKey: string;
  webhookSecret: string;
  /** Paddle.js's client-side token; sandbox tokens begin `test_`. */
  clientToken: string;
  priceIds: Record<BillingPlan, string>;
  /** BILLING_API_URL: Paddle's API origin (default https://api.paddle.com; the sandbox, or a fake in tests). */
  apiUrl: string;
}

export const AI_PROVIDERS = ['openai', 'anthropic', 'google', 'compatible'] as const;
export type AiProvider = (typeof AI_PROVIDERS)[number];
export interface AiModelRef {
  provider: AiProvider;
  model: string;
}
/** Which LLM_<X> group holds each provider's key and base URL. */
export const AI_PROVIDER_GROUP = { openai: 'llmA', anthropic: 'llmB', google: 'llmC', compatible: 'llmD' } as const;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.join('\n')}`);
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Pairs and triples of integrations: all present or all absent. */
const CREDENTIAL_GROUPS = {
  tracker1: ['TRACKER1_CLIENT_ID', 'TRACKER1_SECRET', 'TRACKER1_REDIRECT_URI'],
  tracker2: ['TRACKER2_CLIENT_ID', 'TRACKER2_CLIENT_SECRET'],
  docs: ['DOCS_CLIENT_ID', 'DOCS_CLIENT_SECRET'],
  chat: ['CHAT_CLIENT_ID', 'CHAT_CLIENT_SECRET'],
} as const;

/** Endpoint overrides that belong to a credential group: set without its credentials, the group is partial. */
const GROUP_OVERRIDES: Partial<Record<keyof typeof CREDENTIAL_GROUPS, string[]>> = {
  tracker1: ['JIRA_AUTH_BASE_URL', 'JIRA_API_BASE_URL'],
  tracker2: ['LINEAR_AUTH_BASE_URL', 'LINEAR_API_BASE_URL'],
};

const BILLING_VARIABLES = [
  'BILLING_API_KEY',
  'BILLING_WEBHOOK_SECRET',
  'BILLING_CLIENT_TOKEN',
  'BILLING_INDIVIDUAL_PRICE_ID',
  'BILLING_SMALL_TEAM_PRICE_ID',
  'BILLING_LARGE_TEAM_PRICE_ID',
  'BILLING_ENTERPRISE_PRICE_ID',
];

export interface BiConfig {
  /** DATABASE_URL_BI: a read replica where BI sessions run (roles are created on DATABASE_URL and replicate). */
  databaseUrl: string | null;
  /** BI_PORT: the load balancer's TLS entry point for PostgreSQL; when set, BI tools are given it. */
  publicPort: number | null;
  /** BI_HOST: the host name BI tools connect to with BI_PORT (default: APP_URL's host). */
  publicHost: string | null;
  /** BI_DATABASE: the database BI tools connect to, holding only the `bi` foreign tables (default: `<main database>_bi`). */
  database: string | null;
}

class Reader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  /** A set variable's trimmed value; blank counts as unset. */
  get(name: string): string | null {
    const value = this.env[name];
    if (value === undefined) return null;
    const trimmed = value.trim();
    return trimmed === '' ? null : trimmed;
  }

  required(name: string): string | null {
    const value = this.get(name);
    if (value === null) this.problems.push(`${name} is required`);
    return value;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.get(name);
    if (raw === null) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      this.problems.push(`${name} must be a whole number from ${min} to ${max}`);
      return fallback;
    }
    return Number(raw);
  }

  boolean(name: string, fallback: boolean): boolean {
    const raw = this.get(name);
    if (raw === null) return fallback;
    const lower = raw.toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(lower)) return true;
    if (['false', '0', 'no', 'off'].includes(lower)) return false;
    this.problems.push(`${name} must be true or false`);
    return fallback;
  }

  /** All-or-nothing group: returns the values when complete, null when absent, null + problem when partial. */
  group(label: string, names: readonly string[], optional: readonly string[] = []): Record<string, string> | null {
    const present = [...names, ...optional].filter((n) => this.get(n) !== null);
    if (present.length === 0) return null;
    const missing = names.filter((n) => this.get(n) === null);
    if (missing.length > 0) {
      this.problems.push(`${label} is partially configured: missing ${missing.join(', ')} (set: ${present.join(', ')})`);
      return null;
    }
    return Object.fromEntries(names.map((n) => [n, this.get(n) as string]));
  }

  /** A group switched on by a flag: every variable is required once the flag is on. */
  enabledGroup(label: string, names: readonly string[]): Record<string, string> | null {
    const missing = names.filter((n) => this.get(n) === null);
    if (missing.length > 0) {
      this.problems.push(`${label} is partially configured: missing ${missing.join(', ')}`);
      return null;
    }
    return Object.fromEntries(names.map((n) => [n, this.get(n) as string]));
  }
}

/**
 * Accepted encodings of OAUTH_ENCRYPTION_KEY, tried in this order: 64 hexadecimal characters;
 * base64 or base64url that decodes to exactly 32 bytes; a plain string of exactly 32 bytes.
 */
export function decodeEncryptionKey(raw: string): Buffer | null {
  if (/^[0-9a-fA-F]{64}$/.test(raw)) return Buffer.from(raw, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(raw)) {
    const decoded = Buffer.from(raw.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (decoded.length === 32) return decoded;
  }
  const plain = Buffer.from(raw, 'utf8');
  return plain.length === 32 ? plain : null;
}

/**
 * S3_ADDRESSING when unset: virtual-host for AWS endpoints (host ending in amazonaws.com), path
 * for everything else (MinIO, s3rver, IP addresses, localhost, other S3-compatible stores), since
 * self-hosted stores rarely have wildcard DNS for bucket subdomains.
 */
export function deriveAddressing(endpoint: string): 'path' | 'virtual-host' {
  const host = new URL(endpoint).hostname;
  if (isIP(host) || host === 'localhost') return 'path';
  return /(^|\.)amazonaws\.com$/.test(host) ? 'virtual-host' : 'path';
}

function parseHttpUrl(r: Reader, name: string, value: string | null): URL | null {
  if (value === null) return null;
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {
    /* reported below */
  }
  r.problems.push(`${name} must be an http(s) URL`);
  return null;
}

/**
 * The sign-in providers' groups. The optional overrides belong to their group: set without the
 * credentials they make it partial (a boot error), like any other member. Production refuses a
 * plain-http override (tokens and codes would cross the network in clear).
 */
function parseSignIn(r: Reader, appUrl: string, production: boolean, email: boolean): SignInConfig {
  const url = (name: string, fallback: string): string => {
    const parsed = parseHttpUrl(r, name, r.get(name));
    if (parsed && production && parsed.protocol !== 'https:') r.problems.push(`${name} must use https when NODE_ENV is production`);
    return parsed ? parsed.origin + parsed.pathname.replace(/\/+$/, '') : fallback;
  };
  const callback = (provider: string) => `${appUrl}/auth/${provider}/callback`;
  // The group's first two names are its client id and secret.
  const app = (g: Record<string, string>, redirectUri: string, overrides: string[]): SignInApp => {
    const [clientId, clientSecret] = Object.values(g) as [string, string];
    return { clientId, clientSecret, redirectUri, overridden: overrides.some((n) => r.get(n) !== null) };
  };

  const github = r.group('codehost (CODEHOST_CLIENT_ID, CODEHOST_CLIENT_SECRET)', ['CODEHOST_CLIENT_ID', 'CODEHOST_CLIENT_SECRET'], ['CODEHOST_BASE_URL', 'CODEHOST_API_URL']);
  const google = r.group('idp1 (IDP1_CLIENT_ID, IDP1_CLIENT_SECRET, IDP1_REDIRECT_URI)', ['IDP1_CLIENT_ID', 'IDP1_CLIENT_SECRET', 'IDP1_REDIRECT_URI'], ['IDP1_ISSUER']);
  const gitlab = r.group('codehost2 (CODEHOST2_CLIENT_ID, CODEHOST2_CLIENT_SECRET, CODEHOST2_REDIRECT_URI)', ['CODEHOST2_CLIENT_ID', 'CODEHOST2_CLIENT_SECRET', 'CODEHOST2_REDIRECT_URI'], ['CODEHOST2_BASE_URL']);
  const microsoft = r.group('idp2 (IDP2_CLIENT_ID, IDP2_CLIENT_SECRET)', ['IDP2_CLIENT_ID', 'IDP2_CLIENT_SECRET'], ['IDP2_TENANT', 'IDP2_ISSUER']);

  const tenant = r.get('IDP2_TENANT') ?? 'organizations';
  // A directory GUID, a verified domain, or one of Entra's multi-tenant names: never a path.
  if (!/^[A-Za-z0-9][A-Za-z0-9.-]{0,99}$/.test(tenant)) r.problems.push('IDP2_TENANT must be a tenant id, a domain, organizations, common or consumers');
  const redirect = (name: string, g: Record<string, string> | null) => (g ? (parseHttpUrl(r, name, g[name] as string)?.href ?? '') : '');

  const githubBase = url('CODEHOST_BASE_URL', 'https://github.com');
  return {
    email,
    codehost: github && {
      ...app(github, callback('github'), ['CODEHOST_BASE_URL', 'CODEHOST_API_URL']),
      baseUrl: githubBase,
      // GitHub Enterprise Server serves its API under /api/v3 of the same host.
      apiUrl: url('CODEHOST_API_URL', githubBase === 'https://github.com' ? 'https://api.github.com' : `${githubBase}/api/v3`),
    },
    idp1: google && { ...app(google, redirect('IDP1_REDIRECT_URI', google), ['IDP1_ISSUER']), issuer: url('IDP1_ISSUER', 'https://accounts.google.com') },
    codehost2: gitlab && { ...app(gitlab, redirect('CODEHOST2_REDIRECT_URI', gitlab), ['CODEHOST2_BASE_URL']), issuer: url('CODEHOST2_BASE_URL', 'https://gitlab.com') },
    idp2: microsoft && {
      ...app(microsoft, callback('microsoft'), ['IDP2_ISSUER']),
      tenant,
      issuer: url('IDP2_ISSUER', `https://login.microsoftonline.com/${tenant}/v2.0`),
    },
  };
}

/**
 * Jira Cloud (tracker1) and Linear (tracker2). Linear's group has no redirect variable: its
 * callback is APP_URL/api/integrations/linear/callback. Production refuses a plain-http override.
 */
function parseTrackers(r: Reader, appUrl: string, production: boolean, jira: Credentials | null, linear: Credentials | null): Config['trackers'] {
  const url = (name: string, fallback: string): string => {
    const parsed = parseHttpUrl(r, name, r.get(name));
    if (parsed && production && parsed.protocol !== 'https:') r.problems.push(`${name} must use https when NODE_ENV is production`);
    return parsed ? parsed.origin + parsed.pathname.replace(/\/+$/, '') : fallback;
  };
  return {
    jira: jira && {
      clientId: jira.TRACKER1_CLIENT_ID as string,
      clientSecret: jira.TRACKER1_SECRET as string,
      redirectUri: parseHttpUrl(r, 'TRACKER1_REDIRECT_URI', jira.TRACKER1_REDIRECT_URI as string)?.href ?? '',
      authBaseUrl: url('JIRA_AUTH_BASE_URL', 'https://auth.atlassian.com'),
      apiBaseUrl: url('JIRA_API_BASE_URL', 'https://api.atlassian.com'),
    },
    linear: linear && {
      clientId: linear.TRACKER2_CLIENT_ID as string,
      clientSecret: linear.TRACKER2_CLIENT_SECRET as string,
      redirectUri: `${appUrl}/api/integrations/linear/callback`,
      authBaseUrl: url('LINEAR_AUTH_BASE_URL', 'https://linear.app'),
      apiBaseUrl: url('LINEAR_API_BASE_URL', 'https://api.linear.app'),
    },
  };
}

/**
 * The optional endpoint overrides of the chat and document-workspace groups. They belong to their
 * group: one set without the group's credentials is a boot error, like a partial group.
 */
function parseVendorUrls(r: Reader, groups: { chat: Credentials | null; docs: Credentials | null }, production: boolean): Config['vendorUrls'] {
  const url = (name: string, group: keyof typeof groups, fallback: string): string => {
    const parsed = parseHttpUrl(r, name, r.get(name));
    if (!parsed) return fallback;
    if (groups[group] === null) r.problems.push(`${name} is set but the ${group} group (${CREDENTIAL_GROUPS[group].join(', ')}) is not`);
    if (production && parsed.protocol !== 'https:') r.problems.push(`${name} must use https when NODE_ENV is production`);
    return parsed.origin + parsed.pathname.replace(/\/+$/, '');
  };
  return {
    slackApi: url('SLACK_API_BASE_URL', 'chat', 'https://slack.com/api'),
    slackAuthorize: url('SLACK_AUTHORIZE_URL', 'chat', 'https://slack.com/oauth/v2/authorize'),
    notionApi: url('NOTION_API_BASE_URL', 'docs', 'https://api.notion.com'),
  };
}

function checkDatabaseUrl(r: Reader, name: string, value: string | null): void {
  if (value === null) return;
  let ok = false;
  try {
    const url = new URL(value);
    ok =
      (url.protocol === 'postgresql:' || url.protocol === 'postgres:') &&
      url.hostname !== '' &&
      url.username !== '' &&
      url.pathname.length > 1;
  } catch {
    ok = false;
  }
  if (!ok) r.problems.push(`${name} must have the shape postgresql://<user>:<password>@<host>:<port>/<database>`);
}

/**
 * TRUSTED_PROXIES: comma-separated addresses or CIDR networks (`10.0.0.0/8`, `::1`); a bare
 * address is a network of one. Unset: no proxy is trusted.
 */
function parseCidrs(r: Reader, name: string): Cidr[] {
  const raw = r.get(name);
  if (raw === null) return [];
  const cidrs: Cidr[] = [];
  for (const entry of raw.split(',').map((e) => e.trim()).filter(Boolean)) {
    const [address = '', prefixRaw, extra] = entry.split('/');
    const family = isIP(address);
    const max = family === 6 ? 128 : 32;
    const prefix = prefixRaw === undefined ? max : /^\d{1,3}$/.test(prefixRaw) ? Number(prefixRaw) : -1;
    if (family === 0 || extra !== undefined || prefix < 0 || prefix > max) {
      r.problems.push(`${name} must be a comma-separated list of IP addresses or CIDR networks (e.g. 172.30.0.0/16,::1)`);
      return [];
    }
    cidrs.push({ address, prefix, family: family as 4 | 6 });
  }
  return cidrs;
}

function parseObjectStore(r: Reader, production: boolean): ObjectStoreConfig {
  const s3 = r.group('object store group (S3_BUCKET)', ['S3_BUCKET', 'S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'], ['S3_REGION', 'S3_ADDRESSING']);
  const localDir = r.get('LOCAL_OBJECT_STORE_DIR');
  if (localDir !== null && production) {
    r.problems.push('LOCAL_OBJECT_STORE_DIR is refused when NODE_ENV is production (configure the S3_* group)');
  }
  const addressingRaw = r.get('S3_ADDRESSING');
  if (addressingRaw !== null && addressingRaw !== 'path' && addressingRaw !== 'virtual-host') {
    r.problems.push('S3_ADDRESSING must be path or virtual-host');
  }
  if (s3 === null) {
    if (localDir !== null && !production) return { kind: 'local', dir: localDir };
    return { kind: 'none' };
  }
  const endpoint = parseHttpUrl(r, 'S3_ENDPOINT', s3.S3_ENDPOINT as string);
  if (endpoint === null) return { kind: 'none' };
  const explicit = addressingRaw === 'path' || addressingRaw === 'virtual-host' ? addressingRaw : null;
  return {
    kind: 's3',
    bucket: s3.S3_BUCKET as string,
    endpoint: endpoint.origin,
    accessKeyId: s3.S3_ACCESS_KEY_ID as string,
    secretAccessKey: s3.S3_SECRET_ACCESS_KEY as string,
    region: r.get('S3_REGION') ?? 'auto',
    addressing: explicit ?? deriveAddressing(endpoint.origin),
    addressingDerived: explicit === null,
  };
}

/**
 * The AI group. Each LLM_<X> key with its optional base URL is one group (a base URL without its
 * key is partial). AI_MODELS entries are `provider:model` or, with AI_PROVIDER set, a bare model
 * name; every provider an entry names must have its key, so a typo stops the boot instead of
 * switching a feature off in silence.
 */
function parseAi(r: Reader, production: boolean, promptLogging: boolean): Config['ai'] {
  const letters = { llmA: 'A', llmB: 'B', llmC: 'C', llmD: 'D' } as const;
  const keys = { llmA: null, llmB: null, llmC: null, llmD: null } as Config['ai']['keys'];
  const baseUrls = { llmA: null, llmB: null, llmC: null, llmD: null } as Config['ai']['baseUrls'];
  for (const [group, letter] of Object.entries(letters) as [keyof typeof letters, string][]) {
    const found = r.group(`LLM_${letter} group (LLM_${letter}_API_KEY)`, [`LLM_${letter}_API_KEY`], [`LLM_${letter}_BASE_URL`]);
    const url = parseHttpUrl(r, `LLM_${letter}_BASE_URL`, r.get(`LLM_${letter}_BASE_URL`));
    if (url && production && url.protocol !== 'https:' && !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
      r.problems.push(`LLM_${letter}_BASE_URL must use https when NODE_ENV is production (a model server on loopback may use http)`);
    }
    keys[group] = found ? (found[`LLM_${letter}_API_KEY`] as string) : null;
    baseUrls[group] = found && url ? url.href.replace(/\/+$/, '') : null;
  }
  const providerRaw = r.get('AI_PROVIDER');
  const isProvider = (name: string): name is AiProvider => (AI_PROVIDERS as readonly string[]).includes(name);
  let provider: AiProvider | null = null;
  if (providerRaw !== null) {
    if (isProvider(providerRaw)) provider = providerRaw;
    else r.problems.push(`AI_PROVIDER must be one of ${AI_PROVIDERS.join(', ')}`);
  }
  const models: AiModelRef[] = [];
  for (const entry of (r.get('AI_MODELS') ?? '').split(',').map((m) => m.trim()).filter(Boolean)) {
    // A model name may itself hold a colon (llama3:8b): only a known provider counts as a prefix.
    const colon = entry.indexOf(':');
    const prefix = colon > 0 ? entry.slice(0, colon) : '';
    const ref = isProvider(prefix) ? { provider: prefix, model: entry.slice(colon + 1) } : provider ? { provider, model: entry } : null;
    if (!ref || ref.model === '') {
      r.problems.push(`AI_MODELS entry ${entry} names no provider: write ${AI_PROVIDERS.join(':, ')}: before it, or set AI_PROVIDER`);
      continue;
    }
    const group = AI_PROVIDER_GROUP[ref.provider];
    if (providerRaw !== null && provider === null) continue;
    if (keys[group] === null) r.problems.push(`AI_MODELS names ${ref.provider} (${entry}) but LLM_${letters[group]}_API_KEY is not set`);
    models.push(ref);
  }
  if (provider !== null && models.length === 0) r.problems.push('AI_PROVIDER is set but AI_MODELS names no model');
  return { provider, models, keys, baseUrls, promptLogging, timeoutMs: r.integer('AI_TIMEOUT_SECONDS', 60, 1, 3600) * 1000 };
}

/** Parses the environment; throws ConfigError listing every problem. */
export function loadConfig(env: Env): Readonly<Config> {
  const r = new Reader(env);
  const nodeEnv = r.get('NODE_ENV') ?? 'development';
  const production = nodeEnv === 'production';

  const appUrlRaw = r.required('APP_URL');
  const appUrl = parseHttpUrl(r, 'APP_URL', appUrlRaw);
  if (appUrl && production && appUrl.protocol !== 'https:') {
    r.problems.push('APP_URL must use https when NODE_ENV is production');
  }

  const keyRaw = r.required('OAUTH_ENCRYPTION_KEY');
  const key = keyRaw === null ? null : decodeEncryptionKey(keyRaw);
  if (keyRaw !== null && key === null) {
    r.problems.push('OAUTH_ENCRYPTION_KEY must be exactly 32 bytes (64 hex characters, base64 of 32 bytes, or a 32-byte string)');
  }

  const databaseUrl = r.required('DATABASE_URL');
  checkDatabaseUrl(r, 'DATABASE_URL', databaseUrl);
  const directUrl = r.get('DATABASE_URL_DIRECT');
  checkDatabaseUrl(r, 'DATABASE_URL_DIRECT', directUrl);

  const bi = parseBi(r, appUrl);

  const logLevel = r.get('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) r.problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const objectStore = parseObjectStore(r, production);

  const app = r.group('code-host application group (CODEHOST_APP_ID)', ['CODEHOST_APP_ID', 'CODEHOST_APP_PRIVATE_KEY'], ['CODEHOST_APP_WEBHOOK_SECRET', 'CODEHOST_APP_NAME']);
  const codehostApp: Config['codehostApp'] = app && {
    appId: app.CODEHOST_APP_ID as string,
    privateKey: app.CODEHOST_APP_PRIVATE_KEY as string,
    webhookSecret: r.get('CODEHOST_APP_WEBHOOK_SECRET'),
    name: r.get('CODEHOST_APP_NAME'),
  };

  const groups = Object.fromEntries(
    Object.entries(CREDENTIAL_GROUPS).map(([label, names]) => [label, r.group(`${label} (${names.join(', ')})`, names, GROUP_OVERRIDES[label as keyof typeof CREDENTIAL_GROUPS])]),
  ) as Record<keyof typeof CREDENTIAL_GROUPS, Credentials | null>;

  const vendorUrls = parseVendorUrls(r, groups, production);

  const billing = parseBilling(r, production);

  let llmObservability: Config['llmObservability'] = null;
  if (r.boolean('LLMOBS_ENABLED', false)) {
    const keys = r.enabledGroup('LLM observability group (LLMOBS_ENABLED)', ['LLMOBS_PUBLIC_KEY', 'LLMOBS_SECRET_KEY']);
    const baseUrl = parseHttpUrl(r, 'LLMOBS_BASE_URL', r.get('LLMOBS_BASE_URL'));
    const recordContent = r.boolean('LLMOBS_RECORD_CONTENT', false);
    if (keys) {
      llmObservability = { publicKey: keys.LLMOBS_PUBLIC_KEY as string, secretKey: keys.LLMOBS_SECRET_KEY as string, baseUrl: baseUrl ? baseUrl.toString() : null, recordContent };
    }
  }

  const mailerApiUrl = parseHttpUrl(r, 'MAILER_API_URL', r.get('MAILER_API_URL'));
  const publicGraphqlUrl = parseHttpUrl(r, 'CODEHOST_PUBLIC_GRAPHQL_URL', r.get('CODEHOST_PUBLIC_GRAPHQL_URL'));
  // The read-only token crosses to this URL: never in clear in production.
  if (publicGraphqlUrl && production && publicGraphqlUrl.protocol !== 'https:') r.problems.push('CODEHOST_PUBLIC_GRAPHQL_URL must use https when NODE_ENV is production');
  const mailerFrom = r.get('MAILER_FROM');

  const mailerApiKey = r.get('MAILER_API_KEY');
  const normalisedAppUrl = appUrl ? appUrl.origin + appUrl.pathname.replace(/\/+$/, '') : '';
  const signIn = parseSignIn(r, normalisedAppUrl, production, mailerApiKey !== null);

  const trackers = parseTrackers(r, normalisedAppUrl, production, groups.tracker1, groups.tracker2);

  const promptLogging = r.boolean('AI_PROMPT_LOGGING', false);
  if (promptLogging && production) r.problems.push('AI_PROMPT_LOGGING is refused when NODE_ENV is production');
  const ai = parseAi(r, production, promptLogging);

  const jobs = {
    workerEnabled: r.boolean('JOBS_WORKER_ENABLED', true),
    pollIntervalMs: r.integer('JOBS_POLL_INTERVAL_MS', 1000, 100, 3_600_000),
    queueConcurrency: r.integer('JOBS_QUEUE_CONCURRENCY', 2, 1, 1000),
    workflowConcurrency: r.integer('JOBS_WORKFLOW_CONCURRENCY', 2, 1, 1000),
    retentionDays: r.integer('JOBS_RETENTION_DAYS', 7, 1, 3650),
    shutdownGraceMs: r.integer('JOBS_SHUTDOWN_GRACE_MS', 20000, 0, 3_600_000),
  };
  const live = { maxConnectionsPerTenant: r.integer('LIVE_MAX_CONNECTIONS_PER_TENANT', 200, 1, 100_000) };
  const cube = {
    queryTimeoutSeconds: r.integer('CUBE_QUERY_TIMEOUT_SECONDS', 120, 1, 86_400),
    continueWaitSeconds: r.integer('CUBE_CONTINUE_WAIT_SECONDS', 5, 1, 3600),
  };
  const port = r.integer('PORT', 3000, 0, 65535);
  const trustedProxies = parseCidrs(r, 'TRUSTED_PROXIES');
  const testHooks = r.boolean('TEST_HOOKS', false);
  if (testHooks && nodeEnv !== 'test') r.problems.push('TEST_HOOKS is refused unless NODE_ENV is test');

  if (r.problems.length > 0) throw new ConfigError(r.problems);

  const config: Config = {
    nodeEnv,
    production,
    appUrl: normalisedAppUrl,
    port,
    host: r.get('HOST') ?? '0.0.0.0',
    trustedProxies,
    releaseVersion: r.get('RELEASE_VERSION') ?? 'dev',
    logLevel,
    database: { url: databaseUrl as string, directUrl },
    bi,
    oauthEncryptionKey: key as Buffer,
    objectStore,
    codehostApp,
    signIn,
    integrations: { tracker1: groups.tracker1, tracker2: groups.tracker2, docs: groups.docs, chat: groups.chat },
    trackers,
    vendorUrls,
    billing,
    llmObservability,
    mailerApiKey,
    mailerApiUrl: mailerApiUrl ? mailerApiUrl.origin + mailerApiUrl.pathname.replace(/\/+$/, '') : 'https://api.postmarkapp.com',
    mailerFrom: mailerFrom ?? `Delivery Analytics <no-reply@${(appUrl as URL).hostname}>`,
    docsWebhookSecret: r.get('DOCS_WEBHOOK_SECRET'),
    chatSigningSecret: r.get('CHAT_SIGNING_SECRET'),
    codehostPublicToken: r.get('CODEHOST_PUBLIC_TOKEN'),
    codehostPublicGraphqlUrl: publicGraphqlUrl ? publicGraphqlUrl.href : 'https://api.github.com/graphql',
    adminSecret: r.get('ADMIN_SECRET'),
    ai,
    live,
    cube,
    jobs,
    testHooks,
  };
  return deepFreeze(config);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** The billing group: every variable once BILLING_ENABLED is on; BILLING_API_URL is an optional override. */
function parseBilling(r: Reader, production: boolean): BillingConfig | null {
  const apiUrl = parseHttpUrl(r, 'BILLING_API_URL', r.get('BILLING_API_URL'));
  if (!r.boolean('BILLING_ENABLED', false)) return null;
  if (apiUrl && production && apiUrl.protocol !== 'https:') r.problems.push('BILLING_API_URL must use https when NODE_ENV is production');
  const g = r.enabledGroup('billing group (BILLING_ENABLED)', BILLING_VARIABLES);
  if (!g) return null;
  return {
    apiKey: g.BILLING_API_KEY as string,
    webhookSecret: g.BILLING_WEBHOOK_SECRET as string,
    clientToken: g.BILLING_CLIENT_TOKEN as string,
    priceIds: {
      individual: g.BILLING_INDIVIDUAL_PRICE_ID as string,
      small_team: g.BILLING_SMALL_TEAM_PRICE_ID as string,
      large_team: g.BILLING_LARGE_TEAM_PRICE_ID as string,
      enterprise: g.BILLING_ENTERPRISE_PRICE_ID as string,
    },
    apiUrl: apiUrl ? apiUrl.origin + apiUrl.pathname.replace(/\/+$/, '') : 'https://api.paddle.com',
  };
}

/** DATABASE_URL_BI, BI_PORT, BI_HOST and BI_DATABASE (docs/bi.md "Deployment", "The BI database"). */
function parseBi(r: Reader, appUrl: URL | null): BiConfig {
  const databaseUrl = r.get('DATABASE_URL_BI');
  checkDatabaseUrl(r, 'DATABASE_URL_BI', databaseUrl);
  const publicPort = r.get('BI_PORT') === null ? null : r.integer('BI_PORT', 0, 1, 65535);
  const host = r.get('BI_HOST');
  if (host !== null && !/^[A-Za-z0-9.-]+$/.test(host)) r.problems.push('BI_HOST must be a host name (letters, digits, dots and hyphens)');
  const database = r.get('BI_DATABASE');
  if (database !== null && !/^[A-Za-z_][A-Za-z0-9_$-]{0,62}$/.test(database)) r.problems.push('BI_DATABASE must be a database name (a letter or _, then letters, digits, _, $ or -; at most 63)');
  return { databaseUrl, publicPort, publicHost: host ?? appUrl?.hostname ?? null, database };
}

/**
 * For the BI commands (bi:grant, bi:revoke): DATABASE_URL and LOG_LEVEL as loadDatabaseConfig,
 * plus the BI variables, so the printed connection is the one the web app shows.
 */
export function loadBiCommandConfig(env: Env): { databaseUrl: string; logLevel: string; bi: BiConfig } {
  const base = loadDatabaseConfig(env);
  const r = new Reader(env);
  const bi = parseBi(r, parseHttpUrl(r, 'APP_URL', r.get('APP_URL')));
  if (r.problems.length > 0) throw new ConfigError(r.problems);
  return { ...base, bi };
}

/**
 * For commands that only touch the database (migrate, tenant:create, exports): DATABASE_URL
 * and LOG_LEVEL, nothing else, so an operator can run them with a single variable set.
 */
export function loadDatabaseConfig(env: Env): { databaseUrl: string; logLevel: string } {
  const r = new Reader(env);
  const databaseUrl = r.required('DATABASE_URL');
  checkDatabaseUrl(r, 'DATABASE_URL', databaseUrl);
  const logLevel = r.get('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) r.problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  if (r.problems.length > 0) throw new ConfigError(r.problems);
  return { databaseUrl: databaseUrl as string, logLevel };
}

/** DATABASE_URL and OAUTH_ENCRYPTION_KEY: for commands that open what the server sealed. */
export function loadSealingConfig(env: Env): { databaseUrl: string; oauthEncryptionKey: Buffer } {
  const { databaseUrl } = loadDatabaseConfig(env);
  const r = new Reader(env);
  const raw = r.required('OAUTH_ENCRYPTION_KEY');
  const key = raw === null ? null : decodeEncryptionKey(raw);
  if (raw !== null && key === null) r.problems.push('OAUTH_ENCRYPTION_KEY must be exactly 32 bytes (64 hex characters, base64 of 32 bytes, or a 32-byte string)');
  if (r.problems.length > 0) throw new ConfigError(r.problems);
  return { databaseUrl, oauthEncryptionKey: key as Buffer };
}

/** LOG_LEVEL alone: the `npm start` launcher logs before the rest of the environment is complete. */
export function loadLogLevel(env: Env): string {
  const logLevel = new Reader(env).get('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError([`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`]);
  return logLevel;
}

/** What the CLI's remote commands (login, whoami, logout, exports with --url) read from the environment. */
export interface ClientConfig {
  /** This program's release (RELEASE_VERSION); `dev` is unknown. */
  releaseVersion: string;
  /** Where `delivery-analytics/credentials.json` lives: XDG_CONFIG_HOME, else HOME/.config. */
  configHome: string;
}

export function loadClientConfig(env: Env): Readonly<ClientConfig> {
  const r = new Reader(env);
  // The XDG base directory spec: a relative XDG_CONFIG_HOME is invalid and ignored.
  const xdg = r.get('XDG_CONFIG_HOME');
  const home = r.get('HOME');
  let configHome = xdg !== null && xdg.startsWith('/') ? xdg : null;
  if (configHome === null) {
    if (home === null) r.problems.push('HOME (or XDG_CONFIG_HOME) is required to store CLI credentials');
    else configHome = `${home.replace(/\/+$/, '')}/.config`;
  }
  if (r.problems.length > 0) throw new ConfigError(r.problems);
  return Object.freeze({ releaseVersion: r.get('RELEASE_VERSION') ?? 'dev', configHome: configHome as string });
}
