import { z } from "zod";
import { removeSlackInstall } from "./install.js";
const EventEnvelope = z.union([
  z.object({ type: z.literal("url_verification"), challenge: z.string().max(500) }),
  z.object({
    type: z.literal("event_callback"),
    team_id: z.string().max(50),
    event: z.object({ type: z.string().max(100), tokens: z.object({ bot: z.array(z.string()).optional() }).optional() }).loose()
  }),
  z.object({ type: z.string().max(100) }).loose()
]);
async function receiveSlackEvent(app, body) {
  const parsed = EventEnvelope.safeParse(body);
  if (!parsed.success) return null;
  const envelope = parsed.data;
  if (envelope.type === "url_verification" && "challenge" in envelope) return { challenge: envelope.challenge };
  if (envelope.type !== "event_callback" || !("event" in envelope)) return { ok: true, handled: "ignored" };
  const { event, team_id: workspace } = envelope;
  const botRevoked = event.type === "tokens_revoked" && (event.tokens?.bot?.length ?? 0) > 0;
  if (event.type === "app_uninstalled" || botRevoked) {
    return { ok: true, handled: await removeSlackInstall(app, workspace) ? "removed" : "unknown workspace" };
  }
  return { ok: true, handled: "ignored" };
}
export {
  receiveSlackEvent
};
