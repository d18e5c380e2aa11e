/**
 * The drill-through panel: the facts a number was computed from (GET /api/facts), in a modal
 * `<dialog>` on the page's side. Focus moves into it, Esc or Close closes it, its URL is the page's
 * with `drill` (docs/drill-through.md). The rows are the server's, in its order; nothing is counted
 * here: the count and the marked count are the API's `meta`.
 */
import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { FactColumn, FactRow, FactsPage } from '../../../src/facts/presenters';
import { apiQuery } from '../api/cube';
import { formatCount, formatSeconds } from '../lib/format';
import type { Scope } from '../lib/scope';
import { DataTable, type Column } from './DataTable';
import { DownloadLink } from './DownloadLink';
import { Pager } from './Pager';
import { ErrorNote } from './states';

const NOUNS: Record<FactsPage['meta']['kind'], [string, string]> = {
  deployments: ['deployment', 'deployments'],
  pull_requests: ['pull request', 'pull requests'],
  pr_phases: ['pull request', 'pull requests'],
  pull_request_reviews: ['review', 'reviews'],
  reviewers: ['reviewer', 'reviewers'],
  change_lead_times: ['change', 'changes'],
  issues: ['issue', 'issues'],
  incidents: ['incident', 'incidents'],
  ai_sessions: ['AI session', 'AI sessions'],
  ai_users: ['person or uploader', 'people or uploaders'],
  seat_holders: ['seat holder', 'seat holders'],
  ai_commits: ['AI commit', 'AI commits'],
  members: ['member', 'members'],
  survey_counts: ['team month', 'team months'],
};
const MARKED: Record<string, string> = { failed: 'failed', aiAssisted: 'AI-assisted', rework: 'rework', mergedWithoutReview: 'merged without review', reverted: 'reverted' };

function cell(column: FactColumn, value: unknown) {
  if (value === null || value === undefined) return <span className="muted">–</span>;
  switch (column.type) {
    case 'time':
      return String(value).slice(0, 16).replace('T', ' ');
    case 'seconds':
      return formatSeconds(Number(value));
    case 'boolean':
      return value === true ? 'yes' : 'no';
    default:
      return String(value);
  }
}

export function FactsPanel({ measure, title, scope, page, blocked, onPage, onClose }: {
  measure: string;
  title: string;
  /** `split`: one side of AI against not (the AI impact page), else both. */
  scope: Scope & { split?: 'ai' | 'other' };
  page: number;
  /**
   * A shared link of another organisation: `switching` while the app moves to it, `foreign` when the
   * user is none of its members. The list is then not asked for.
   */
  blocked?: { state: 'switching' | 'foreign'; error: unknown };
  onPage: (page: number) => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [downloadError, setDownloadError] = useState<unknown>(null);
  const params = { measure, from: scope.from, to: scope.to, team: scope.team, split: scope.split, page };
  const facts = useQuery({ ...apiQuery<FactsPage>('/api/facts', params), placeholderData: (previous) => previous, enabled: !blocked });
  // The rows another deployment source replaced (one source per period): stored, counted nowhere, listed apart.
  const replacedCount = facts.data?.meta.replaced ?? 0;
  const replaced = useQuery({ ...apiQuery<FactsPage>('/api/facts', { ...params, page: 1, replaced: 'true' }), enabled: !blocked && replacedCount > 0 });

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    // The number the panel was opened from gets the focus back (none on a shared link's load).
    const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    if (!d.open) d.showModal();
    return () => {
      d.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const meta = facts.data?.meta;
  const csvOf = (extra: Record<string, string>) =>
    `/api/facts?${new URLSearchParams(Object.entries({ measure, from: scope.from, to: scope.to, team: scope.team, split: scope.split, ...extra, format: 'csv' }).filter((e): e is [string, string] => e[1] !== undefined))}`;
  const csv = csvOf({});
  const columns: Column<FactRow>[] = (meta?.columns ?? []).map((c) => ({
    key: c.key,
    header: c.title,
    numeric: c.type === 'number' || c.type === 'seconds',
    cell: (row) => cell(c, (row as unknown as Record<string, unknown>)[c.key]),
  }));
  const [one, many] = meta ? NOUNS[meta.kind] : ['row', 'rows'];

  return (
    <dialog
      ref={dialog}
      className="drawer"
      aria-labelledby="facts-title"
      data-testid="facts-panel"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <header className="drawer-head">
        <h2 id="facts-title">{title}: the facts</h2>
        <button type="button" onClick={onClose} autoFocus>
          Close
        </button>
      </header>
      <p className="muted">
        {/* Memberships have no history: the members are today's, whatever the window. */}
        {meta?.kind === 'members' ? 'Current members, whatever the window' : scope.from === scope.to ? scope.from : `${scope.from} to ${scope.to}`}
        {scope.team ? ', this team' : ', whole organisation'}{scope.split === 'ai' ? ', AI-assisted PRs only' : scope.split === 'other' ? ', PRs not AI-assisted only' : ''}{meta?.kind === 'members' ? '; by person id.' : '; times UTC, newest first.'}
      </p>
      {blocked ? (
        blocked.state === 'foreign' ? (
          <p role="alert" data-testid="facts-foreign">This link belongs to an organisation you cannot see.</p>
        ) : blocked.error ? (
          <ErrorNote error={blocked.error} />
        ) : (
          <p role="status" data-testid="facts-switching">Opening this link in its organisation…</p>
        )
      ) : null}
      {facts.isError && <ErrorNote error={facts.error} onRetry={() => void facts.refetch()} />}
      {blocked ? null : meta ? (
        <>
          <p data-testid="facts-count">
            {formatCount(meta.total)} {meta.total === 1 ? one : many}
            {meta.markedColumn && ` · ${formatCount(meta.marked)} ${MARKED[meta.markedColumn] ?? meta.markedColumn}`}
            {meta.sum && ` · ${formatCount(meta.sum.value)} ${meta.sum.column} in all`}
          </p>
          <p>
            <DownloadLink href={csv} onResult={setDownloadError} testId="facts-csv">
              Download CSV
            </DownloadLink>
          </p>
          {downloadError ? <ErrorNote error={downloadError} onRetry={() => setDownloadError(null)} /> : null}
          {meta.total === 0 ? (
            <p className="muted">Nothing counted in this scope.</p>
          ) : (
            <DataTable caption={`${title}: ${many}, page ${meta.page}`} columns={columns.filter((c) => c.key !== 'replacedBy')} rows={facts.data?.data ?? []} rowKey={(r) => r.id} />
          )}
          <Pager meta={meta} onPage={onPage} />
          {meta.replaced ? (
            <section aria-labelledby="facts-replaced-title" data-testid="facts-replaced">
              <h3 id="facts-replaced-title">
                Not counted: {formatCount(meta.replaced)} {meta.replaced === 1 ? one : many} replaced by another source
              </h3>
              <p className="muted">
                Stored rows of a deployment source the project does not use for this period (one source per period); switching back to it counts them again.
                {meta.replaced > (replaced.data?.data.length ?? meta.replaced) && ` The first ${formatCount(replaced.data?.data.length ?? 0)} below; the CSV has them all.`}
              </p>
              <p>
                <DownloadLink href={csvOf({ replaced: 'true' })} onResult={setDownloadError} testId="facts-replaced-csv">
                  Download CSV of the replaced rows
                </DownloadLink>
              </p>
              {replaced.isError && <ErrorNote error={replaced.error} onRetry={() => void replaced.refetch()} />}
              {replaced.data && <DataTable caption={`${title}: ${many} replaced by another source, not counted`} columns={columns} rows={replaced.data.data} rowKey={(r) => r.id} />}
            </section>
          ) : null}
        </>
      ) : (
        !facts.isError && <div className="skeleton" role="status" aria-busy="true" aria-label="Loading the facts" style={{ minHeight: 200 }} />
      )}
    </dialog>
  );
}
