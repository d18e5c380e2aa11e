/**
 * Notebooks: saved per user and tenant; the author changes them, and once shared every member of
 * the tenant reads and re-runs them. Another tenant's id, or a member's unshared notebook, is "not found".
 */
import { and, asc, desc, eq, max, or } from 'drizzle-orm';
import { z } from 'zod';
import { authorize } from '../../auth/policies.js';
import type { TenantPrincipal } from '../../auth/principal.js';
import type { Step } from './agent.js';
import type { Db } from '../../db/client.js';
import { notebookCells, notebooks } from '../../db/schema/index.js';
import { notFound } from '../../errors.js';
import type { NotebookBody, NotebookPatch } from './schemas.js';

export type NotebookRow = typeof notebooks.$inferSelect;
export type CellRow = typeof notebookCells.$inferSelect;

const visible = (principal: TenantPrincipal) => and(eq(notebooks.tenantId, principal.tenantId), or(eq(notebooks.userId, principal.userId), eq(notebooks.shared, true)));

export async function listNotebooks(db: Db, principal: TenantPrincipal): Promise<NotebookRow[]> {
  return db.select().from(notebooks).where(visible(principal)).orderBy(desc(notebooks.updatedAt), desc(notebooks.id));
}

export async function findNotebook(db: Db, principal: TenantPrincipal, id: string): Promise<NotebookRow> {
  const [row] = await db.select().from(notebooks).where(and(eq(notebooks.id, id), visible(principal)));
  if (!row) throw notFound('Notebook');
  return row;
}

export async function notebookCellsOf(db: Db, notebook: NotebookRow): Promise<CellRow[]> {
  return db.select().from(notebookCells).where(and(eq(notebookCells.notebookId, notebook.id), eq(notebookCells.tenantId, notebook.tenantId))).orderBy(asc(notebookCells.position));
}

export async function createNotebook(db: Db, principal: TenantPrincipal, body: z.infer<typeof NotebookBody>): Promise<NotebookRow> {
  const [row] = await db.insert(notebooks).values({ tenantId: principal.tenantId, userId: principal.userId, title: body.title, shared: body.shared ?? false }).returning();
  return row as NotebookRow;
}

export async function updateNotebook(db: Db, principal: TenantPrincipal, id: string, patch: z.infer<typeof NotebookPatch>): Promise<NotebookRow> {
  const notebook = await findNotebook(db, principal, id);
  authorize(principal, 'notebook.change', notebook);
  const [row] = await db.update(notebooks).set({ ...patch, updatedAt: new Date() }).where(and(eq(notebooks.id, id), eq(notebooks.tenantId, principal.tenantId))).returning();
  return row as NotebookRow;
}

export async function deleteNotebook(db: Db, principal: TenantPrincipal, id: string): Promise<void> {
  const notebook = await findNotebook(db, principal, id);
  authorize(principal, 'notebook.change', notebook);
  await db.delete(notebooks).where(and(eq(notebooks.id, id), eq(notebooks.tenantId, principal.tenantId)));
}

export async function addCell(db: Db, principal: TenantPrincipal, notebookId: string, question: string): Promise<CellRow> {
  const notebook = await findNotebook(db, principal, notebookId);
  authorize(principal, 'notebook.change', notebook);
  const [last] = await db.select({ position: max(notebookCells.position) }).from(notebookCells).where(eq(notebookCells.notebookId, notebook.id));
  const [row] = await db.insert(notebookCells).values({ tenantId: principal.tenantId, notebookId: notebook.id, position: (last?.position ?? 0) + 1, question }).returning();
  await db.update(notebooks).set({ updatedAt: new Date() }).where(eq(notebooks.id, notebook.id));
  return row as CellRow;
}

export async function findCell(db: Db, principal: TenantPrincipal, notebookId: string, cellId: string): Promise<{ notebook: NotebookRow; cell: CellRow }> {
  const notebook = await findNotebook(db, principal, notebookId);
  const [cell] = await db.select().from(notebookCells).where(and(eq(notebookCells.id, cellId), eq(notebookCells.notebookId, notebook.id), eq(notebookCells.tenantId, principal.tenantId)));
  if (!cell) throw notFound('Cell');
  return { notebook, cell };
}

export async function saveCellRun(db: Db, cell: CellRow, run: Pick<CellRow, 'status' | 'steps' | 'answer' | 'error' | 'model' | 'inputTokens' | 'outputTokens'>): Promise<CellRow> {
  const [row] = await db.update(notebookCells).set({ ...run, ranAt: new Date() }).where(and(eq(notebookCells.id, cell.id), eq(notebookCells.tenantId, cell.tenantId))).returning();
  return row as CellRow;
}

export function presentNotebook(row: NotebookRow, principal: TenantPrincipal) {
  return { id: row.id, title: row.title, shared: row.shared, mine: row.userId === principal.userId, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

export function presentCell(row: CellRow) {
  return {
    id: row.id,
    position: row.position,
    question: row.question,
    status: row.status,
    steps: row.steps as Step[],
    answer: row.answer,
    error: row.error,
    model: row.model,
    usage: { inputTokens: row.inputTokens, outputTokens: row.outputTokens },
    ranAt: row.ranAt?.toISOString() ?? null,
  };
}
