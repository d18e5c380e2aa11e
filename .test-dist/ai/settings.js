import { eq } from "drizzle-orm";
import { z } from "zod";
import { authorize } from "../auth/policies.js";
import { AI_PROVIDER_GROUP } from "../config/index.js";
import { aiSettings } from "../db/schema/index.js";
import { AppError } from "../errors.js";
import { derive, open, seal } from "../oauth/crypto.js";
const ORGANISATION_PROVIDERS = ["openai", "anthropic", "google"];
const AiSettingsBody = z.strictObject({
  provider: z.enum(ORGANISATION_PROVIDERS).nullable(),
  models: z.array(z.string().trim().min(1).max(200).regex(/^[^,\s]+$/, "one model name, without commas or spaces")).max(10),
  /** Absent: keep the stored key. */
  apiKey: z.string().trim().min(8).max(1e3).optional(),
  monthlyTokenBudget: z.number().int().min(1e3).max(1e12).nullable()
});
const keyOf = (config) => derive(config.oauthEncryptionKey, "ai-provider-key");
const aadOf = (tenantId) => `ai_settings:${tenantId}`;
async function findAiSettings(db, tenantId) {
  const [row] = await db.select().from(aiSettings).where(eq(aiSettings.tenantId, tenantId));
  return row ?? null;
}
async function saveAiSettings(db, config, principal, body) {
  authorize(principal, "ai.manage");
  const existing = await findAiSettings(db, principal.tenantId);
  const providerChanged = existing?.provider !== body.provider;
  const keepKey = body.apiKey === void 0 && !providerChanged ? existing?.apiKeySealed ?? null : null;
  const sealed = body.provider === null ? null : body.apiKey !== void 0 ? seal(keyOf(config), body.apiKey, aadOf(principal.tenantId)) : keepKey;
  const details = [];
  if (body.provider !== null && body.models.length === 0) details.push({ path: "models", message: "Name at least one model of the provider" });
  if (body.provider !== null && sealed === null) details.push({ path: "apiKey", message: "The provider needs an API key" });
  if (body.provider === null && body.models.length > 0) details.push({ path: "provider", message: "Models need a provider" });
  if (details.length > 0) throw new AppError("validation_failed", "Validation failed", details);
  const values = {
    provider: body.provider,
    models: body.provider === null ? [] : body.models,
    apiKeySealed: sealed,
    monthlyTokenBudget: body.monthlyTokenBudget,
    updatedBy: principal.userId,
    updatedAt: /* @__PURE__ */ new Date()
  };
  const [row] = await db.insert(aiSettings).values({ tenantId: principal.tenantId, ...values }).onConflictDoUpdate({ target: aiSettings.tenantId, set: values }).returning();
  return row;
}
function environmentChain(config, feature) {
  return config.ai.models.filter((m) => feature === "notebook" ? m.provider === "compatible" : m.provider !== "compatible").flatMap((m) => {
    const group = AI_PROVIDER_GROUP[m.provider];
    const apiKey = config.ai.keys[group];
    return apiKey ? [{ ...m, apiKey, baseUrl: config.ai.baseUrls[group], source: "environment" }] : [];
  });
}
function modelChain(config, settings, feature) {
  if (settings?.provider && settings.apiKeySealed && settings.models.length > 0) {
    const provider = settings.provider;
    const apiKey = open(keyOf(config), settings.apiKeySealed, aadOf(settings.tenantId));
    const baseUrl = config.ai.baseUrls[AI_PROVIDER_GROUP[provider]];
    return settings.models.map((model) => ({ provider, model, apiKey, baseUrl, source: "organisation" }));
  }
  return environmentChain(config, feature);
}
export {
  AiSettingsBody,
  ORGANISATION_PROVIDERS,
  environmentChain,
  findAiSettings,
  modelChain,
  saveAiSettings
};
