/**
 * An organisation's own model choice (Settings › AI): provider, models tried in order, its API key
 * (sealed with a key derived from OAUTH_ENCRYPTION_KEY and bound to the tenant; never shown again)
 * and a monthly token budget. Its provider and key win over the environment's for every feature.
 */
import { eq } from 'drizzle-orm';
import { authorize } from '../auth/policies.js';
import type { TenantPrincipal } from '../auth/principal.js';
import { AI_PROVIDER_GROUP, type Config } from '../config/index.js';
import type { Db } from '../db/client.js';
import { aiSettings } from '../db/schema/index.js';
import { AppError } from '../errors.js';
import { derive, open, seal } from '../auth/crypto.js';
import type { Candidate } from './providers.js';
import type { AiSettingsBody } from './schemas.js';

export type AiSettingsRow = typeof aiSettings.$inferSelect;
export type AiFeature = 'summary' | 'assessment' | 'notebook';

/** An organisation chooses one of the three vendors; the OpenAI-compatible endpoint (D) is the operator's. */
export const ORGANISATION_PROVIDERS = ['openai', 'anthropic', 'google'] as const;

const keyOf = (config: Pick<Config, 'oauthEncryptionKey'>) => derive(config.oauthEncryptionKey, 'ai-provider-key');
const aadOf = (tenantId: string) => `ai_settings:${tenantId}`;

export async function findAiSettings(db: Db, tenantId: string): Promise<AiSettingsRow | null> {
  const [row] = await db.select().from(aiSettings).where(eq(aiSettings.tenantId, tenantId));
  return row ?? null;
}

/** Saves the organisation's choice (owners only). A provider needs at least one model and a key, given now or before. */
export async function saveAiSettings(db: Db, config: Config, principal: TenantPrincipal, body: AiSettingsBody): Promise<AiSettingsRow> {
  authorize(principal, 'ai.manage');
  const existing = await findAiSettings(db, principal.tenantId);
  const providerChanged = existing?.provider !== body.provider;
  // A key belongs to its provider: changing the provider without a new key would send the old key elsewhere.
  const keepKey = body.apiKey === undefined && !providerChanged ? (existing?.apiKeySealed ?? null) : null;
  const sealed = body.provider === null ? null : body.apiKey !== undefined ? seal(keyOf(config), body.apiKey, aadOf(principal.tenantId)) : keepKey;
  const details = [];
  if (body.provider !== null && body.models.length === 0) details.push({ path: 'models', message: 'Name at least one model of the provider' });
  if (body.provider !== null && sealed === null) details.push({ path: 'apiKey', message: 'The provider needs an API key' });
  if (body.provider === null && body.models.length > 0) details.push({ path: 'provider', message: 'Models need a provider' });
  if (details.length > 0) throw new AppError('validation_failed', 'Validation failed', details);
  const values = {
    provider: body.provider,
    models: body.provider === null ? [] : body.models,
    apiKeySealed: sealed,
    monthlyTokenBudget: body.monthlyTokenBudget,
    updatedBy: principal.userId,
    updatedAt: new Date(),
  };
  const [row] = await db
    .insert(aiSettings)
    .values({ tenantId: principal.tenantId, ...values })
    .onConflictDoUpdate({ target: aiSettings.tenantId, set: values })
    .returning();
  return row as AiSettingsRow;
}

/** The environment's models for a feature: the notebook uses provider D (compatible) only, the others never. */
export function environmentChain(config: Config, feature: AiFeature): Candidate[] {
  return config.ai.models
    .filter((m) => (feature === 'notebook' ? m.provider === 'compatible' : m.provider !== 'compatible'))
    .flatMap((m) => {
      const group = AI_PROVIDER_GROUP[m.provider];
      const apiKey = config.ai.keys[group];
      return apiKey ? [{ ...m, apiKey, baseUrl: config.ai.baseUrls[group], source: 'environment' as const }] : [];
    });
}

/**
 * The models a feature tries, in order: the organisation's when it chose a provider, else the
 * environment's. Empty: the feature is off for this tenant. The environment's base URL of the
 * provider (a gateway, a test server) applies to the organisation's key too.
 */
export function modelChain(config: Config, settings: AiSettingsRow | null, feature: AiFeature): Candidate[] {
  if (settings?.provider && settings.apiKeySealed && settings.models.length > 0) {
    const provider = settings.provider as (typeof ORGANISATION_PROVIDERS)[number];
    const apiKey = open(keyOf(config), settings.apiKeySealed, aadOf(settings.tenantId));
    const baseUrl = config.ai.baseUrls[AI_PROVIDER_GROUP[provider]];
    return settings.models.map((model) => ({ provider, model, apiKey, baseUrl, source: 'organisation' as const }));
  }
  return environmentChain(config, feature);
}
