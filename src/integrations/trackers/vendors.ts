/** The two trackers by kind, their configured applications, and what each connection's webhooks need. */
import { createHmac, hkdfSync } from 'node:crypto';
import type { Config, TrackerApp } from '../../config/index.js';
import { AppError } from '../../errors.js';
import { jiraVendor } from '../jira/vendor.js';
import { linearVendor } from '../linear/vendor.js';
import type { TrackerKind, TrackerVendor } from './types.js';

export const VENDORS: Record<TrackerKind, TrackerVendor> = { jira: jiraVendor, linear: linearVendor };
export const TRACKER_NAMES: Record<TrackerKind, string> = { jira: 'Jira', linear: 'Linear' };

export const trackerAppOf = (config: Readonly<Config>, kind: TrackerKind): TrackerApp | null => config.trackers[kind];

/** An unconfigured tracker does not exist for its routes: 404, like an unknown path. */
export function requireTrackerApp(config: Readonly<Config>, kind: TrackerKind): TrackerApp {
  const app = trackerAppOf(config, kind);
  if (!app) throw new AppError('not_found', 'Not found');
  return app;
}

/**
 * Jira posts to one URL per app: the site rides in the query so the delivery finds its connections,
 * with the site's key beside it, since the app-wide token Jira signs names no site (webhooks.ts).
 */
export const webhookUrlOf = (config: Readonly<Config>, kind: TrackerKind, site: string) =>
  kind === 'jira'
    ? `${jiraAdminWebhookUrlOf(config, site)}&key=${jiraSiteKeyOf(config.oauthEncryptionKey, site)}`
    : `${config.appUrl}/api/integrations/linear/webhook`;

/** Where a Jira administrator points an admin webhook of the site: signed by its secret, it needs no key. */
export const jiraAdminWebhookUrlOf = (config: Readonly<Config>, site: string) => `${config.appUrl}/api/integrations/jira/webhook?site=${encodeURIComponent(site)}`;

const siteKeys = new WeakMap<Buffer, Buffer>();
/**
 * The key in the URL of a Jira site's dynamic webhooks: an HMAC of the site id under a key of its
 * own (HKDF from OAUTH_ENCRYPTION_KEY), so only the URL registered for that site carries it.
 */
export function jiraSiteKeyOf(master: Buffer, site: string): string {
  let key = siteKeys.get(master);
  if (!key) siteKeys.set(master, (key = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'delivery-analytics/jira-webhook-site', 32))));
  return createHmac('sha256', key).update(site).digest('base64url');
}

const secretKeys = new WeakMap<Buffer, Buffer>();
/**
 * The signing secret of one connection's webhook (Linear's, registered through the API; Jira's
 * admin webhook, pasted by a Jira administrator): derived (HKDF key of its own, then HMAC of
 * the connection id), so it needs no storage and differs for every connection.
 */
export function webhookSecretOf(master: Buffer, connectionId: string): string {
  let key = secretKeys.get(master);
  if (!key) secretKeys.set(master, (key = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'delivery-analytics/tracker-webhook-secret', 32))));
  return createHmac('sha256', key).update(connectionId).digest('base64url');
}
