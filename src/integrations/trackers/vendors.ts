/** The two trackers by kind, their configured applications, and what each connection's webhooks need. */
import { createHmac, hkdfSync } from 'node:crypto';
import type { Config, TrackerApp } from '../../config.js';
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

/** Jira posts to one URL per app: the site rides in the query so the delivery finds its connections. */
export const webhookUrlOf = (config: Readonly<Config>, kind: TrackerKind, site: string) =>
  kind === 'jira' ? `${config.appUrl}/api/integrations/jira/webhook?site=${encodeURIComponent(site)}` : `${config.appUrl}/api/integrations/linear/webhook`;

const secretKeys = new WeakMap<Buffer, Buffer>();
/**
 * The signing secret of one connection's Linear webhook: derived (HKDF key of its own, then HMAC of
 * the connection id), so it needs no storage and differs for every connection.
 */
export function webhookSecretOf(master: Buffer, connectionId: string): string {
  let key = secretKeys.get(master);
  if (!key) secretKeys.set(master, (key = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'delivery-analytics/tracker-webhook-secret', 32))));
  return createHmac('sha256', key).update(connectionId).digest('base64url');
}
