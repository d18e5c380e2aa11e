/**
 * The environment, parsed once at startup into one frozen, typed object. Nothing else in the
 * program reads `process.env`. Every problem is collected (never the value, only the variable's
 * name) so a failed start lists all of them at once. One file per group of variables.
 */
import { parseAi, parseLlmObservability, type AiConfig, type LlmObservabilityConfig } from './ai.js';
import { parseBi, type BiConfig } from './bi.js';
import { parseBilling, type BillingConfig } from './billing.js';
import { parseCodehostApp, parseCorpus, type CodehostAppConfig } from './codehost.js';
import { parseDatabase, parseDatabaseUrl, type DatabaseConfig } from './database.js';
import { parseEncryptionKey } from './encryptionKey.js';
import { parseAppUrl, parseListener, type Cidr } from './http.js';
import { parseAiVendors, type AiVendorsConfig } from './aiVendors.js';
import { parseAiTelemetry, type AiTelemetryConfig } from './aiTelemetry.js';
import { parseIntegrations, parseTrackers, type IntegrationsConfig, type TrackersConfig } from './integrations.js';
import { parseMail } from './mail.js';
import { parseObjectStore, type ObjectStoreConfig } from './objectStore.js';
import { parseHttpUrl, Reader, withoutTrailingSlash, type Env } from './reader.js';
import { parseCompileCacheDir, parseLogLevel, parseRuntime, parseTestHooks, type RuntimeConfig } from './runtime.js';
import { parseSignIn, type SignInConfig } from './signIn.js';

export { AI_PROVIDER_GROUP, AI_PROVIDERS, type AiModelRef, type AiProvider } from './ai.js';
export type { BiConfig } from './bi.js';
export { BILLING_PLANS, type BillingConfig, type BillingPlan } from './billing.js';
export { loadClientConfig, type ClientConfig } from './client.js';
export { decodeEncryptionKey } from './encryptionKey.js';
export type { Cidr } from './http.js';
export type { TrackerApp } from './integrations.js';
export { deriveAddressing, type ObjectStoreConfig } from './objectStore.js';
export { ConfigError, type Env } from './reader.js';
export type { SignInApp, SignInConfig } from './signIn.js';

export interface Config extends RuntimeConfig {
  nodeEnv: string;
  production: boolean;
  appUrl: string;
  port: number;
  host: string;
  /** TRUSTED_PROXIES: peers whose X-Forwarded-* headers count (src/http/clientAddress.ts). */
  trustedProxies: Cidr[];
  releaseVersion: string;
  logLevel: string;
  database: DatabaseConfig;
  /** BI access (docs/bi.md): where BI roles read, and the address BI tools are given. */
  bi: BiConfig;
  oauthEncryptionKey: Buffer;
  objectStore: ObjectStoreConfig;
  codehostApp: CodehostAppConfig;
  signIn: SignInConfig;
  integrations: IntegrationsConfig['integrations'];
  /** The issue trackers of the tracker1/tracker2 groups (docs/integrations-trackers.md); null when the group is absent. */
  trackers: TrackersConfig;
  vendorUrls: IntegrationsConfig['vendorUrls'];
  /** Paddle Billing (docs/billing.md); null while BILLING_ENABLED is off, and then nothing of billing exists. */
  billing: BillingConfig | null;
  /** LLM observability (Langfuse over OpenTelemetry, docs/ai.md). */
  llmObservability: LlmObservabilityConfig;
  mailerApiKey: string | null;
  mailerApiUrl: string;
  mailerFrom: string;
  docsWebhookSecret: string | null;
  chatSigningSecret: string | null;
  codehostPublicToken: string | null;
  codehostPublicGraphqlUrl: string;
  adminSecret: string | null;
  /** The AI features (docs/ai.md). */
  ai: AiConfig;
  /** The AI tools' vendor reports (docs/ai-vendor-reports.md). */
  aiVendors: AiVendorsConfig;
  /** The AI tools' OpenTelemetry intake (docs/ai-telemetry.md). */
  aiTelemetry: AiTelemetryConfig;
  /** TEST_HOOKS (src/config/runtime.ts): refused unless NODE_ENV is test. */
  testHooks: boolean;
}

/**
 * Parses the environment; throws ConfigError listing every problem. The groups are read in a
 * fixed order, which is the order the problems are listed in.
 */
export function loadConfig(env: Env): Readonly<Config> {
  const r = new Reader(env);
  const nodeEnv = r.get('NODE_ENV') ?? 'development';
  const production = nodeEnv === 'production';
  const appUrl = parseAppUrl(r, production);
  const appUrlText = appUrl ? withoutTrailingSlash(appUrl) : '';
  const oauthEncryptionKey = parseEncryptionKey(r);
  const database = parseDatabase(r);
  const bi = parseBi(r, appUrl);
  const logLevel = parseLogLevel(r);
  const objectStore = parseObjectStore(r, production);
  const codehostApp = parseCodehostApp(r, production);
  const { integrations, ...integrationSettings } = parseIntegrations(r, production);
  const billing = parseBilling(r, production);
  const llmObservability = parseLlmObservability(r);
  const mail = parseMail(r, appUrl);
  const corpus = parseCorpus(r, production);
  const signIn = parseSignIn(r, appUrlText, production, mail.mailerApiKey !== null);
  const trackers = parseTrackers(r, appUrlText, production, integrations.tracker1, integrations.tracker2);
  const ai = parseAi(r, production);
  const aiVendors = parseAiVendors(r, production, codehostApp?.apiUrl ?? null);
  const aiTelemetry = parseAiTelemetry(r, nodeEnv);
  const runtime = parseRuntime(r);
  const listener = parseListener(r);
  const testHooks = parseTestHooks(r, nodeEnv);
  r.check();

  return deepFreeze({
    nodeEnv,
    production,
    appUrl: appUrlText,
    ...listener,
    releaseVersion: r.get('RELEASE_VERSION') ?? 'dev',
    logLevel,
    database,
    bi,
    oauthEncryptionKey,
    objectStore,
    codehostApp,
    signIn,
    integrations,
    trackers,
    ...integrationSettings,
    billing,
    llmObservability,
    ...mail,
    ...corpus,
    adminSecret: r.get('ADMIN_SECRET'),
    ai,
    aiVendors,
    aiTelemetry,
    ...runtime,
    testHooks,
  });
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/**
 * For the BI commands (bi:grant, bi:revoke): DATABASE_URL and LOG_LEVEL as loadDatabaseConfig,
 * plus the BI variables, so the printed connection is the one the web app shows.
 */
export function loadBiCommandConfig(env: Env): { databaseUrl: string; logLevel: string; bi: BiConfig } {
  const base = loadDatabaseConfig(env);
  const r = new Reader(env);
  const bi = parseBi(r, parseHttpUrl(r, 'APP_URL', r.get('APP_URL')));
  r.check();
  return { ...base, bi };
}

/**
 * For commands that only touch the database (migrate, tenant:create, exports): DATABASE_URL
 * and LOG_LEVEL, nothing else, so an operator can run them with a single variable set.
 */
export function loadDatabaseConfig(env: Env): { databaseUrl: string; logLevel: string } {
  const r = new Reader(env);
  const databaseUrl = parseDatabaseUrl(r);
  const logLevel = parseLogLevel(r);
  r.check();
  return { databaseUrl, logLevel };
}

/** DATABASE_URL and OAUTH_ENCRYPTION_KEY: for commands that open what the server sealed. */
export function loadSealingConfig(env: Env): { databaseUrl: string; oauthEncryptionKey: Buffer } {
  const { databaseUrl } = loadDatabaseConfig(env);
  const r = new Reader(env);
  const oauthEncryptionKey = parseEncryptionKey(r);
  r.check();
  return { databaseUrl, oauthEncryptionKey };
}

/** LOG_LEVEL alone: the `npm start` launcher logs before the rest of the environment is complete. */
export function loadLogLevel(env: Env): string {
  const r = new Reader(env);
  const logLevel = parseLogLevel(r);
  r.check();
  return logLevel;
}

/**
 * CUBE_COMPILE_CACHE_DIR alone, for every command: those that compile the models outside `serve`
 * (migrate's bi views, the offline exports) keep the same transpiled YAML as the instances. An
 * invalid value counts as unset here, so a command that never compiles is not refused for it;
 * `serve` refuses it with the rest of its configuration.
 */
export function loadCompileCacheDir(env: Env): string | null {
  const r = new Reader(env);
  const dir = parseCompileCacheDir(r);
  return r.problems.length === 0 ? dir : null;
}
