import { and, asc, desc, eq, max, or } from "drizzle-orm";
import { z } from "zod";
import { authorize } from "../../auth/policies.js";
import { notebookCells, notebooks } from "../../db/schema/index.js";
import { notFound } from "../../errors.js";
const NotebookBody = z.strictObject({ title: z.string().trim().min(1).max(200), shared: z.boolean().optional() });
const NotebookPatch = z.strictObject({ title: z.string().trim().min(1).max(200).optional(), shared: z.boolean().optional() });
const CellBody = z.strictObject({ question: z.string().trim().min(1).max(4e3) });
const visible = (principal) => and(eq(notebooks.tenantId, principal.tenantId), or(eq(notebooks.userId, principal.userId), eq(notebooks.shared, true)));
async function listNotebooks(db, principal) {
  return db.select().from(notebooks).where(visible(principal)).orderBy(desc(notebooks.updatedAt), desc(notebooks.id));
}
async function findNotebook(db, principal, id) {
  const [row] = await db.select().from(notebooks).where(and(eq(notebooks.id, id), visible(principal)));
  if (!row) throw notFound("Notebook");
  return row;
}
async function notebookCellsOf(db, notebook) {
  return db.select().from(notebookCells).where(and(eq(notebookCells.notebookId, notebook.id), eq(notebookCells.tenantId, notebook.tenantId))).orderBy(asc(notebookCells.position));
}
async function createNotebook(db, principal, body) {
  const [row] = await db.insert(notebooks).values({ tenantId: principal.tenantId, userId: principal.userId, title: body.title, shared: body.shared ?? false }).returning();
  return row;
}
async function updateNotebook(db, principal, id, patch) {
  const notebook = await findNotebook(db, principal, id);
  authorize(principal, "notebook.change", notebook);
  const [row] = await db.update(notebooks).set({ ...patch, updatedAt: /* @__PURE__ */ new Date() }).where(and(eq(notebooks.id, id), eq(notebooks.tenantId, principal.tenantId))).returning();
  return row;
}
async function deleteNotebook(db, principal, id) {
  const notebook = await findNotebook(db, principal, id);
  authorize(principal, "notebook.change", notebook);
  await db.delete(notebooks).where(and(eq(notebooks.id, id), eq(notebooks.tenantId, principal.tenantId)));
}
async function addCell(db, principal, notebookId, question) {
  const notebook = await findNotebook(db, principal, notebookId);
  authorize(principal, "notebook.change", notebook);
  const [last] = await db.select({ position: max(notebookCells.position) }).from(notebookCells).where(eq(notebookCells.notebookId, notebook.id));
  const [row] = await db.insert(notebookCells).values({ tenantId: principal.tenantId, notebookId: notebook.id, position: (last?.position ?? 0) + 1, question }).returning();
  await db.update(notebooks).set({ updatedAt: /* @__PURE__ */ new Date() }).where(eq(notebooks.id, notebook.id));
  return row;
}
async function findCell(db, principal, notebookId, cellId) {
  const notebook = await findNotebook(db, principal, notebookId);
  const [cell] = await db.select().from(notebookCells).where(and(eq(notebookCells.id, cellId), eq(notebookCells.notebookId, notebook.id), eq(notebookCells.tenantId, principal.tenantId)));
  if (!cell) throw notFound("Cell");
  return { notebook, cell };
}
async function saveCellRun(db, cell, run) {
  const [row] = await db.update(notebookCells).set({ ...run, ranAt: /* @__PURE__ */ new Date() }).where(and(eq(notebookCells.id, cell.id), eq(notebookCells.tenantId, cell.tenantId))).returning();
  return row;
}
function presentNotebook(row, principal) {
  return { id: row.id, title: row.title, shared: row.shared, mine: row.userId === principal.userId, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}
function presentCell(row) {
  return {
    id: row.id,
    position: row.position,
    question: row.question,
    status: row.status,
    steps: row.steps,
    answer: row.answer,
    error: row.error,
    model: row.model,
    usage: { inputTokens: row.inputTokens, outputTokens: row.outputTokens },
    ranAt: row.ranAt?.toISOString() ?? null
  };
}
export {
  CellBody,
  NotebookBody,
  NotebookPatch,
  addCell,
  createNotebook,
  deleteNotebook,
  findCell,
  findNotebook,
  listNotebooks,
  notebookCellsOf,
  presentCell,
  presentNotebook,
  saveCellRun,
  updateNotebook
};
