/**
 * The monthly publication. A daily window (04:00 UTC) fans out over every tenant's active Notion
 * connection with a parent page that has not published the last closed month yet, one job each;
 * so the month is published on the 1st, or on the first day after an outage, and not again.
 */
import { z } from 'zod';
import { asSystem } from '../../db/tenancy.js';
import { defineJob } from '../../jobs/define.js';
import { scheduled } from '../../jobs/maintenance.js';
import { activeConnections, connectionById } from '../shared/connections.js';
import { publishMonth } from './publish.js';
import { closedMonth } from '../../shared/monthWindow.js';
import { Month, Uuid } from '../../shared/schemas.js';

export const NOTION_PUBLISH_JOB = 'notion.publish';

const Payload = z.object({ tenantId: Uuid, connectionId: Uuid, month: Month });

export const notionPublish = defineJob({
  name: NOTION_PUBLISH_JOB,
  summary: 'Writes the month\'s page of every enabled team under the connection\'s parent page in Notion.',
  idempotency: 'A team\'s page of a month is remembered in docs_pages: a second run rewrites the same page instead of creating one.',
  payload: Payload,
  tenantOf: (p) => p.tenantId,
  retryLimit: 3,
  retryDelaySeconds: 60,
  expireInSeconds: 15 * 60,
  async run(ctx, p) {
    const connection = await connectionById(ctx.app.database.db, p.tenantId, p.connectionId);
    if (!connection || connection.kind !== 'notion') return { skipped: 'connection removed' };
    return publishMonth(ctx.app, connection, p.month);
  },
});

export const notionPublishDue = defineJob({
  ...scheduled,
  name: 'notion.publish-due',
  summary: 'Daily: enqueues the publication of the last closed month for each Notion connection that has a parent page and has not published that month.',
  idempotency: 'Skips connections whose settings record the month as published; a publication rewrites the same pages anyway.',
  async run(ctx, payload) {
    const month = closedMonth(new Date(payload.windowStart));
    const due = await asSystem('schedule', () => activeConnections(ctx.app.database.db, 'notion'));
    let sent = 0;
    for (const c of due) {
      if (!c.settings.parentPageId || c.settings.publishedMonth === month) continue;
      await ctx.app.jobs.send(notionPublish, { tenantId: c.tenantId, connectionId: c.id, month });
      sent += 1;
    }
    return { month, sent };
  },
});
