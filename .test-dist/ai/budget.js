import { and, eq, gte, sql } from "drizzle-orm";
import { aiCalls, aiSettings } from "../db/schema/index.js";
import { AppError } from "../errors.js";
function monthStart(now = /* @__PURE__ */ new Date()) {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}
async function tokensThisMonth(db, tenantId) {
  const [row] = await db.select({ tokens: sql`coalesce(sum(${aiCalls.inputTokens} + ${aiCalls.outputTokens}), 0)` }).from(aiCalls).where(and(eq(aiCalls.tenantId, tenantId), gte(aiCalls.createdAt, monthStart())));
  return Number(row?.tokens ?? 0);
}
async function checkBudget(db, tenantId) {
  const [settings] = await db.select({ budget: aiSettings.monthlyTokenBudget }).from(aiSettings).where(eq(aiSettings.tenantId, tenantId));
  if (settings?.budget == null) return;
  if (await tokensThisMonth(db, tenantId) >= settings.budget) {
    throw new AppError("rate_limited", "This organisation has used its monthly AI token budget (Settings \u203A AI)");
  }
}
export {
  checkBudget,
  monthStart,
  tokensThisMonth
};
