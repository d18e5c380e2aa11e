/**
 * Inbound tracker webhooks. The delivery names the site or workspace, not the tenant: its
 * connections are found across tenants (`asSystem('inbound-routing')`) only after the signature
 * holds, and each is then updated as its own tenant.
 * - Jira: the webhooks we register are the dynamic webhooks of an OAuth 2.0 (3LO) app
 *   (`POST /rest/api/3/webhook`). Atlassian secures those with bearer authentication: a JWT in
 *   `Authorization`, signed with the app's client secret (developer.atlassian.com/cloud/jira/
 *   platform/webhooks, "Webhooks authentication for OAuth 2.0 apps"). That token is the app's,
 *   the same for every site, and covers neither the URL nor the body, so the URL we register
 *   carries the site's own key beside `?site=` (vendors.ts): a token delivered for site A does not
 *   open site B. Admin webhooks, which a Jira administrator registers with a secret, are signed
 *   instead with `X-Hub-Signature: sha256=<hex HMAC-SHA256 of the body>`; the secret is the
 *   connection's own (shown to its owner), so the signature binds body, site and connection.
 *   Either way `X-Atlassian-Webhook-Identifier` (the same on Atlassian's retries) is taken once.
 * - Linear signs the raw body (HMAC-SHA256, header `linear-signature`) with the secret we gave the
 *   webhook when we created it (one per connection); `webhookTimestamp` in the signed body must be
 *   within a minute (`@linear/sdk`'s LinearWebhookClient checks both).
 */
import { LinearWebhookClient } from '@linear/sdk/webhooks';
import { jwtVerify } from 'jose';
import { safeEqual } from '../../auth/secrets.js';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { asSystem, withTenant } from '../../db/tenancy.js';
import { AppError } from '../../errors.js';
import { parseJsonBody } from '../../http/body.js';
import { verifySignature } from '../../codehost/webhook.js';
import { jiraIssue } from '../jira/vendor.js';
import { linearIssue } from '../linear/vendor.js';
import type { Connection } from '../shared/connections.js';
import { onceForDelivery } from '../shared/deliveries.js';
import { settingsOf } from './mapping.js';
import { applyPage, connectionsForSite, markDeleted } from './store.js';
import { jiraSiteKeyOf, requireTrackerApp, webhookSecretOf } from './vendors.js';

export interface WebhookOutcome {
  applied: number;
  event: string;
  /** Set when the delivery's identifier was taken before: acknowledged, not applied again. */
  duplicate?: true;
}

const JiraEvent = z.object({
  webhookEvent: z.string(),
  issue: z.object({ id: z.union([z.string(), z.number()]), key: z.string().optional(), fields: z.record(z.string(), z.unknown()).optional() }).optional(),
});

/** Signed bytes first, then the JSON every route would accept (src/http/body.ts). */
const parseJson = (body: Buffer): unknown => parseJsonBody(body, 'Validation failed');

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

export interface JiraDelivery {
  authorization: string;
  /** `X-Hub-Signature` of an admin webhook; empty for our dynamic webhooks. */
  hubSignature: string;
  /** `X-Atlassian-Webhook-Identifier`. */
  identifier: string;
  site: string | undefined;
  /** The site key of a dynamic webhook's URL. */
  key: string | undefined;
  body: Buffer;
}

const IDENTIFIER = /^[\w.:-]{1,200}$/;

/**
 * Which connections a Jira delivery may change: every active one of the site for a dynamic
 * webhook (its token and the site's key verified), or the one connection whose secret signed an
 * admin webhook.
 */
async function jiraTargets(app: AppContext, clientSecret: string, input: JiraDelivery & { site: string }): Promise<Connection[]> {
  const { db } = app.database;
  const master = app.config.oauthEncryptionKey;
  if (input.hubSignature) {
    const candidates = await asSystem('inbound-routing', () => connectionsForSite(db, 'jira', input.site));
    const signer = candidates.find((c) => verifySignature(webhookSecretOf(master, c.id), input.body, input.hubSignature));
    if (!signer) throw new AppError('unauthorized', 'Invalid webhook signature');
    return signer.state === 'active' ? [signer] : [];
  }
  await verifyJiraDelivery(clientSecret, input.authorization);
  if (!safeEqual(input.key ?? '', jiraSiteKeyOf(master, input.site))) throw new AppError('unauthorized', 'Invalid webhook signature');
  const connections = await asSystem('inbound-routing', () => connectionsForSite(db, 'jira', input.site));
  return connections.filter((c) => c.state === 'active');
}

export async function receiveJiraWebhook(app: AppContext, input: JiraDelivery): Promise<WebhookOutcome> {
  const tracker = requireTrackerApp(app.config, 'jira');
  const site = input.site;
  if (!site) {
    // Refused before anything else only when unsigned: a signed delivery without a site is a bad URL.
    if (!input.hubSignature) await verifyJiraDelivery(tracker.clientSecret, input.authorization);
    throw new AppError('validation_failed', 'Validation failed', [{ path: 'query.site', message: 'Required' }]);
  }
  const targets = await jiraTargets(app, tracker.clientSecret, { ...input, site });
  if (!IDENTIFIER.test(input.identifier)) throw new AppError('validation_failed', 'Validation failed', [{ path: 'X-Atlassian-Webhook-Identifier', message: 'Required' }]);
  const parsed = JiraEvent.safeParse(parseJson(input.body));
  const event = parsed.success ? parsed.data.webhookEvent : 'unknown';
  if (!parsed.success || !parsed.data.issue) return { applied: 0, event };
  const { issue } = parsed.data;
  const { db } = app.database;
  return onceForDelivery<WebhookOutcome>(db, 'jira', `${site}:${input.identifier}`, { applied: 0, event, duplicate: true }, async () => {
    for (const c of targets) {
      await withTenant(c.tenantId, async () => {
        if (event === 'jira:issue_deleted') return markDeleted(db, c, [String(issue.id)]);
        await applyPage(app.database, c, [jiraIssue({ ...issue, id: String(issue.id) }, settingsOf(c.settings).siteUrl)]);
      });
    }
    return { applied: targets.length, event };
  });
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
