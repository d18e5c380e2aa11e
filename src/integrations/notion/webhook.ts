/**
 * Notion's webhooks, signed with the subscription's verification token (DOCS_WEBHOOK_SECRET):
 * X-Notion-Signature is `sha256=` HMAC-SHA256 of the raw body. Without the secret every delivery
 * is refused (503) but the handshake that brings the token (verificationTokens.ts), which is
 * rate-limited per address since it is unsigned. As Slack's requests: a signed event whose
 * `timestamp` is more than five minutes from now is refused (401), and an event id already taken
 * is acknowledged without being applied again (shared/deliveries.ts).
 * A deleted or moved parent page pauses publishing (needs attention) until the owner chooses a
 * parent again; a page restored from the trash resumes it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { safeEqual } from '../../auth/secrets.js';
import type { AppContext } from '../../context.js';
import { asSystem, withTenant } from '../../db/tenancy.js';
import { AppError, zodDetails } from '../../errors.js';
import { consume, type Limit } from '../../http/rateLimit.js';
import { REPLAY_WINDOW_SECONDS } from '../slack/verify.js';
import { onceForDelivery } from '../shared/deliveries.js';
import { connectionByExternalId, setConnectionState } from '../shared/connections.js';
import { sameNotionId } from './client.js';
import { keepVerificationToken } from './verificationTokens.js';

export function verifyNotionSignature(secret: string, body: Buffer, header: string): boolean {
  const match = /^sha256=([0-9a-f]{64})$/.exec(header.trim());
  if (!match) return false;
  return timingSafeEqual(createHmac('sha256', secret).update(body).digest(), Buffer.from(match[1] as string, 'hex'));
}

/** The subscription's one unsigned request: the token and nothing else. */
const Handshake = z.strictObject({ verification_token: z.string().min(1).max(500) });
/**
 * Notion sends one handshake per subscription created or token resent: ten an hour from one
 * address leaves room for retries and a few resends, and keeps a flood from one address out.
 */
export const HANDSHAKE_LIMIT: Limit = { name: 'notion-handshake', points: 10, durationSeconds: 3600 };
/** Every event Notion sends carries its id (the same on a retry) and the time it happened. */
const Delivery = z.object({ id: z.string().min(1).max(200), timestamp: z.iso.datetime({ offset: true }) });
const NotionEvent = z.object({ type: z.string().max(100), workspace_id: z.string().max(100), entity: z.object({ id: z.string().max(100), type: z.string().max(50) }) }).loose();

const PAUSING: Record<string, string> = {
  'page.deleted': 'The parent page was deleted in Notion; publishing is paused until a parent page is chosen again',
  'page.moved': 'The parent page was moved in Notion; publishing is paused until the parent page is confirmed again',
};

export async function receiveNotionWebhook(app: AppContext, body: Buffer, signature: string, address: string): Promise<{ handled: string }> {
  const secret = app.config.docsWebhookSecret;
  let payload: unknown;
  try {
    payload = JSON.parse(body.toString('utf8'));
  } catch {
    payload = undefined;
  }
  // The handshake carries the token that becomes DOCS_WEBHOOK_SECRET, so it is taken even before
  // the secret is set (and when a new subscription's token differs from it): kept sealed for the
  // operator's CLI, never logged. The answer is the same whether or not it matched the secret.
  const handshake = Handshake.safeParse(payload);
  if (handshake.success) {
    await consume(app, `ip:${address}`, [HANDSHAKE_LIMIT]);
    const token = handshake.data.verification_token;
    if (!secret || !safeEqual(token, secret)) {
      await asSystem('inbound-routing', () => keepVerificationToken(app.database.db, app.config.oauthEncryptionKey, token));
      app.log.info({ vendor: 'notion' }, 'notion sent a webhook verification token: read it once with `delivery-analytics notion:verification-token`, paste it into Notion\'s Verify form and set it as DOCS_WEBHOOK_SECRET');
    }
    return { handled: 'verification' };
  }
  if (!secret) throw new AppError('unavailable', 'Notion webhooks are refused: DOCS_WEBHOOK_SECRET is not set on this server');
  if (payload === undefined) throw new AppError('validation_failed', 'Invalid request body', [{ path: 'body', message: 'Body is not valid JSON' }]);
  const parsed = NotionEvent.safeParse(payload);
  if (!verifyNotionSignature(secret, body, signature)) {
    app.log.warn({ vendor: 'notion' }, 'notion webhook refused: bad signature');
    throw new AppError('unauthorized', 'Invalid Notion webhook signature');
  }
  const delivery = Delivery.safeParse(payload);
  if (!delivery.success) throw new AppError('validation_failed', 'Validation failed', zodDetails(delivery.error, undefined, payload));
  if (Math.abs(Date.now() - Date.parse(delivery.data.timestamp)) > REPLAY_WINDOW_SECONDS * 1000) {
    app.log.warn({ vendor: 'notion' }, 'notion webhook refused: stale timestamp');
    throw new AppError('unauthorized', 'Stale Notion webhook timestamp');
  }
  if (!parsed.success) return { handled: 'ignored' };
  return onceForDelivery(app.database.db, 'notion', delivery.data.id, { handled: 'duplicate' }, () => applyEvent(app, parsed.data));
}

async function applyEvent(app: AppContext, event: z.infer<typeof NotionEvent>): Promise<{ handled: string }> {
  const connection = await asSystem('inbound-routing', () => connectionByExternalId(app.database.db, 'notion', event.workspace_id));
  if (!connection) return { handled: 'unknown workspace' };
  const parent = connection.settings.parentPageId as string | null | undefined;
  if (!parent || !sameNotionId(parent, event.entity.id)) return { handled: 'ignored' };
  return withTenant(connection.tenantId, async () => {
    if (PAUSING[event.type]) {
      await setConnectionState(app.database.db, connection.id, 'needs_attention', PAUSING[event.type] as string);
      return { handled: 'paused' };
    }
    if (event.type === 'page.undeleted' && connection.state === 'needs_attention') {
      await setConnectionState(app.database.db, connection.id, 'active', null);
      return { handled: 'resumed' };
    }
    return { handled: 'ignored' };
  });
}
