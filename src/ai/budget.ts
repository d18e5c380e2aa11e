/** The organisation's monthly token budget: input plus output tokens of its model calls in the current calendar month (UTC). */
import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { aiCalls, aiSettings } from '../db/schema/index.js';
import { AppError } from '../errors.js';

export function monthStart(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

export async function tokensThisMonth(db: Db, tenantId: string): Promise<number> {
  const [row] = await db
    .select({ tokens: sql<string>`coalesce(sum(${aiCalls.inputTokens} + ${aiCalls.outputTokens}), 0)` })
    .from(aiCalls)
    .where(and(eq(aiCalls.tenantId, tenantId), gte(aiCalls.createdAt, monthStart())));
  return Number(row?.tokens ?? 0);
}

/** Refuses a model call (429) once the month's tokens reach the budget; a call under way may end above it. */
export async function checkBudget(db: Db, tenantId: string): Promise<void> {
  const [settings] = await db.select({ budget: aiSettings.monthlyTokenBudget }).from(aiSettings).where(eq(aiSettings.tenantId, tenantId));
  if (settings?.budget == null) return;
  if ((await tokensThisMonth(db, tenantId)) >= settings.budget) {
    throw new AppError('rate_limited', 'This organisation has used its monthly AI token budget (Settings › AI)');
  }
}
