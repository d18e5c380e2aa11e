/**
 * Inbound tracker webhooks. The delivery names the site or workspace, not the tenant: its
 * connections are found across tenants (`asSystem('inbound-routing')`) only after the signature
 * holds, and each is then updated as its own tenant.
 * - Jira: the webhooks we register are the dynamic webhooks of an OAuth 2.0 (3LO) app
 *   (`POST /rest/api/3/webhook`). Atlassian secures those with bearer authentication: a JWT in
 *   `Authorization`, signed with the app's client secret (developer.atlassian.com/cloud/jira/
 *   platform/webhooks, "Webhooks authentication for OAuth 2.0 apps"). `X-Hub-Signature` belongs to
 *   admin webhooks registered with a secret, which we never register, so it is not accepted.
 *   The site rides in `?site=`.
 * - Linear signs the raw body (HMAC-SHA256, header `linear-signature`) with the secret we gave the
 *   webhook when we created it (one per connection); `webhookTimestamp` in the signed body must be
 *   within a minute (`@linear/sdk`'s LinearWebhookClient checks both).
 */
import { LinearWebhookClient } from '@linear/sdk/webhooks';
import { jwtVerify } from 'jose';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { asSystem, withTenant } from '../../db/tenancy.js';
import { AppError } from '../../errors.js';
import { parseJsonBody } from '../../http/body.js';
import { jiraIssue } from '../jira/vendor.js';
import { linearIssue } from '../linear/vendor.js';
import type { Connection } from '../shared/connections.js';
import { settingsOf } from './mapping.js';
import { applyPage, connectionsForSite, markDeleted } from './store.js';
import { requireTrackerApp, webhookSecretOf } from './vendors.js';

export interface WebhookOutcome {
  applied: number;
  event: string;
}

const JiraEvent = z.object({
  webhookEvent: z.string(),
  issue: z.object({ id: z.union([z.string(), z.number()]), key: z.string().optional(), fields: z.record(z.string(), z.unknown()).optional() }).optional(),
});

/** Signed bytes first, then the JSON every route would accept (src/http/body.ts). */
const parseJson = (body: Buffer): unknown => parseJsonBody(body, 'Validation failed');

async function forEachConnection(app: AppContext, kind: 'jira' | 'linear', site: string, work: (c: Connection) => Promise<void>): Promise<number> {
  const { db } = app.database;
  const connections = await asSystem('inbound-routing', () => connectionsForSite(db, kind, site));
  const active = connections.filter((c) => c.state === 'active');
  for (const c of active) await withTenant(c.tenantId, () => work(c));
  return active.length;
}

/** Oldest `iat` accepted when a delivery's token carries no `exp`. */
const JIRA_TOKEN_MAX_AGE_SECONDS = 10 * 60;
const JIRA_CLOCK_TOLERANCE_SECONDS = 60;

/**
 * Verifies the bearer JWT of a Jira delivery: HS256 under the app's client secret (jose compares
 * the MAC with WebCrypto's constant-time verify). Atlassian does not document the claims, so the
 * replay window is `exp` when the token has one (jose checks it), else `iat` no older than ten
 * minutes; a token with neither has no window and is refused.
 */
export async function verifyJiraDelivery(clientSecret: string, authorization: string): Promise<void> {
  const token = /^(?:Bearer|JWT)\s+(\S+)$/i.exec(authorization)?.[1];
  if (!token) throw new AppError('unauthorized', 'Invalid webhook signature');
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(clientSecret), { algorithms: ['HS256'], clockTolerance: JIRA_CLOCK_TOLERANCE_SECONDS });
    if (payload.exp === undefined) {
      const now = Math.floor(Date.now() / 1000);
      const iat = payload.iat;
      if (typeof iat !== 'number' || now - iat > JIRA_TOKEN_MAX_AGE_SECONDS || iat - now > JIRA_CLOCK_TOLERANCE_SECONDS) throw new Error('no replay window');
    }
  } catch {
    throw new AppError('unauthorized', 'Invalid webhook signature');
  }
}

export async function receiveJiraWebhook(app: AppContext, input: { authorization: string; site: string | undefined; body: Buffer }): Promise<WebhookOutcome> {
  const tracker = requireTrackerApp(app.config, 'jira');
  await verifyJiraDelivery(tracker.clientSecret, input.authorization);
  if (!input.site) throw new AppError('validation_failed', 'Validation failed', [{ path: 'query.site', message: 'Required' }]);
  const parsed = JiraEvent.safeParse(parseJson(input.body));
  if (!parsed.success || !parsed.data.issue) return { applied: 0, event: parsed.success ? parsed.data.webhookEvent : 'unknown' };
  const { webhookEvent, issue } = parsed.data;
  const { db } = app.database;
  const applied = await forEachConnection(app, 'jira', input.site, async (c) => {
    if (webhookEvent === 'jira:issue_deleted') return markDeleted(db, c, [String(issue.id)]);
    await applyPage(app.database, c, [jiraIssue({ ...issue, id: String(issue.id) }, settingsOf(c.settings).siteUrl)]);
  });
  return { applied, event: webhookEvent };
}

const LinearEvent = z.object({
  type: z.string(),
  action: z.string(),
  organizationId: z.string().min(1),
  data: z.record(z.string(), z.unknown()),
});

export async function receiveLinearWebhook(app: AppContext, input: { signature: string; body: Buffer }): Promise<WebhookOutcome> {
  requireTrackerApp(app.config, 'linear');
  if (!input.signature) throw new AppError('unauthorized', 'Invalid webhook signature');
  const peek = LinearEvent.safeParse(parseJson(input.body));
  if (!peek.success) throw new AppError('unauthorized', 'Invalid webhook signature');
  const { db } = app.database;
  const master = app.config.oauthEncryptionKey;
  // Each connection's webhook has its own secret: the delivery belongs to the one whose secret signed it.
  const candidates = await asSystem('inbound-routing', () => connectionsForSite(db, 'linear', peek.data.organizationId));
  const signer = candidates.find((c) => {
    try {
      return new LinearWebhookClient(webhookSecretOf(master, c.id)).verify(input.body, input.signature);
    } catch {
      return false;
    }
  });
  if (!signer) throw new AppError('unauthorized', 'Invalid webhook signature');
  const { type, action, data } = peek.data;
  const event = `${type}.${action}`;
  if (type !== 'Issue' || signer.state !== 'active') return { applied: 0, event };
  await withTenant(signer.tenantId, async () => {
    if (action === 'remove' || data.trashed === true) await markDeleted(db, signer, [String(data.id)]);
    else await applyPage(app.database, signer, [linearIssue(data)]);
  });
  return { applied: 1, event };
}
