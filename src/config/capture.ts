/**
 * What `sessions:capture` (the AI-session hook, docs/ai-capture.md) reads from the environment.
 * Unlike the other groups it never fails: a hook must not stop the developer's tool, so a problem
 * is returned for the capture log instead of thrown.
 */
import { Reader, type Env } from './reader.js';
import { trimEnd } from '../shared/text.js';

export interface CaptureConfig {
  /** Where `delivery-analytics/` (credentials, capture log and queue) lives: XDG_CONFIG_HOME, else HOME/.config. */
  configHome: string | null;
  /** DELIVERY_ANALYTICS_URL and DELIVERY_ANALYTICS_API_KEY, set by an organisation's managed settings: they win over a login. */
  managedUrl: string | null;
  managedApiKey: string | null;
  /** Codex's home (CODEX_HOME, else HOME/.codex): its session files are under `sessions/YYYY/MM/DD/`. */
  codexHome: string | null;
  releaseVersion: string;
  problems: string[];
}

export function loadCaptureConfig(env: Env): Readonly<CaptureConfig> {
  const r = new Reader(env);
  const xdg = r.get('XDG_CONFIG_HOME');
  const home = r.get('HOME');
  const configHome = xdg !== null && xdg.startsWith('/') ? xdg : home !== null ? `${trimEnd(home, '/')}/.config` : null;
  const codexHome = r.get('CODEX_HOME') ?? (home !== null ? `${trimEnd(home, '/')}/.codex` : null);
  const managedUrl = r.get('DELIVERY_ANALYTICS_URL');
  const managedApiKey = r.get('DELIVERY_ANALYTICS_API_KEY');
  if ((managedUrl === null) !== (managedApiKey === null)) r.problems.push('DELIVERY_ANALYTICS_URL and DELIVERY_ANALYTICS_API_KEY are set together or not at all');
  if (configHome === null) r.problems.push('HOME (or XDG_CONFIG_HOME) is required for the capture log, queue and stored credentials');
  return Object.freeze({
    configHome,
    managedUrl: managedUrl !== null && managedApiKey !== null ? managedUrl : null,
    managedApiKey: managedUrl !== null && managedApiKey !== null ? managedApiKey : null,
    codexHome,
    releaseVersion: r.get('RELEASE_VERSION') ?? 'dev',
    problems: [...r.problems],
  });
}
