/**
 * The monthly team pages: under the owner's chosen parent page, one page per enabled team and
 * closed month with the team's figures (a table against the month before and a short narrative of
 * the changes). Publishing a month again rewrites the same page (docs_pages remembers it), so a
 * retried or repeated run never duplicates a page.
 */
import { and, eq } from 'drizzle-orm';
import type { Client } from '@notionhq/client';
import type { AppContext } from '../../context.js';
import { docsPages, teams } from '../../db/schema/index.js';
import { recordSync, setConnectionState, tokensOf, updateSettings, type Connection } from '../shared/connections.js';
import { formatChange, formatFigure, monthSpan, teamFigures, teamPageUrl, type Figure } from '../shared/teamFigures.js';
import { notionClient, notionErrorCode } from './client.js';
import { previousMonth } from '../../shared/monthWindow.js';

const text = (content: string, link?: string) => [{ type: 'text' as const, text: { content, ...(link ? { link: { url: link } } : {}) } }];

export function pageTitle(teamName: string, month: string): string {
  return `${teamName} — delivery ${month}`;
}

/** "Production deployments" → "production deployments"; an initialism ("PRs merged") stays. */
const lowerFirst = (s: string) => (/^[A-Z][a-z]/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s);

export function narrative(teamName: string, month: string, current: Figure[], previous: Figure[]): string {
  const changes = current
    .map((f, i) => [f, formatChange(f, previous[i] as Figure)] as const)
    .filter(([, change]) => change !== null && !change.startsWith('±'))
    .map(([f, change]) => `${lowerFirst(f.def.title)} ${change}`);
  const lead = `${teamName} in ${month}: ${formatFigure(current[0] as Figure)} production deployments and ${formatFigure(current[4] as Figure)} pull requests merged.`;
  return changes.length ? `${lead} Against ${previousMonth(month)}: ${changes.join(', ')}.` : `${lead} No change against ${previousMonth(month)}.`;
}

// Notion's block types are a wide union; the few used here are built as plain objects.
type Block = Record<string, unknown>;

export function pageBlocks(team: { id: string; name: string }, month: string, current: Figure[], previous: Figure[], appUrl: string): Block[] {
  const row = (cells: string[]) => ({ type: 'table_row', table_row: { cells: cells.map((c) => text(c)) } });
  return [
    { type: 'paragraph', paragraph: { rich_text: text(narrative(team.name, month, current, previous)) } },
    {
      type: 'table',
      table: {
        table_width: 4,
        has_column_header: true,
        has_row_header: true,
        children: [
          row(['Measure', month, previousMonth(month), 'Change']),
          ...current.map((f, i) => row([f.def.title, formatFigure(f), formatFigure(previous[i] as Figure), formatChange(f, previous[i] as Figure) ?? '—'])),
        ],
      },
    },
    { type: 'paragraph', paragraph: { rich_text: text('Open the team page', teamPageUrl(appUrl, team.id)) } },
  ];
}

async function replaceChildren(client: Client, pageId: string, blocks: Block[]): Promise<void> {
  let cursor: string | undefined;
  const old: string[] = [];
  do {
    const page = await client.blocks.children.list({ block_id: pageId, start_cursor: cursor, page_size: 100 });
    old.push(...page.results.map((b) => b.id));
    cursor = page.has_more ? (page.next_cursor ?? undefined) : undefined;
  } while (cursor);
  for (const id of old) await client.blocks.delete({ block_id: id });
  await client.blocks.children.append({ block_id: pageId, children: blocks as never });
}

export type PublishOutcome = { published: number; created: number; updated: number } | { skipped: string };

/** Writes (or rewrites) the month's page of every enabled team of the connection's tenant. */
export async function publishMonth(app: AppContext, connection: Connection, month: string): Promise<PublishOutcome> {
  const parentPageId = connection.settings.parentPageId as string | null | undefined;
  if (connection.state !== 'active') return { skipped: `connection ${connection.state}` };
  if (!parentPageId) return { skipped: 'no parent page chosen' };
  const { db, pool } = app.database;
  const client = notionClient(app.config, tokensOf(app.config.oauthEncryptionKey, connection).accessToken);
  const enabled = await db.select({ id: teams.id, name: teams.name }).from(teams).where(and(eq(teams.tenantId, connection.tenantId), eq(teams.enabled, true))).orderBy(teams.slug);
  let created = 0;
  let updated = 0;
  try {
    for (const team of enabled) {
      const [current, previous] = await Promise.all([
        teamFigures(pool, connection.tenantId, team.id, monthSpan(month)),
        teamFigures(pool, connection.tenantId, team.id, monthSpan(previousMonth(month))),
      ]);
      const blocks = pageBlocks(team, month, current, previous, app.config.appUrl);
      const title = { title: { title: text(pageTitle(team.name, month)) } };
      const [known] = await db.select().from(docsPages).where(and(eq(docsPages.connectionId, connection.id), eq(docsPages.teamId, team.id), eq(docsPages.month, month)));
      if (known) {
        await client.pages.update({ page_id: known.pageId, properties: title as never });
        await replaceChildren(client, known.pageId, blocks);
        await db.update(docsPages).set({ publishedAt: new Date() }).where(and(eq(docsPages.connectionId, connection.id), eq(docsPages.teamId, team.id), eq(docsPages.month, month)));
        updated += 1;
      } else {
        const page = await client.pages.create({ parent: { page_id: parentPageId }, properties: title as never, children: blocks as never });
        await db.insert(docsPages).values({ tenantId: connection.tenantId, connectionId: connection.id, teamId: team.id, month, pageId: page.id });
        created += 1;
      }
    }
  } catch (error) {
    const code = notionErrorCode(error);
    if (code === 'unauthorized') await setConnectionState(db, connection.id, 'needs_reconnect', 'Notion refused the grant (revoked or removed); connect Notion again');
    else if (code === 'object_not_found' || code === 'restricted_resource') await setConnectionState(db, connection.id, 'needs_attention', 'The parent page is gone or no longer shared with the integration; choose a parent page again');
    await recordSync(db, connection.id, `publishing ${month} failed: ${code}`);
    app.log.warn({ vendor: 'notion', connectionId: connection.id, month, error: code }, 'notion publish failed');
    if (code === 'unauthorized' || code === 'object_not_found' || code === 'restricted_resource') return { skipped: code };
    throw new Error(`notion publish failed: ${code}`);
  }
  await updateSettings(db, connection.id, { ...connection.settings, publishedMonth: month });
  await recordSync(db, connection.id, null);
  return { published: created + updated, created, updated };
}
