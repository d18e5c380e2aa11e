import { parseAi, parseLlmObservability } from "./ai.js";
import { parseBi } from "./bi.js";
import { parseBilling } from "./billing.js";
import { parseCodehostApp, parseCorpus } from "./codehost.js";
import { parseDatabase, parseDatabaseUrl } from "./database.js";
import { parseEncryptionKey } from "./encryptionKey.js";
import { parseAppUrl, parseListener } from "./http.js";
import { parseIntegrations, parseTrackers } from "./integrations.js";
import { parseMail } from "./mail.js";
import { parseObjectStore } from "./objectStore.js";
import { parseHttpUrl, Reader, withoutTrailingSlash } from "./reader.js";
import { parseLogLevel, parseRuntime, parseTestHooks } from "./runtime.js";
import { parseSignIn } from "./signIn.js";
import { AI_PROVIDER_GROUP, AI_PROVIDERS } from "./ai.js";
import { BILLING_PLANS } from "./billing.js";
import { loadClientConfig } from "./client.js";
import { decodeEncryptionKey } from "./encryptionKey.js";
import { deriveAddressing } from "./objectStore.js";
import { ConfigError } from "./reader.js";
function loadConfig(env) {
  const r = new Reader(env);
  const nodeEnv = r.get("NODE_ENV") ?? "development";
  const production = nodeEnv === "production";
  const appUrl = parseAppUrl(r, production);
  const appUrlText = appUrl ? withoutTrailingSlash(appUrl) : "";
  const oauthEncryptionKey = parseEncryptionKey(r);
  const database = parseDatabase(r);
  const bi = parseBi(r, appUrl);
  const logLevel = parseLogLevel(r);
  const objectStore = parseObjectStore(r, production);
  const codehostApp = parseCodehostApp(r);
  const { integrations, ...integrationSettings } = parseIntegrations(r, production);
  const billing = parseBilling(r, production);
  const llmObservability = parseLlmObservability(r);
  const mail = parseMail(r, appUrl);
  const corpus = parseCorpus(r, production);
  const signIn = parseSignIn(r, appUrlText, production, mail.mailerApiKey !== null);
  const trackers = parseTrackers(r, appUrlText, production, integrations.tracker1, integrations.tracker2);
  const ai = parseAi(r, production);
  const runtime = parseRuntime(r);
  const listener = parseListener(r);
  const testHooks = parseTestHooks(r, nodeEnv);
  r.check();
  return deepFreeze({
    nodeEnv,
    production,
    appUrl: appUrlText,
    ...listener,
    releaseVersion: r.get("RELEASE_VERSION") ?? "dev",
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
    adminSecret: r.get("ADMIN_SECRET"),
    ai,
    ...runtime,
    testHooks
  });
}
function deepFreeze(value) {
  if (value && typeof value === "object" && !Buffer.isBuffer(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
function loadBiCommandConfig(env) {
  const base = loadDatabaseConfig(env);
  const r = new Reader(env);
  const bi = parseBi(r, parseHttpUrl(r, "APP_URL", r.get("APP_URL")));
  r.check();
  return { ...base, bi };
}
function loadDatabaseConfig(env) {
  const r = new Reader(env);
  const databaseUrl = parseDatabaseUrl(r);
  const logLevel = parseLogLevel(r);
  r.check();
  return { databaseUrl, logLevel };
}
function loadSealingConfig(env) {
  const { databaseUrl } = loadDatabaseConfig(env);
  const r = new Reader(env);
  const oauthEncryptionKey = parseEncryptionKey(r);
  r.check();
  return { databaseUrl, oauthEncryptionKey };
}
function loadLogLevel(env) {
  const r = new Reader(env);
  const logLevel = parseLogLevel(r);
  r.check();
  return logLevel;
}
export {
  AI_PROVIDERS,
  AI_PROVIDER_GROUP,
  BILLING_PLANS,
  ConfigError,
  decodeEncryptionKey,
  deriveAddressing,
  loadBiCommandConfig,
  loadClientConfig,
  loadConfig,
  loadDatabaseConfig,
  loadLogLevel,
  loadSealingConfig
};
