import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { safeEqual } from "../../auth/secrets.js";
import { asSystem, withTenant } from "../../db/tenancy.js";
import { AppError } from "../../errors.js";
import { consume } from "../../http/rateLimit.js";
import { zodDetails } from "../../http/route.js";
import { REPLAY_WINDOW_SECONDS } from "../slack/verify.js";
import { onceForDelivery } from "../shared/deliveries.js";
import { connectionByExternalId, setConnectionState } from "../shared/connections.js";
import { sameNotionId } from "./client.js";
import { keepVerificationToken } from "./verificationTokens.js";
function verifyNotionSignature(secret, body, header) {
  const match = /^sha256=([0-9a-f]{64})$/.exec(header.trim());
  if (!match) return false;
  return timingSafeEqual(createHmac("sha256", secret).update(body).digest(), Buffer.from(match[1], "hex"));
}
const Handshake = z.strictObject({ verification_token: z.string().min(1).max(500) });
const HANDSHAKE_LIMIT = { name: "notion-handshake", points: 10, durationSeconds: 3600 };
const Delivery = z.object({ id: z.string().min(1).max(200), timestamp: z.iso.datetime({ offset: true }) });
const NotionEvent = z.object({ type: z.string().max(100), workspace_id: z.string().max(100), entity: z.object({ id: z.string().max(100), type: z.string().max(50) }) }).loose();
const PAUSING = {
  "page.deleted": "The parent page was deleted in Notion; publishing is paused until a parent page is chosen again",
  "page.moved": "The parent page was moved in Notion; publishing is paused until the parent page is confirmed again"
};
async function receiveNotionWebhook(app, body, signature, address) {
  const secret = app.config.docsWebhookSecret;
  let payload;
  try {
    payload = JSON.parse(body.toString("utf8"));
  } catch {
    payload = void 0;
  }
  const handshake = Handshake.safeParse(payload);
  if (handshake.success) {
    await consume(app, `ip:${address}`, [HANDSHAKE_LIMIT]);
    const token = handshake.data.verification_token;
    if (!secret || !safeEqual(token, secret)) {
      await asSystem("inbound-routing", () => keepVerificationToken(app.database.db, app.config.oauthEncryptionKey, token));
      app.log.info({ vendor: "notion" }, "notion sent a webhook verification token: read it once with `delivery-analytics notion:verification-token`, paste it into Notion's Verify form and set it as DOCS_WEBHOOK_SECRET");
    }
    return { handled: "verification" };
  }
  if (!secret) throw new AppError("unavailable", "Notion webhooks are refused: DOCS_WEBHOOK_SECRET is not set on this server");
  if (payload === void 0) throw new AppError("validation_failed", "Invalid request body", [{ path: "body", message: "Body is not valid JSON" }]);
  const parsed = NotionEvent.safeParse(payload);
  if (!verifyNotionSignature(secret, body, signature)) {
    app.log.warn({ vendor: "notion" }, "notion webhook refused: bad signature");
    throw new AppError("unauthorized", "Invalid Notion webhook signature");
  }
  const delivery = Delivery.safeParse(payload);
  if (!delivery.success) throw new AppError("validation_failed", "Validation failed", zodDetails(delivery.error, void 0, payload));
  if (Math.abs(Date.now() - Date.parse(delivery.data.timestamp)) > REPLAY_WINDOW_SECONDS * 1e3) {
    app.log.warn({ vendor: "notion" }, "notion webhook refused: stale timestamp");
    throw new AppError("unauthorized", "Stale Notion webhook timestamp");
  }
  if (!parsed.success) return { handled: "ignored" };
  return onceForDelivery(app.database.db, "notion", delivery.data.id, { handled: "duplicate" }, () => applyEvent(app, parsed.data));
}
async function applyEvent(app, event) {
  const connection = await asSystem("inbound-routing", () => connectionByExternalId(app.database.db, "notion", event.workspace_id));
  if (!connection) return { handled: "unknown workspace" };
  const parent = connection.settings.parentPageId;
  if (!parent || !sameNotionId(parent, event.entity.id)) return { handled: "ignored" };
  return withTenant(connection.tenantId, async () => {
    if (PAUSING[event.type]) {
      await setConnectionState(app.database.db, connection.id, "needs_attention", PAUSING[event.type]);
      return { handled: "paused" };
    }
    if (event.type === "page.undeleted" && connection.state === "needs_attention") {
      await setConnectionState(app.database.db, connection.id, "active", null);
      return { handled: "resumed" };
    }
    return { handled: "ignored" };
  });
}
export {
  HANDSHAKE_LIMIT,
  receiveNotionWebhook,
  verifyNotionSignature
};
