/**
 * The Events API: Slack's `url_verification` handshake and the two events that take our grant
 * away. Anything else is acknowledged and ignored (the app subscribes to nothing more).
 */
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { removeSlackInstall } from './install.js';

const EventEnvelope = z.union([
  z.object({ type: z.literal('url_verification'), challenge: z.string().max(500) }),
  z.object({
    type: z.literal('event_callback'),
    team_id: z.string().max(50),
    event: z.object({ type: z.string().max(100), tokens: z.object({ bot: z.array(z.string()).optional() }).optional() }).loose(),
  }),
  z.object({ type: z.string().max(100) }).loose(),
]);

export type EventAnswer = { challenge: string } | { ok: true; handled: string };

export async function receiveSlackEvent(app: AppContext, body: unknown): Promise<EventAnswer | null> {
  const parsed = EventEnvelope.safeParse(body);
  if (!parsed.success) return null;
  const envelope = parsed.data;
  if (envelope.type === 'url_verification' && 'challenge' in envelope) return { challenge: envelope.challenge as string };
  if (envelope.type !== 'event_callback' || !('event' in envelope)) return { ok: true, handled: 'ignored' };
  const { event, team_id: workspace } = envelope as { team_id: string; event: { type: string; tokens?: { bot?: string[] } } };
  // tokens_revoked also reports user tokens, which this app never holds.
  const botRevoked = event.type === 'tokens_revoked' && (event.tokens?.bot?.length ?? 0) > 0;
  if (event.type === 'app_uninstalled' || botRevoked) {
    return { ok: true, handled: (await removeSlackInstall(app, workspace)) ? 'removed' : 'unknown workspace' };
  }
  return { ok: true, handled: 'ignored' };
}
