import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useChange, useToggle } from '../../api/change';
import { api, apiLines } from '../../api/client';
import type { Cell, CellInput, Data, Notebook, NotebookChange, NotebookEvent, NotebookSummary } from '../../api/contract';
import { apiQuery } from '../../api/cube';
import { ErrorNote, Panel } from '../../components/states';
import { usePageTitle } from '../../lib/usePageTitle';
import { AnswerResult, Rows, rowsOf, type Step } from './result';


function StepView({ step }: { step: Step }) {
  return (
    <li data-testid="notebook-step">
      <details open={step.tool === 'cube_query'}>
        <summary><code>{step.tool}</code> {step.output ? (step.output.ok ? '' : '· failed') : '· running…'}</summary>
        <pre>{JSON.stringify(step.input, null, 2)}</pre>
        {step.output && !step.output.ok && <p role="note">{step.output.error}</p>}
        {rowsOf(step) && <Rows rows={rowsOf(step) ?? []} label={`Result of ${step.tool}`} />}
      </details>
    </li>
  );
}

/** A question with its steps and answer; `runNow` runs it once on mount (a question just asked). */
function CellView({ notebookId, cell, runNow = false }: { notebookId: string; cell: Cell; runNow?: boolean }) {
  const qc = useQueryClient();
  const [live, setLive] = useState<{ steps: Step[]; text: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const run = async () => {
    setError(null);
    const state = { steps: [] as Step[], text: '' };
    setLive({ ...state });
    try {
      await apiLines('POST /api/notebooks/:id/cells/:cellId/run', { id: notebookId, cellId: cell.id }, (event) => {
        const e = event as NotebookEvent;
        if (e.type === 'tool-call') state.steps = [...state.steps, { id: e.id, tool: e.tool, input: e.input }];
        if (e.type === 'tool-result') state.steps = state.steps.map((s) => (s.id === e.id ? { ...s, output: e.output } : s));
        if (e.type === 'text') state.text += e.delta;
        setLive({ ...state });
      });
    } catch (err) {
      setError(err);
    }
    await qc.invalidateQueries({ queryKey: ['api', `/api/notebooks/${encodeURIComponent(notebookId)}`] });
    setLive(null);
  };
  const started = useRef(false);
  useEffect(() => {
    if (runNow && !started.current) {
      started.current = true;
      void run();
    }
  });
  const steps = live ? live.steps : cell.steps;
  const answer = live ? live.text : cell.answer;
  return (
    <article className="panel" aria-label={cell.question} data-testid="notebook-cell">
      <h2>{cell.question}</h2>
      <button type="button" onClick={() => void run()} disabled={live !== null}>{live ? 'Running…' : cell.status === 'new' ? 'Run' : 'Run again'}</button>
      {steps.length > 0 && <ol aria-label="Steps">{steps.map((s) => <StepView key={s.id} step={s} />)}</ol>}
      {answer ? <p data-testid="notebook-answer" aria-live="polite">{answer}</p> : null}
      {!live && cell.status === 'done' && <AnswerResult steps={cell.steps} />}
      {!live && cell.status === 'failed' && <p role="alert">{cell.error}</p>}
      {!live && cell.model && <p className="muted">Answered by {cell.model}</p>}
      {error ? <ErrorNote error={error} /> : null}
    </article>
  );
}

export function NotebookPage() {
  const { notebookId } = useParams({ strict: false }) as { notebookId: string };
  const notebook = useQuery(apiQuery('GET /api/notebooks/:id', { params: { id: notebookId } }));
  usePageTitle(notebook.data?.data.title ?? 'Notebook');
  const touches = [['api', `/api/notebooks/${encodeURIComponent(notebookId)}`], ['api', '/api/notebooks']];
  // A question asked is run at once; "Run again" re-runs a stored one.
  const [justAsked, setJustAsked] = useState<string | null>(null);
  const ask = useChange((question: string) => api('POST /api/notebooks/:id/cells', { params: { id: notebookId }, json: { question } }), touches, (res) => setJustAsked(res.data.id));
  const share = useToggle(notebook.data?.data.shared ?? false, (shared) => api('PATCH /api/notebooks/:id', { params: { id: notebookId }, json: { shared } }), touches);
  const n = notebook.data?.data;
  return (
    <>
      <h1>{n?.title ?? 'Notebook'}</h1>
      {n?.mine && (
        <label>
          <input type="checkbox" checked={share.checked} disabled={share.pending} onChange={(e) => share.set(e.currentTarget.checked)} /> Shared with the organisation
        </label>
      )}
      <Panel title="Questions" id="cells" query={notebook} height={120}>
        {() => <>{n?.cells.map((c) => <CellView key={c.id} notebookId={notebookId} cell={c} runNow={c.id === justAsked} />)}</>}
      </Panel>
      {n?.mine && (
        <form noValidate aria-labelledby="ask-title" onSubmit={(e) => {
          e.preventDefault();
          const el = e.currentTarget;
          ask.mutate(String(new FormData(el).get('question') ?? ''), { onSuccess: () => el.reset() });
        }}>
          <h2 id="ask-title">Ask a question</h2>
          <label htmlFor="question">Question</label>
          <textarea id="question" name="question" rows={3} maxLength={4000} />
          <button className="primary" disabled={ask.isPending}>Ask</button>
          {ask.isError ? <ErrorNote error={ask.error} /> : null}
        </form>
      )}
    </>
  );
}
