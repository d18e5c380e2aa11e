import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useChange } from '../../api/change';
import { api, ApiError } from '../../api/client';
import type { Data, QueuedImport } from '../../api/contract';
import { onLiveMessage } from '../../api/live';
import { importJobQuery, registerImportsQuery, type ImportJob, type ImportResult } from '../../api/queries/organisation';
import { FormAlert, formErrors } from '../../components/Form';
import { ListPanel } from '../../components/ListPanel';
import { formatDateTime } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';
import { useCan } from '../../api/me';

/**
 * Above this many data rows a register file is imported as the background workflow, so a large
 * file shows its progress instead of holding a request open (docs/web.md, Settings).
 */
export const ASYNC_ROWS = 2000;
const SHOWN_PROBLEMS = 1000;

type Problem = { path: string; line?: number; column?: string; message: string };

function ProblemTable({ problems, caption }: { problems: Problem[]; caption: string }) {
  return (
    <div className="table-wrap">
      <table data-testid="import-problems">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col" className="num">
              Line
            </th>
            <th scope="col">Column</th>
            <th scope="col">Problem</th>
          </tr>
        </thead>
        <tbody>
          {problems.slice(0, SHOWN_PROBLEMS).map((p, i) => (
            <tr key={`${p.path}-${i}`}>
              <td className="num">{p.line ?? '—'}</td>
              <td>{p.column ?? p.path}</td>
              <td>{p.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {problems.length > SHOWN_PROBLEMS && <p className="muted">and {problems.length - SHOWN_PROBLEMS} more problems not shown; fix these and upload again.</p>}
    </div>
  );
}

function Outcome({ result }: { result: ImportResult }) {
  return (
    <div role="status" data-testid="import-result">
      <p>
        {result.recorded ? `Imported ${result.rowCount} rows.` : `Nothing changed: this file is the same as the latest import (${formatDateTime(result.importedAt)}).`}
      </p>
      <dl className="facts">
        {Object.entries(result.counts).map(([k, v]) => (
          <div key={k} style={{ display: 'contents' }}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** A job's progress: the workflow's steps pushed over /api/live, and the job endpoint polled meanwhile. */
function JobProgress({ jobId }: { jobId: string }) {
  const qc = useQueryClient();
  const [steps, setSteps] = useState<{ index: number; count: number } | null>(null);
  const job = useQuery({
    ...importJobQuery(jobId),
    staleTime: 0,
    refetchInterval: (q) => (q.state.data && ['completed', 'failed'].includes(q.state.data.data.status) ? false : 1500),
  });
  useEffect(
    () =>
      onLiveMessage((m) => {
        if (m.job?.id !== jobId) return;
        if (m.step) setSteps({ index: m.step.index, count: m.step.count });
        if (m.kind === 'job.finished') void qc.invalidateQueries({ queryKey: ['api', `/api/register/imports/jobs/${jobId}`] });
      }),
    [jobId, qc],
  );
  const status: ImportJob['status'] = job.data?.data.status ?? 'queued';
  // A step event arrives after each step; the bar only says 100 % once the job itself is completed.
  const percent = status === 'completed' ? 100 : steps ? Math.min(99, Math.round((100 * steps.index) / steps.count)) : status === 'running' ? 5 : 0;
  const data = job.data?.data;
  return (
    <section aria-labelledby="job-title" data-testid="import-job">
      <h3 id="job-title">Importing in the background</h3>
      <div role="progressbar" aria-label="Register import progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-valuetext={`${percent} %`} className="progress">
        <div style={{ width: `${percent}%` }} />
      </div>
      <p data-testid="import-job-status">
        {status === 'queued' && 'Waiting for a worker…'}
        {status === 'running' && `Running${steps ? ` (step ${steps.index} of ${steps.count})` : ''}…`}
        {status === 'completed' && (data?.recorded ? `Done: imported ${data.rowCount} rows.` : `Done: nothing changed (same file as the latest import).`)}
        {status === 'failed' && 'The import failed; nothing was imported.'}
      </p>
      {job.isError && <FormAlert errors={formErrors(job.error, [])} />}
      {status === 'failed' && data?.errors && <ProblemTable problems={data.errors} caption={`${data.errors.length} problems`} />}
    </section>
  );
}

function Upload({ kind }: { kind: 'register' | 'seats' }) {
  const [file, setFile] = useState<File | null>(null);
  const upload = useChange(async (f: File) => {
    const text = await f.text();
    const rows = text.split('\n').filter((l) => l.trim() !== '').length - 1;
    const csv = { body: text, headers: { 'Content-Type': 'text/csv' } };
    if (kind === 'seats') return api('POST /api/seats/imports', csv);
    return api('POST /api/register/imports', { ...csv, query: rows > ASYNC_ROWS ? { mode: 'async' } : {} });
  }, [['api', '/api/register/imports']]);
  const id = `${kind}-file`;
  const apiError = upload.error instanceof ApiError ? upload.error : null;
  const problems = apiError?.code === 'validation_failed' ? apiError.details : [];
  const data = upload.data?.data;
  const title = kind === 'register' ? 'Register' : 'AI tool seats';
  return (
    <section className="panel" aria-labelledby={`${kind}-title`} data-testid={`${kind}-upload`}>
      <h2 id={`${kind}-title`}>{title}</h2>
      {kind === 'register' ? (
        <p>
          The people, teams and org units of the organisation as one CSV, one row per person and team (columns as in the operator documentation, docs/register.md). The
          whole file is checked first: one problem and nothing is imported. Files of more than {ASYNC_ROWS.toLocaleString('en')} rows are imported in the background.
        </p>
      ) : (
        <p>Who holds a seat of which AI coding tool since when (columns tool, assigned_on, external_ref or email, revoked_on). Seats are added or updated, never deleted.</p>
      )}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (file) upload.mutate(file);
        }}
      >
        <div className="form-row">
          <div className="field">
            <label htmlFor={id}>{kind === 'register' ? 'Register CSV file' : 'Seats CSV file'}</label>
            <input id={id} type="file" accept=".csv,text/csv" onChange={(e) => { setFile(e.target.files?.[0] ?? null); upload.reset(); }} />
          </div>
          <button className="primary" disabled={!file || upload.isPending}>
            {upload.isPending ? 'Uploading…' : `Import ${kind === 'register' ? 'register' : 'seats'}`}
          </button>
        </div>
      </form>
      {upload.isError && (
        <>
          <FormAlert errors={{ field: () => undefined, general: upload.error }} listDetails={problems.length === 0} />
          {problems.length > 0 && <ProblemTable problems={problems} caption={`${problems.length} problems in ${file?.name ?? 'the file'}`} />}
        </>
      )}
      {data && 'jobId' in data && <JobProgress jobId={data.jobId} />}
      {data && 'counts' in data && <Outcome result={data} />}
    </section>
  );
}

export function ImportPage() {
  usePageTitle('Register and seats');
  const can = useCan();
  const [page, setPage] = useState(1);
  const history = useQuery({ ...registerImportsQuery(page), placeholderData: (prev) => prev });
  return (
    <>
      <h1>Register and seats</h1>
      {can('register.import') === true && <Upload kind="register" />}
      {can('seats.import') === true && <Upload kind="seats" />}
      {can('register.import') === false && <p className="notice">Only an owner of the organisation imports the register and seats.</p>}
      <ListPanel
        title="Register imports"
        id="register-history"
        query={history}
        onPage={setPage}
        rowKey={(r) => r.id}
        rowHeaders={false}
        columns={[
          { key: 'importedAt', header: 'Imported', cell: (r) => formatDateTime(r.importedAt) },
          { key: 'rowCount', header: 'Rows', numeric: true, cell: (r) => r.rowCount },
          { key: 'fileSha256', header: 'File SHA-256', cell: (r) => <code>{r.fileSha256.slice(0, 12)}…</code> },
        ]}
        empty="No register imported yet. Upload one above."
      />
    </>
  );
}
