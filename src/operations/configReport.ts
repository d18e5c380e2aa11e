import { count } from 'drizzle-orm';
import type { Config, SignInApp } from '../config/index.js';
import type { Db } from '../db/client.js';
import { staleIntegrations } from '../db/schema/index.js';

/** A sign-in provider: which one the group is, whether it is on, and whether an endpoint override is set (never which). */
const provider = (name: string, app: SignInApp | null) => ({ provider: name, configured: app !== null, customEndpoint: app?.overridden ?? false });

/**
 * What the global administrator may learn about this deployment's configuration: which groups and
 * integrations are configured, the object store's kind and addressing, the release. Booleans and
 * kinds only, never a value (no URL, bucket, key, id or secret), so the report is safe to paste
 * into a support ticket.
 */
export function configReport(config: Readonly<Config>) {
  const on = (value: unknown) => value !== null && value !== undefined;
  const store = config.objectStore;
  return {
    release: { version: config.releaseVersion, known: config.releaseVersion !== 'dev' },
    production: config.production,
    database: { directUrl: on(config.database.directUrl) },
    objectStore:
      store.kind === 's3'
        ? { kind: 's3' as const, configured: true, addressing: store.addressing, addressingDerived: store.addressingDerived }
        : { kind: store.kind, configured: store.kind !== 'none' },
    codehostApp: {
      configured: on(config.codehostApp),
      webhookSecret: on(config.codehostApp?.webhookSecret),
      name: on(config.codehostApp?.name),
    },
    signIn: {
      email: on(config.mailerApiKey),
      codehost: provider('github', config.signIn.codehost),
      idp1: provider('google', config.signIn.idp1),
      codehost2: provider('gitlab', config.signIn.codehost2),
      idp2: provider('microsoft', config.signIn.idp2),
    },
    integrations: {
      tracker1: on(config.integrations.tracker1),
      tracker2: on(config.integrations.tracker2),
      docs: on(config.integrations.docs),
      chat: on(config.integrations.chat),
    },
    billing: { configured: on(config.billing) },
    llmObservability: { configured: on(config.llmObservability) },
    mailer: { configured: on(config.mailerApiKey) },
    secrets: {
      docsWebhookSecret: on(config.docsWebhookSecret),
      chatSigningSecret: on(config.chatSigningSecret),
      codehostPublicToken: on(config.codehostPublicToken),
      adminSecret: on(config.adminSecret),
    },
    ai: {
      provider: on(config.ai.provider),
      models: config.ai.models.length > 0,
      keys: { llmA: on(config.ai.keys.llmA), llmB: on(config.ai.keys.llmB), llmC: on(config.ai.keys.llmC), llmD: on(config.ai.keys.llmD) },
      promptLogging: config.ai.promptLogging,
    },
    jobs: { workerEnabled: config.jobs.workerEnabled },
  };
}

/** Kinds of the stale-integration flag; each is reported, 0 when none is flagged. */
export const STALE_KINDS = ['codehost_installation', 'jira_connection', 'linear_connection'] as const;

/**
 * How many integrations are flagged stale, per kind (silent code-host installations; tracker
 * connections whose grant was refused and need a reconnect). Counts only: no tenant or id.
 */
export async function staleIntegrationCounts(db: Db): Promise<Record<string, number>> {
  const rows = await db.select({ kind: staleIntegrations.kind, n: count() }).from(staleIntegrations).groupBy(staleIntegrations.kind);
  return Object.fromEntries([...STALE_KINDS.map((k) => [k, 0] as const), ...rows.map((r) => [r.kind, r.n] as const)]);
}
