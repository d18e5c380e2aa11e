import { count } from "drizzle-orm";
import { staleIntegrations } from "../db/schema/index.js";
const provider = (name, app) => ({ provider: name, configured: app !== null, customEndpoint: app?.overridden ?? false });
function configReport(config) {
  const on = (value) => value !== null && value !== void 0;
  const store = config.objectStore;
  return {
    release: { version: config.releaseVersion, known: config.releaseVersion !== "dev" },
    production: config.production,
    database: { directUrl: on(config.database.directUrl) },
    objectStore: store.kind === "s3" ? { kind: "s3", configured: true, addressing: store.addressing, addressingDerived: store.addressingDerived } : { kind: store.kind, configured: store.kind !== "none" },
    codehostApp: {
      configured: on(config.codehostApp),
      webhookSecret: on(config.codehostApp?.webhookSecret),
      name: on(config.codehostApp?.name)
    },
    signIn: {
      email: on(config.mailerApiKey),
      codehost: provider("github", config.signIn.codehost),
      idp1: provider("google", config.signIn.idp1),
      codehost2: provider("gitlab", config.signIn.codehost2),
      idp2: provider("microsoft", config.signIn.idp2)
    },
    integrations: {
      tracker1: on(config.integrations.tracker1),
      tracker2: on(config.integrations.tracker2),
      docs: on(config.integrations.docs),
      chat: on(config.integrations.chat)
    },
    billing: { configured: on(config.billing) },
    llmObservability: { configured: on(config.llmObservability) },
    mailer: { configured: on(config.mailerApiKey) },
    secrets: {
      docsWebhookSecret: on(config.docsWebhookSecret),
      chatSigningSecret: on(config.chatSigningSecret),
      codehostPublicToken: on(config.codehostPublicToken),
      adminSecret: on(config.adminSecret)
    },
    ai: {
      provider: on(config.ai.provider),
      models: config.ai.models.length > 0,
      keys: { llmA: on(config.ai.keys.llmA), llmB: on(config.ai.keys.llmB), llmC: on(config.ai.keys.llmC), llmD: on(config.ai.keys.llmD) },
      promptLogging: config.ai.promptLogging
    },
    jobs: { workerEnabled: config.jobs.workerEnabled }
  };
}
const STALE_KINDS = ["codehost_installation", "jira_connection", "linear_connection"];
async function staleIntegrationCounts(db) {
  const rows = await db.select({ kind: staleIntegrations.kind, n: count() }).from(staleIntegrations).groupBy(staleIntegrations.kind);
  return Object.fromEntries([...STALE_KINDS.map((k) => [k, 0]), ...rows.map((r) => [r.kind, r.n])]);
}
export {
  STALE_KINDS,
  configReport,
  staleIntegrationCounts
};
