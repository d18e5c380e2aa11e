import { and, eq } from "drizzle-orm";
import { docsPages, teams } from "../../db/schema/index.js";
import { recordSync, setConnectionState, tokensOf, updateSettings } from "../shared/connections.js";
import { formatChange, formatFigure, monthSpan, teamFigures, teamPageUrl } from "../shared/teamFigures.js";
import { notionClient, notionErrorCode } from "./client.js";
const text = (content, link) => [{ type: "text", text: { content, ...link ? { link: { url: link } } : {} } }];
const previousMonth = (month) => {
  const [y, m] = month.split("-").map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, "0")}`;
};
const closedMonth = (now = /* @__PURE__ */ new Date()) => previousMonth(now.toISOString().slice(0, 7));
function pageTitle(teamName, month) {
  return `${teamName} \u2014 delivery ${month}`;
}
const lowerFirst = (s) => /^[A-Z][a-z]/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s;
function narrative(teamName, month, current, previous) {
  const changes = current.map((f, i) => [f, formatChange(f, previous[i])]).filter(([, change]) => change !== null && !change.startsWith("\xB1")).map(([f, change]) => `${lowerFirst(f.def.title)} ${change}`);
  const lead = `${teamName} in ${month}: ${formatFigure(current[0])} production deployments and ${formatFigure(current[4])} pull requests merged.`;
  return changes.length ? `${lead} Against ${previousMonth(month)}: ${changes.join(", ")}.` : `${lead} No change against ${previousMonth(month)}.`;
}
function pageBlocks(team, month, current, previous, appUrl) {
  const row = (cells) => ({ type: "table_row", table_row: { cells: cells.map((c) => text(c)) } });
  return [
    { type: "paragraph", paragraph: { rich_text: text(narrative(team.name, month, current, previous)) } },
    {
      type: "table",
      table: {
        table_width: 4,
        has_column_header: true,
        has_row_header: true,
        children: [
          row(["Measure", month, previousMonth(month), "Change"]),
          ...current.map((f, i) => row([f.def.title, formatFigure(f), formatFigure(previous[i]), formatChange(f, previous[i]) ?? "\u2014"]))
        ]
      }
    },
    { type: "paragraph", paragraph: { rich_text: text("Open the team page", teamPageUrl(appUrl, team.id)) } }
  ];
}
async function replaceChildren(client, pageId, blocks) {
  let cursor;
  const old = [];
  do {
    const page = await client.blocks.children.list({ block_id: pageId, start_cursor: cursor, page_size: 100 });
    old.push(...page.results.map((b) => b.id));
    cursor = page.has_more ? page.next_cursor ?? void 0 : void 0;
  } while (cursor);
  for (const id of old) await client.blocks.delete({ block_id: id });
  await client.blocks.children.append({ block_id: pageId, children: blocks });
}
async function publishMonth(app, connection, month) {
  const parentPageId = connection.settings.parentPageId;
  if (connection.state !== "active") return { skipped: `connection ${connection.state}` };
  if (!parentPageId) return { skipped: "no parent page chosen" };
  const { db, pool } = app.database;
  const client = notionClient(app.config, tokensOf(app.config.oauthEncryptionKey, connection).accessToken);
  const enabled = await db.select({ id: teams.id, name: teams.name }).from(teams).where(and(eq(teams.tenantId, connection.tenantId), eq(teams.enabled, true))).orderBy(teams.slug);
  let created = 0;
  let updated = 0;
  try {
    for (const team of enabled) {
      const [current, previous] = await Promise.all([
        teamFigures(pool, connection.tenantId, team.id, monthSpan(month)),
        teamFigures(pool, connection.tenantId, team.id, monthSpan(previousMonth(month)))
      ]);
      const blocks = pageBlocks(team, month, current, previous, app.config.appUrl);
      const title = { title: { title: text(pageTitle(team.name, month)) } };
      const [known] = await db.select().from(docsPages).where(and(eq(docsPages.connectionId, connection.id), eq(docsPages.teamId, team.id), eq(docsPages.month, month)));
      if (known) {
        await client.pages.update({ page_id: known.pageId, properties: title });
        await replaceChildren(client, known.pageId, blocks);
        await db.update(docsPages).set({ publishedAt: /* @__PURE__ */ new Date() }).where(and(eq(docsPages.connectionId, connection.id), eq(docsPages.teamId, team.id), eq(docsPages.month, month)));
        updated += 1;
      } else {
        const page = await client.pages.create({ parent: { page_id: parentPageId }, properties: title, children: blocks });
        await db.insert(docsPages).values({ tenantId: connection.tenantId, connectionId: connection.id, teamId: team.id, month, pageId: page.id });
        created += 1;
      }
    }
  } catch (error) {
    const code = notionErrorCode(error);
    if (code === "unauthorized") await setConnectionState(db, connection.id, "needs_reconnect", "Notion refused the grant (revoked or removed); connect Notion again");
    else if (code === "object_not_found" || code === "restricted_resource") await setConnectionState(db, connection.id, "needs_attention", "The parent page is gone or no longer shared with the integration; choose a parent page again");
    await recordSync(db, connection.id, `publishing ${month} failed: ${code}`);
    app.log.warn({ vendor: "notion", connectionId: connection.id, month, error: code }, "notion publish failed");
    if (code === "unauthorized" || code === "object_not_found" || code === "restricted_resource") return { skipped: code };
    throw new Error(`notion publish failed: ${code}`);
  }
  await updateSettings(db, connection.id, { ...connection.settings, publishedMonth: month });
  await recordSync(db, connection.id, null);
  return { published: created + updated, created, updated };
}
export {
  closedMonth,
  narrative,
  pageBlocks,
  pageTitle,
  previousMonth,
  publishMonth
};
