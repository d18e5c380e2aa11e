import type { IntakeName } from './service.js';

/** The intake status (GET /api/ai-telemetry/status): per signal and name, what arrived and when. */
export function presentIntakeStatus(names: IntakeName[]) {
  const last = names.reduce<Date | null>((latest, n) => (latest === null || n.lastReceivedAt > latest ? n.lastReceivedAt : latest), null);
  return {
    lastReceivedAt: last?.toISOString() ?? null,
    names: names.map((n) => ({
      signal: n.signal,
      name: n.name,
      accepted: n.accepted,
      ignored: n.ignored,
      rejected: n.rejected,
      lastReceivedAt: n.lastReceivedAt.toISOString(),
    })),
  };
}
