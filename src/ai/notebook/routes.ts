/** /api/notebooks: saved notebooks, their cells, and a cell's run streamed as JSON lines. */
import { PassThrough } from 'node:stream';
import Router from '@koa/router';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { route, type ApiRouter } from '../../http/route.js';
import { checkBudget } from '../budget.js';
import { findAiSettings, modelChain } from '../settings.js';
import { runCell, type NotebookEvent } from './agent.js';
import { addCell, createNotebook, deleteNotebook, findCell, findNotebook, listNotebooks, notebookCellsOf, presentCell, presentNotebook, updateNotebook } from './service.js';
import { CellBody, CellParams, NotebookBody, NotebookPatch, Params } from './schemas.js';

export function notebookRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  const { db } = app.database;

  router.get('/api/notebooks', route(app, { auth: 'required' }, async ({ principal }) => {
    const rows = await listNotebooks(db, principal);
    return { body: { data: rows.map((r) => presentNotebook(r, principal)), meta: { page: 1, perPage: rows.length, total: rows.length } } };
  }));

  router.post('/api/notebooks', route(app, { auth: 'required', body: NotebookBody }, async ({ principal, body }) => {
    return { status: 201, body: { data: presentNotebook(await createNotebook(db, principal, body), principal), meta: {} } };
  }));

  router.get('/api/notebooks/:id', route(app, { auth: 'required', params: Params }, async ({ principal, params }) => {
    const notebook = await findNotebook(db, principal, params.id);
    const cells = await notebookCellsOf(db, notebook);
    return { body: { data: { ...presentNotebook(notebook, principal), cells: cells.map(presentCell) }, meta: {} } };
  }));

  router.patch('/api/notebooks/:id', route(app, { auth: 'required', params: Params, body: NotebookPatch }, async ({ principal, params, body }) => {
    return { body: { data: presentNotebook(await updateNotebook(db, principal, params.id, body), principal), meta: {} } };
  }));

  router.delete('/api/notebooks/:id', route(app, { auth: 'required', params: Params }, async ({ principal, params }) => {
    await deleteNotebook(db, principal, params.id);
    return { body: { data: { id: params.id, deleted: true }, meta: {} } };
  }));

  router.post('/api/notebooks/:id/cells', route(app, { auth: 'required', params: Params, body: CellBody }, async ({ principal, params, body }) => {
    return { status: 201, body: { data: presentCell(await addCell(db, principal, params.id, body.question)), meta: {} } };
  }));

  // A run (or re-run) streams JSON lines: tool calls and results, the answer's text, then `done` with the stored cell.
  router.post('/api/notebooks/:id/cells/:cellId/run', route(app, { auth: 'required', params: CellParams }, async ({ ctx, principal, params }) => {
    const { cell } = await findCell(db, principal, params.id, params.cellId);
    const chain = modelChain(app.config, await findAiSettings(db, principal.tenantId), 'notebook');
    if (chain.length === 0) throw new AppError('unavailable', 'The notebook is off: no model provider is configured (Settings › AI, or a compatible: model in AI_MODELS with LLM_D_API_KEY)');
    await checkBudget(db, principal.tenantId);
    const stream = new PassThrough();
    const abort = new AbortController();
    ctx.req.on('close', () => abort.abort());
    const emit = (event: NotebookEvent) => {
      if (!stream.writableEnded) stream.write(`${JSON.stringify(event)}\n`);
    };
    ctx.type = 'application/x-ndjson';
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Accel-Buffering', 'no');
    ctx.body = stream;
    void runCell(app, principal, cell, chain, emit, abort.signal)
      .then((saved) => emit(saved.status === 'done' ? { type: 'done', cell: presentCell(saved) } : { type: 'error', message: saved.error ?? 'failed', cell: presentCell(saved) }))
      .catch((error: unknown) => {
        app.log.error({ err: error }, 'notebook stream failed');
        emit({ type: 'error', message: 'Internal server error' });
      })
      .finally(() => stream.end());
  }));

  return router;
}
