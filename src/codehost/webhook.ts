/**
 * Inbound webhooks of the code-host application. The signature is checked over the raw body
 * before anything is parsed or stored; a delivery is applied in one transaction together with
 * its delivery-id row, so a redelivery is a no-op and a failed delivery leaves nothing behind.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { codehostDeliveries } from '../db/schema/index.js';
import { checkJsonValue, INPUT_LIMITS } from '../shared/limits.js';
import { AppError, zodDetails } from '../errors.js';
import { applyIssue, applyPush, applyRepository, ensureProject, IssuesEvent, PullRequestEvent, PushEvent, RepositoryEvent } from './events.js';
import { applyPullRequestAndReviewers, applyPullRequestReview, PullRequestReviewEvent } from './reviews.js';
import { applyDeployment, applyDeploymentStatus, applyRelease, applyWorkflowRun, DeploymentEvent, DeploymentStatusEvent, ReleaseEvent, WorkflowRunEvent, type NotStored } from './deployments.js';
import { applyInstallationEvent, claimUnlinkedNotice, tenantOfInstallation } from './installations.js';
import { requestBackfill } from './backfill.js';
import type { Executor } from '../aiSessions/activityLinks.js';

export interface WebhookDelivery {
  event: string;
  deliveryId: string;
  signature: string;
  body: Buffer;
}

export interface WebhookOutcome {
  status: 200 | 202;
  stored: boolean;
  duplicate?: boolean;
  reason?: string;
}

/** `sha256=<hex>` over the raw body with the webhook secret, compared in constant time. */
export function verifySignature(secret: string, body: Buffer, header: string): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(match[1] as string, 'hex'));
}

/**
 * The events this service understands; others are acknowledged and ignored. `ignored` actions
 * change nothing stored and carry a partial object (an issue `pinned` has no state, labels or
 * assignee), so they are acknowledged like unused events rather than read.
 */
const TENANT_EVENTS = {
  pull_request: { schema: PullRequestEvent, apply: applyPullRequestAndReviewers, ignored: [] },
  // An edited review changes its text, not its verdict.
  pull_request_review: { schema: PullRequestReviewEvent, apply: applyPullRequestReview, ignored: ['edited'] },
  push: { schema: PushEvent, apply: applyPush, ignored: [] },
  issues: { schema: IssuesEvent, apply: applyIssue, ignored: ['pinned', 'unpinned'] },
  repository: { schema: RepositoryEvent, apply: applyRepository, ignored: [] },
  // Deployments from the code host's own records (deployments.ts, docs/codehost-deployments.md).
  deployment: { schema: DeploymentEvent, apply: applyDeployment, ignored: [] },
  deployment_status: { schema: DeploymentStatusEvent, apply: applyDeploymentStatus, ignored: [] },
  // Only a completed run has a conclusion.
  workflow_run: { schema: WorkflowRunEvent, apply: applyWorkflowRun, ignored: ['requested', 'in_progress'] },
  // A release is a deployment once published; a draft's creation or edit is not one.
  release: { schema: ReleaseEvent, apply: applyRelease, ignored: ['created', 'edited', 'prereleased'] },
} as const;

/** Whether a delivery of a handled event is acknowledged without being read (its action changes nothing stored). */
export const ignoredAction = (event: string, action: string | undefined): boolean =>
  action !== undefined && Object.hasOwn(TENANT_EVENTS, event) && (TENANT_EVENTS[event as keyof typeof TENANT_EVENTS].ignored as readonly string[]).includes(action);

/** Every event this service reads (tests feed each one the code host's own example payloads). */
export const HANDLED_EVENTS = ['ping', 'installation', 'installation_repositories', ...Object.keys(TENANT_EVENTS)] as const;

const Envelope = z.object({
  action: z.string().optional(),
  installation: z.object({ id: z.number().int().positive(), account: z.object({ login: z.string(), type: z.string().optional() }).optional() }).optional(),
  repositories: z.array(z.object({ full_name: z.string() })).optional(),
  repositories_added: z.array(z.object({ full_name: z.string() })).optional(),
});

function parse<T>(schema: z.ZodType<T>, payload: unknown): T {
  const result = schema.safeParse(payload);
  if (!result.success) throw new AppError('validation_failed', 'Webhook payload does not have the expected shape', zodDetails(result.error));
  return result.data;
}

/** Records the delivery id; false when it was already applied. */
async function claimDelivery(tx: Executor, delivery: WebhookDelivery, tenantId: string | null, installationId: number | null, action: string | null): Promise<boolean> {
  const rows = await tx
    .insert(codehostDeliveries)
    .values({ deliveryId: delivery.deliveryId, tenantId, installationId, event: delivery.event, action })
    .onConflictDoNothing()
    .returning({ id: codehostDeliveries.deliveryId });
  return rows.length > 0;
}

export async function receiveCodehostWebhook(app: AppContext, delivery: WebhookDelivery): Promise<WebhookOutcome> {
  const secret = app.config.codehostApp?.webhookSecret;
  if (!app.config.codehostApp) throw new AppError('unavailable', 'Code-host webhooks are not accepted: the code-host application is not configured (CODEHOST_APP_ID)');
  if (!secret) throw new AppError('unavailable', 'Code-host webhooks are not accepted: CODEHOST_APP_WEBHOOK_SECRET is not set');
  if (!verifySignature(secret, delivery.body, delivery.signature)) throw new AppError('unauthorized', 'Invalid webhook signature');
  if (!delivery.event || !/^[\w.-]{1,200}$/.test(delivery.deliveryId)) {
    throw new AppError('validation_failed', 'Missing code-host headers', [
      ...(delivery.event ? [] : [{ path: 'X-GitHub-Event', message: 'Required' }]),
      ...(/^[\w.-]{1,200}$/.test(delivery.deliveryId) ? [] : [{ path: 'X-GitHub-Delivery', message: 'Required' }]),
    ]);
  }
  let payload: unknown;
  try {
    payload = JSON.parse(delivery.body.toString('utf8'));
  } catch {
    throw new AppError('validation_failed', 'Webhook body is not valid JSON', [{ path: 'body', message: 'Body is not valid JSON' }]);
  }
  // Signed, but its strings are what users typed on the code host: refuse what PostgreSQL cannot store.
  const unstorable = checkJsonValue(payload, INPUT_LIMITS.jsonDepth);
  if (unstorable.length > 0) throw new AppError('validation_failed', 'Webhook payload cannot be stored', unstorable);
  const envelope = parse(Envelope, payload);
  const installation = envelope.installation;
  const { db } = app.database;

  if (delivery.event === 'ping') return { status: 200, stored: false, reason: 'ping' };

  if (delivery.event === 'installation' || delivery.event === 'installation_repositories') {
    if (!installation) throw new AppError('validation_failed', 'Webhook payload does not have the expected shape', [{ path: 'installation', message: 'Required' }]);
    const added: { tenantId: string; projectId: string }[] = [];
    const outcome = await db.transaction(async (tx): Promise<WebhookOutcome> => {
      if (delivery.event === 'installation') await applyInstallationEvent(tx, envelope.action ?? '', installation);
      const tenantId = await tenantOfInstallation(tx, installation.id);
      if (!(await claimDelivery(tx, delivery, tenantId, installation.id, envelope.action ?? null))) return { status: 200, stored: false, duplicate: true };
      // Repositories of a linked installation become projects now; an unlinked one keeps only its registry row.
      if (tenantId) {
        // Only repositories newly granted get a backfill: every other installation action (suspend,
        // new permissions…) repeats the whole list, and restarting every finished walk would spend
        // the rate limit on 90 days already read.
        const granted = new Set((delivery.event === 'installation_repositories' ? envelope.repositories_added : envelope.action === 'created' ? envelope.repositories : undefined)?.map((r) => r.full_name) ?? []);
        for (const repo of [...(envelope.repositories ?? []), ...(envelope.repositories_added ?? [])]) {
          const projectId = (await ensureProject(tx, tenantId, repo.full_name)).id;
          if (granted.has(repo.full_name)) added.push({ tenantId, projectId });
        }
      }
      return { status: 200, stored: true };
    });
    // A repository newly granted to a linked installation: its last 90 days of deployments (backfill.ts).
    // The delivery is stored: a queue that refuses the job is logged, not answered as a failed delivery.
    for (const project of added) {
      await requestBackfill(app, { ...project, installationId: installation.id })
        .catch((error: unknown) => app.log.warn({ err: error, installationId: installation.id, projectId: project.projectId }, 'the backfill of an added repository could not be queued'));
    }
    return outcome;
  }

  // Own keys only: `constructor` is an event name the header may carry, not a handler.
  const handler = Object.hasOwn(TENANT_EVENTS, delivery.event) ? TENANT_EVENTS[delivery.event as keyof typeof TENANT_EVENTS] : undefined;
  if (!handler) return { status: 200, stored: false, reason: `event ${delivery.event} is not used` };
  if (ignoredAction(delivery.event, envelope.action)) return { status: 200, stored: false, reason: `action ${envelope.action} of ${delivery.event} is not used` };
  if (!installation) return { status: 202, stored: false, reason: 'the delivery names no installation' };

  const tenantId = await tenantOfInstallation(db, installation.id);
  if (!tenantId) {
    if (await claimUnlinkedNotice(db, installation.id, installation.account ?? null)) {
      app.log.warn({ installationId: installation.id, event: delivery.event }, 'code-host installation is not linked to a tenant; its events are not stored (logged once)');
    }
    return { status: 202, stored: false, reason: 'installation is not linked to a tenant' };
  }
  const event = parse(handler.schema as z.ZodType<unknown>, payload);
  return db.transaction(async (tx) => {
    if (!(await claimDelivery(tx, delivery, tenantId, installation.id, envelope.action ?? null))) return { status: 200 as const, stored: false, duplicate: true };
    // A deployment from a source the project does not use is acknowledged, with the delivery recorded.
    const skipped = await (handler.apply as (tx: Executor, tenantId: string, event: unknown) => Promise<NotStored | void>)(tx, tenantId, event);
    if (skipped) return { status: 200 as const, stored: false, reason: skipped.reason };
    return { status: 200 as const, stored: true };
  });
}
