/**
 * Weekly digests. An owner chooses a channel per team (connection settings `digestChannels`);
 * every Monday at 07:00 UTC one instance wins the schedule window and fans out one job per team
 * and channel. Each job claims its (team, channel, week) row before posting, so a retried job, a
 * re-run fan-out or three instances post a week's digest once; a failed post gives its claim back.
 */
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { chatDigestPosts, teams } from '../../db/schema/index.js';
import { asSystem } from '../../db/tenancy.js';
import { defineJob } from '../../jobs/define.js';
import { scheduled } from '../../jobs/maintenance.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { activeConnections, connectionById, setConnectionState, tokensOf, updateSettings, type Connection } from '../shared/connections.js';
import { DAY_MS, dayOf, formatChange, formatFigure, teamFigures, teamPageUrl, type Figure } from '../shared/teamFigures.js';
import { grantRefused, slackClient, slackErrorCode } from './client.js';
import { Uuid } from '../../shared/schemas.js';

export const DIGEST_JOB = 'slack.digest';
const WEEK_SECONDS = 7 * 86_400;
/** 1970-01-01 was a Thursday: four days and seven hours on is Monday 07:00 UTC. */
export const DIGEST_SCHEDULE = { name: 'slack.digests', job: 'slack.digests-due', everySeconds: WEEK_SECONDS, offsetSeconds: 4 * 86_400 + 7 * 3600, summary: 'Mondays at 07:00 UTC: the weekly team digests in Slack.' };

/** The Monday (UTC) of the week before the window's. */
export const reportedWeekOf = (windowStart: string) => dayOf(Date.parse(`${windowStart.slice(0, 10)}T00:00:00Z`) - 7 * DAY_MS);

export function digestText(team: { id: string; name: string }, weekStart: string, week: Figure[], before: Figure[], monthToDate: Figure[], mtdLabel: string, appUrl: string): string {
  const weekEnd = dayOf(Date.parse(`${weekStart}T00:00:00Z`) + 6 * DAY_MS);
  const line = (f: Figure, i: number) => {
    const change = formatChange(f, before[i] as Figure);
    return `• ${f.def.title}: ${formatFigure(f)}${change ? ` (${change} on the week before)` : ''}`;
  };
  return [
    `*${team.name}* — week of ${weekStart} to ${weekEnd}`,
    ...week.map(line),
    `*Month to date* (${mtdLabel})`,
    ...monthToDate.map((f) => `• ${f.def.title}: ${formatFigure(f)}`),
    `<${teamPageUrl(appUrl, team.id)}|Open the team page>`,
  ].join('\n');
}

const Payload = z.object({ tenantId: Uuid, connectionId: Uuid, teamId: Uuid, channel: z.string().max(50), weekStart: z.iso.date() });

export const slackDigest = defineJob({
  name: DIGEST_JOB,
  summary: 'Posts one team\'s weekly digest (last week against the week before, and the month to date) to its Slack channel.',
  idempotency: 'Claims (team, channel, week) in chat_digest_posts before posting; a second run finds the claim and posts nothing. A failed post removes its claim so the retry posts.',
  payload: Payload,
  tenantOf: (p) => p.tenantId,
  retryLimit: 3,
  retryDelaySeconds: 30,
  expireInSeconds: 300,
  async run(ctx, p) {
    const { db, pool } = ctx.app.database;
    const connection = await connectionById(db, p.tenantId, p.connectionId);
    if (!connection || connection.kind !== 'slack' || connection.state !== 'active') return { skipped: 'connection not active' };
    const [team] = await db.select({ id: teams.id, name: teams.name }).from(teams).where(and(eq(teams.tenantId, p.tenantId), eq(teams.id, p.teamId)));
    if (!team) return { skipped: 'team removed' };
    const claimed = await db.insert(chatDigestPosts).values({ tenantId: p.tenantId, connectionId: p.connectionId, teamId: p.teamId, channel: p.channel, weekStart: p.weekStart }).onConflictDoNothing().returning();
    if (claimed.length === 0) return { skipped: 'already posted' };
    const release = () => db.delete(chatDigestPosts).where(and(eq(chatDigestPosts.teamId, p.teamId), eq(chatDigestPosts.channel, p.channel), eq(chatDigestPosts.weekStart, p.weekStart)));
    try {
      const start = Date.parse(`${p.weekStart}T00:00:00Z`);
      const lastDay = dayOf(start + 6 * DAY_MS);
      const [week, before, monthToDate] = await Promise.all([
        teamFigures(pool, p.tenantId, team.id, { from: p.weekStart, to: lastDay }),
        teamFigures(pool, p.tenantId, team.id, { from: dayOf(start - 7 * DAY_MS), to: dayOf(start - DAY_MS) }),
        teamFigures(pool, p.tenantId, team.id, { from: `${lastDay.slice(0, 7)}-01`, to: lastDay }),
      ]);
      const text = digestText(team, p.weekStart, week, before, monthToDate, `${lastDay.slice(0, 7)}-01 to ${lastDay}`, ctx.app.config.appUrl);
      const client = slackClient(ctx.app.config, tokensOf(ctx.app.config.oauthEncryptionKey, connection).accessToken);
      const posted = await client.chat.postMessage({ channel: p.channel, text, unfurl_links: false });
      await db.update(chatDigestPosts).set({ postedAt: sql`now()`, messageTs: posted.ts ?? null }).where(and(eq(chatDigestPosts.teamId, p.teamId), eq(chatDigestPosts.channel, p.channel), eq(chatDigestPosts.weekStart, p.weekStart)));
      return { posted: true };
    } catch (error) {
      await release();
      if (grantRefused(error)) {
        await setConnectionState(db, connection.id, 'needs_reconnect', 'Slack refused the bot token (uninstalled or revoked); connect Slack again');
        return { skipped: 'grant refused' };
      }
      throw new Error(`digest not posted: ${slackErrorCode(error)}`);
    }
  },
});

export const slackDigestsDue = defineJob({
  ...scheduled,
  name: DIGEST_SCHEDULE.job,
  summary: 'Mondays: one slack.digest job per team and chosen channel of every active Slack connection.',
  idempotency: 'The digest jobs claim their week before posting; a second fan-out enqueues jobs that find their claim and post nothing.',
  async run(ctx, payload) {
    const weekStart = reportedWeekOf(payload.windowStart);
    const connections = await asSystem('schedule', () => activeConnections(ctx.app.database.db, 'slack'));
    let sent = 0;
    for (const c of connections) {
      for (const [teamId, channel] of Object.entries((c.settings.digestChannels as Record<string, string> | undefined) ?? {})) {
        await ctx.app.jobs.send(slackDigest, { tenantId: c.tenantId, connectionId: c.id, teamId, channel, weekStart });
        sent += 1;
      }
    }
    return { weekStart, sent };
  },
});

/**
 * One team's digest channel on a connection (null stops that team's digest); the team must be the
 * tenant's. Returns the connection as stored.
 */
export async function setDigestChannel(db: Db, tenantId: string, connection: Connection, teamId: string, channel: string | null): Promise<Connection> {
  const [team] = await db.select({ id: teams.id }).from(teams).where(and(eq(teams.tenantId, tenantId), eq(teams.id, teamId)));
  if (!team) throw new AppError('validation_failed', 'Validation failed', [{ path: 'teamId', message: 'Unknown team' }]);
  const channels = { ...((connection.settings.digestChannels as Record<string, string> | undefined) ?? {}) };
  if (channel === null) delete channels[teamId];
  else channels[teamId] = channel;
  await updateSettings(db, connection.id, { ...connection.settings, digestChannels: channels });
  return { ...connection, settings: { ...connection.settings, digestChannels: channels } };
}
