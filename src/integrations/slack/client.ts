/**
 * Slack's own Web API client, pointed at SLACK_API_BASE_URL. It never retries on its own: a job
 * that called Slack is retried by the job system, and a request handler must answer in time.
 */
import { WebClient, type Logger as SlackLogger, LogLevel } from '@slack/web-api';
import type { Config } from '../../config/index.js';

// The client's own logger would print to the console; what matters is logged by our callers.
const quiet: SlackLogger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => LogLevel.ERROR,
  setName: () => {},
};

export function slackClient(config: Readonly<Config>, token?: string): WebClient {
  return new WebClient(token, { slackApiUrl: `${config.vendorUrls.slackApi}/`, logger: quiet, retryConfig: { retries: 0 }, timeout: 10_000 });
}

/** The grant is gone (uninstalled, revoked): only reconnecting repairs it. */
export function grantRefused(error: unknown): boolean {
  const code = (error as { data?: { error?: string } }).data?.error;
  return code === 'invalid_auth' || code === 'token_revoked' || code === 'account_inactive' || code === 'not_authed';
}

/** Slack's error code for a failed Web API call (never the request, which may carry the token). */
export function slackErrorCode(error: unknown): string {
  return (error as { data?: { error?: string } }).data?.error ?? (error as { code?: string }).code ?? 'request failed';
}
