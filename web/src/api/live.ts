/**
 * One `/api/live` socket per tab. A data event (webhook batch stored, sync or import finished)
 * invalidates the cached answers it may change, so open dashboards refresh without a reload. The
 * socket reconnects with backoff (1 s doubling to 30 s, with jitter), also after close code 1012
 * (server restart); the shell shows when it is down. A gap in events refreshes everything.
 */
import type { QueryClient } from '@tanstack/react-query';

export type LiveState = 'connecting' | 'open' | 'down';
let state: LiveState = 'connecting';
const listeners = new Set<() => void>();

export function liveState(): LiveState {
  return state;
}
export function subscribeLive(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
function setState(next: LiveState) {
  if (next === state) return;
  state = next;
  for (const l of listeners) l();
}

const DATA_EVENTS = new Set(['data.changed', 'job.finished', 'live.gap']);

/** A message of the socket, for a page following one job (e.g. an import's progress bar). */
export interface LiveMessage {
  kind: string;
  job?: { id: string; name: string };
  step?: { name: string; index: number; count: number };
  outcome?: 'completed' | 'failed' | 'retrying';
  done?: number;
  total?: number;
  [key: string]: unknown;
}
const messageListeners = new Set<(m: LiveMessage) => void>();
export function onLiveMessage(listener: (m: LiveMessage) => void): () => void {
  messageListeners.add(listener);
  return () => messageListeners.delete(listener);
}

/**
 * At most one refresh of the open page per REFRESH_GAP_MS: a pipeline posting a webhook batch
 * every second would otherwise have every open tab re-ask all its queries every second, and use
 * up its person's 100 requests a minute. An event inside the gap is answered at its end.
 */
export const REFRESH_GAP_MS = 2_000;

export function startLive(queryClient: QueryClient): void {
  let attempt = 0;
  let lastReady = 0;
  let lastRefresh = 0;
  let pending: ReturnType<typeof setTimeout> | null = null;
  let events = 0;
  let running = 0;
  // What the page has heard and whether a refresh is still waiting or under way, on <html> as
  // data-live-events and data-live-refresh: a test (or a curious operator) can wait for "every
  // event answered" instead of sleeping.
  const mark = () => {
    document.documentElement.dataset.liveEvents = String(events);
    document.documentElement.dataset.liveRefresh = pending || running > 0 ? 'pending' : 'idle';
  };
  const invalidate = () => {
    pending = null;
    lastRefresh = Date.now();
    running += 1;
    mark();
    void Promise.allSettled([queryClient.invalidateQueries({ queryKey: ['cube'] }), queryClient.invalidateQueries({ queryKey: ['api'] })]).then(() => {
      running -= 1;
      mark();
    });
  };
  const refresh = () => {
    events += 1;
    if (!pending) {
      const wait = lastRefresh + REFRESH_GAP_MS - Date.now();
      if (wait <= 0) invalidate();
      else pending = setTimeout(invalidate, wait);
    }
    mark();
  };
  const connect = () => {
    const socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/live`);
    socket.onmessage = (event) => {
      let message: { kind?: string } | null = null;
      try {
        message = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (message?.kind) for (const l of messageListeners) l(message as LiveMessage);
      if (message?.kind === 'live.ready') {
        attempt = 0;
        setState('open');
        // Reconnected after a drop: what changed meanwhile was not pushed, so refresh once.
        if (lastReady !== 0) void queryClient.invalidateQueries();
        lastReady = Date.now();
        return;
      }
      if (message?.kind && DATA_EVENTS.has(message.kind)) refresh();
    };
    socket.onclose = () => {
      setState('down');
      const delay = Math.min(30_000, 1000 * 2 ** attempt) * (0.5 + Math.random() / 2);
      attempt += 1;
      setTimeout(connect, delay);
    };
  };
  connect();
}
