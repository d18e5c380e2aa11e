/**
 * `/delivery [team] [month]`. Slack wants an answer within three seconds, and the figures may take
 * longer: the request is verified, routed to its tenant and acknowledged at once, and a job posts
 * the answer to the command's `response_url` (valid for 30 minutes) from whichever instance takes it.
 */
import { and, eq, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { teams } from '../../db/schema/index.js';
import { asSystem } from '../../db/tenancy.js';
import { defineJob } from '../../jobs/define.js';
import { connectionById, connectionByExternalId, setConnectionState, tokensOf } from '../shared/connections.js';
import { dayOf, formatFigure, monthSpan, teamFigures, teamPageUrl, type DaySpan, type Figure } from '../shared/teamFigures.js';
import { grantRefused, slackClient, slackErrorCode } from './client.js';
import { personByEmail, verifiedEmailOf } from './people.js';
import { MONTH_PATTERN, Uuid } from '../../shared/schemas.js';
import type { SlashCommandForm } from './schemas.js';

export const SLASH_COMMAND_JOB = 'slack.command';

type Ephemeral = { response_type: 'ephemeral'; text: string };
const ephemeral = (text: string): Ephemeral => ({ response_type: 'ephemeral', text });

/** Slack's response URLs are on hooks.slack.com; with SLACK_API_BASE_URL set (tests), on that origin. */
export function responseUrlAllowed(app: AppContext, url: string): boolean {
  const origin = new URL(url).origin;
  const api = new URL(app.config.vendorUrls.slackApi).origin;
  return api === 'https://slack.com' ? origin === 'https://hooks.slack.com' : origin === api;
}

/** The acknowledgment, within Slack's three seconds; the figures follow through the job. */
export async function receiveSlashCommand(app: AppContext, form: z.infer<typeof SlashCommandForm>): Promise<Ephemeral> {
  const connection = await asSystem('inbound-routing', () => connectionByExternalId(app.database.db, 'slack', form.team_id));
  if (!connection) return ephemeral('This Slack workspace is not connected to Delivery Analytics. An owner connects it under Settings › Integrations.');
  if (connection.state === 'needs_reconnect') return ephemeral('The Delivery Analytics connection of this workspace needs to be reconnected by an owner (Settings › Integrations).');
  if (!responseUrlAllowed(app, form.response_url)) return ephemeral('This request cannot be answered.');
  await app.jobs.send(slashCommandJob, { tenantId: connection.tenantId, connectionId: connection.id, slackUserId: form.user_id, text: form.text, responseUrl: form.response_url });
  return ephemeral(`Looking up the figures${form.text.trim() ? ` for “${form.text.trim()}”` : ''}…`);
}


/** `[team] [month]` in either order; the month is YYYY-MM. */
export function parseArguments(text: string): { team: string | null; month: string | null } {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const month = words.find((w) => MONTH_PATTERN.test(w)) ?? null;
  const rest = words.filter((w) => w !== month);
  return { team: rest.length ? rest.join(' ') : null, month };
}

/** A closed month whole; the current month up to today (month to date). */
export function spanOfMonth(month: string, now = Date.now()): { span: DaySpan; label: string } | null {
  const current = dayOf(now).slice(0, 7);
  if (month > current) return null;
  const whole = monthSpan(month);
  return month === current ? { span: { from: whole.from, to: dayOf(now) }, label: `${month} (month to date)` } : { span: whole, label: month };
}

export function figureLines(figures: Figure[]): string {
  return ['DORA', 'Flow']
    .map((group) => `*${group}*\n${figures.filter((f) => f.def.group === group).map((f) => `• ${f.def.title}: ${formatFigure(f)}`).join('\n')}`)
    .join('\n');
}

async function respond(url: string, body: Record<string, unknown>): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`response_url answered ${res.status}`);
}

const Payload = z.object({ tenantId: Uuid, connectionId: Uuid, slackUserId: z.string().max(50), text: z.string().max(500), responseUrl: z.url() });

export const slashCommandJob = defineJob({
  name: SLASH_COMMAND_JOB,
  summary: 'Answers a /delivery slash command: matches the Slack user to a person of the tenant by verified e-mail and posts the team\'s figures to the command\'s response URL.',
  idempotency: 'Reads only; a retry posts the answer again to the same response URL, which replaces the first (replace_original).',
  payload: Payload,
  tenantOf: (p) => p.tenantId,
  retryLimit: 2,
  retryDelaySeconds: 2,
  expireInSeconds: 120,
  async run(ctx, p) {
    const { app } = ctx;
    const reply = (text: string) => respond(p.responseUrl, { response_type: 'ephemeral', replace_original: true, text });
    const connection = await connectionById(app.database.db, p.tenantId, p.connectionId);
    if (!connection) return reply('This Slack workspace is no longer connected to Delivery Analytics.').then(() => ({ answered: 'disconnected' }));
    const client = slackClient(app.config, tokensOf(app.config.oauthEncryptionKey, connection).accessToken);
    let email: string | null;
    try {
      email = await verifiedEmailOf(client, p.slackUserId);
    } catch (error) {
      if (grantRefused(error)) await setConnectionState(app.database.db, connection.id, 'needs_reconnect', 'Slack refused the bot token (uninstalled or revoked); connect Slack again');
      app.log.warn({ vendor: 'slack', connectionId: connection.id, error: slackErrorCode(error) }, 'slack users.info failed');
      throw new Error(`users.info failed: ${slackErrorCode(error)}`);
    }
    const person = email ? await personByEmail(app.database.db, p.tenantId, email) : null;
    if (!person) {
      await reply('Sorry, I could not match your Slack account to a person of this organisation by a verified e-mail address, so I cannot show its figures. Ask an owner to add your work e-mail to the register.');
      return { answered: 'unmatched' };
    }
    const args = parseArguments(p.text);
    const month = args.month ?? dayOf(Date.now()).slice(0, 7);
    const window = spanOfMonth(month);
    if (!window) return reply(`${month} has not begun yet. Try \`/delivery [team] [YYYY-MM]\`.`).then(() => ({ answered: 'future' }));
    let team: { id: string; slug: string; name: string } | undefined;
    if (args.team) {
      const name = args.team.toLowerCase();
      [team] = await app.database.db
        .select({ id: teams.id, slug: teams.slug, name: teams.name })
        .from(teams)
        .where(and(eq(teams.tenantId, p.tenantId), eq(teams.enabled, true), or(eq(teams.slug, name), sql`lower(${teams.name}) = ${name}`)))
        .limit(1);
      if (!team) return reply(`No team “${args.team}” here. Usage: \`/delivery [team] [YYYY-MM]\`, the team by its slug or name.`).then(() => ({ answered: 'unknown team' }));
    } else if (person.teams.length === 1) {
      team = person.teams[0];
    } else {
      const known = person.teams.map((t) => `\`${t.slug}\``).join(', ');
      return reply(person.teams.length ? `You belong to several teams (${known}); name one: \`/delivery <team> [YYYY-MM]\`.` : 'Name a team: `/delivery <team> [YYYY-MM]`.').then(() => ({ answered: 'which team' }));
    }
    const figures = await teamFigures(app.database.pool, p.tenantId, team!.id, window.span);
    const link = teamPageUrl(app.config.appUrl, team!.id);
    await respond(p.responseUrl, {
      response_type: 'ephemeral',
      replace_original: true,
      text: `*${team!.name}* — ${window.label}\n${figureLines(figures)}\n<${link}|Open the team page>`,
    });
    return { answered: 'figures', team: team!.slug, month };
  },
});
