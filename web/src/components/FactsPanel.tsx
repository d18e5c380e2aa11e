/**
 * The drill-through panel: the facts a number was computed from (GET /api/facts), in a modal
 * `<dialog>` on the page's side. Focus moves into it, Esc or Close closes it, its URL is the page's
 * with `drill` (docs/drill-through.md). The rows are the server's, in its order; nothing is counted
 * here: the count and the marked count are the API's `meta`.
 */
import { Fragment, useEffect, useRef, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { FactColumn, FactRow, FactsPage } from '../../../src/facts/presenters';
import { apiQuery } from '../api/cube';
import { formatCount, formatMonth, formatSeconds, secondsUnit, secondsValueIn, type SecondsUnit } from '../lib/format';
import type { Scope } from '../lib/scope';
import { DownloadLink } from './DownloadLink';
import { Pager } from './Pager';
import { ErrorNote } from './states';
import { SPLIT_WORDS, type DrillSplit } from '../lib/drill';

const NOUNS: Record<FactsPage['meta']['kind'], [string, string]> = {
  deployments: ['deployment', 'deployments'],
  pull_requests: ['pull request', 'pull requests'],
  change_lead_times: ['change', 'changes'],
  issues: ['issue', 'issues'],
  incidents: ['incident', 'incidents'],
  ai_sessions: ['AI session', 'AI sessions'],
  ai_users: ['person or uploader', 'people or uploaders'],
  seat_holders: ['seat holder', 'seat holders'],
  idle_seats: ['idle seat', 'idle seats'],
  ai_activity: ['person-day or merged PR', 'person-days and merged PRs'],
  ai_commits: ['AI commit', 'AI commits'],
  members: ['member', 'members'],
  survey_counts: ['team month', 'team months'],
  pr_phases: ['pull request', 'pull requests'],
  pull_request_reviews: ['review', 'reviews'],
  reviewers: ['reviewer', 'reviewers'],
};
const MARKED: Record<string, string> = { failed: 'failed', aiAssisted: 'AI-assisted', rework: 'rework', mergedWithoutReview: 'merged without review', reverted: 'reverted' };
const PERCENTILE_OF: Record<string, string> = { cycleTimeSeconds: 'cycle time', leadTimeSeconds: 'lead time', recoverySeconds: 'recovery time', timeToRestoreSeconds: 'time to restore' };

type Record_ = Record<string, unknown>;

/** A link to a row's source: the web app's own pages in the tab, a code host or tracker in a new one. */
function SourceLink({ href, children }: { href: string; children: ReactNode }) {
  return href.startsWith('/') ? <a href={href}>{children}</a> : <a href={href} target="_blank" rel="noopener noreferrer">{children}</a>;
}

/** A cell as the panel shows it: durations in the column's one unit, a sha short, a linked identifier. */
function cell(column: FactColumn, row: Record_, unit: SecondsUnit | undefined, full = false): ReactNode {
  const value = row[column.key];
  const link = column.link ? row[column.link] : undefined;
  let shown: ReactNode;
  if (value === null || value === undefined) {
    if (column.type === 'url' || typeof link !== 'string') return <span className="muted">–</span>;
    shown = 'open';
  } else {
    switch (column.type) {
      case 'time':
        shown = String(value).slice(0, 16).replace('T', ' ');
        break;
      case 'seconds':
        shown = unit && !full ? secondsValueIn(Number(value), unit) : formatSeconds(Number(value));
        break;
      case 'boolean':
        shown = value === true ? 'yes' : 'no';
        break;
      case 'number':
        shown = formatCount(Number(value));
        break;
      case 'url':
        return <SourceLink href={String(value)}>{String(value)}</SourceLink>;
      default:
        shown = column.short && !full ? String(value).slice(0, 7) : String(value);
    }
  }
  const title = column.short && !full && typeof value === 'string' ? value : undefined;
  return typeof link === 'string' ? <SourceLink href={link}><span title={title}>{shown}</span></SourceLink> : <span title={title}>{shown}</span>;
}

/** "2026-05" → "May 2026"; "2026-05-05" stays a day; a window of months "Aug 2026 – Nov 2026". */
function windowWords(from: string, to: string): string {
  const one = (v: string) => (v.length === 7 ? formatMonth(v) : v);
  return from === to ? one(from) : `${one(from)} – ${one(to)}`;
}

export function FactsPanel({ measure, title, scope, page, blocked, onPage, onClose }: {
  measure: string;
  title: string;
  /** `split`: one side of AI against not (the AI impact page), else both. */
  scope: Scope & { split?: DrillSplit };
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
  // Sorting and the filter run on the server (it pages); changing either starts again at page 1.
  const [sort, setSort] = useState<{ key: string; dir: 'asc' | 'desc' } | null>(null);
  const [onlyMarked, setOnlyMarked] = useState(false);
  const [open, setOpen] = useState<Set<string>>(new Set());
  const options = { marked: onlyMarked ? ('true' as const) : undefined, sort: sort?.key, dir: sort?.dir };
  const params = { measure, from: scope.from, to: scope.to, team: scope.team, split: scope.split, page, ...options };
  const facts = useQuery({ ...apiQuery('GET /api/facts', { query: params }), placeholderData: (previous) => previous, enabled: !blocked });
  // The rows another deployment source replaced (one source per period): stored, counted nowhere, listed apart.
  const replacedCount = facts.data?.meta.replaced ?? 0;
  const replaced = useQuery({ ...apiQuery('GET /api/facts', { query: { measure, from: scope.from, to: scope.to, team: scope.team, page: 1, replaced: 'true' } }), enabled: !blocked && replacedCount > 0 });

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
  const rows = (facts.data?.data ?? []) as unknown as Record_[];
  const csvOf = (extra: Record<string, string | undefined>) =>
    `/api/facts?${new URLSearchParams(Object.entries({ measure, from: scope.from, to: scope.to, team: scope.team, split: scope.split, ...extra, format: 'csv' }).filter((e): e is [string, string] => e[1] !== undefined))}`;
  const csv = csvOf(options);
  // The "Replaced by" column is said by the section of the replaced rows only.
  const columns = (meta?.columns ?? []).filter((c) => !c.detail && c.key !== 'replacedBy');
  // The replaced rows' own list says what its section shows (the kind's replacedLead, src/facts/presenters.ts).
  const replacedColumns = (replaced.data?.meta.columns ?? []).filter((c) => !c.detail);
  // One unit per column of durations: the unit of its largest value on the page.
  const units = Object.fromEntries(columns.filter((c) => c.type === 'seconds').map((c) => [c.key, secondsUnit(rows.map((r) => r[c.key] as number | null))]));
  const [one, many] = meta ? NOUNS[meta.kind] : ['row', 'rows'];
  const markedWord = meta?.markedColumn ? (MARKED[meta.markedColumn] ?? meta.markedColumn) : null;
  const scopeWords = `${meta?.teamName ?? (scope.team ? 'this team' : 'whole organisation')}, ${meta?.kind === 'members' ? 'current members, whatever the window' : windowWords(scope.from, scope.to)}`;
  const sortOn = (column: FactColumn) => {
    const current = sort?.key === column.key ? sort.dir : meta?.sort?.column === column.key ? meta.sort.dir : null;
    const first = column.type === 'text' || column.type === 'url' ? 'asc' : 'desc';
    setSort({ key: column.key, dir: current === null ? first : current === 'asc' ? 'desc' : 'asc' });
    onPage(1);
  };
  const toggle = (id: string) => setOpen((prev) => {
    const next = new Set(prev);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  });

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
        <h2 id="facts-title">{title}: the facts · {scopeWords}</h2>
        <button type="button" onClick={onClose} autoFocus>
          Close
        </button>
      </header>
      <p className="muted">
        {scope.split ? `${SPLIT_WORDS[scope.split]} ` : ''}{meta?.kind === 'members' ? 'By person.' : 'Times UTC; newest first unless sorted.'}
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
            {markedWord && ` · ${formatCount(meta.marked)} ${markedWord}`}
            {meta.sum && ` · ${formatCount(meta.sum.value)} ${meta.columns.find((c) => c.key === meta.sum!.column)?.title.toLowerCase() ?? meta.sum.column} in all`}
          </p>
          {meta.percentiles && (
            <p data-testid="facts-percentiles">
              {PERCENTILE_OF[meta.percentiles.column] ?? 'value'}: 50th percentile (median) {meta.percentiles.p50 === null ? '–' : formatSeconds(meta.percentiles.p50)} · 90th percentile{' '}
              {meta.percentiles.p90 === null ? '–' : formatSeconds(meta.percentiles.p90)} · n = {formatCount(meta.total)}
            </p>
          )}
          <div className="form-row">
            {markedWord && (
              <label>
                <input type="checkbox" checked={onlyMarked} onChange={(e) => { setOnlyMarked(e.currentTarget.checked); onPage(1); }} /> Only the {formatCount(meta.marked)} {markedWord}
              </label>
            )}
            <DownloadLink href={csv} onResult={setDownloadError} testId="facts-csv">
              Download CSV
            </DownloadLink>
          </div>
          {downloadError ? <ErrorNote error={downloadError} onRetry={() => setDownloadError(null)} /> : null}
          {meta.matching === 0 ? (
            <p className="muted">{meta.total === 0 ? 'Nothing counted in this scope.' : `None ${markedWord ?? 'marked'} in this scope.`}</p>
          ) : (
            <div className="table-wrap">
              <table className="facts-table">
                <caption>{`${title}: ${meta.filter ? `${markedWord} ` : ''}${many}, page ${meta.page}`}</caption>
                <thead>
                  <tr>
                    <th scope="col"><span className="visually-hidden">Details</span></th>
                    {columns.map((c) => {
                      const sorted = meta.sort?.column === c.key ? meta.sort.dir : null;
                      return (
                        <th key={c.key} scope="col" className={c.type === 'number' || c.type === 'seconds' ? 'num' : undefined} aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'}>
                          <button type="button" onClick={() => sortOn(c)}>
                            {c.title}
                            {c.type === 'seconds' && units[c.key] ? ` (${units[c.key]})` : ''}
                            <span aria-hidden="true">{sorted === 'desc' ? ' ▼' : sorted === 'asc' ? ' ▲' : ''}</span>
                          </button>
                        </th>
                      );
                    })}
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => {
                    const id = String(row.id);
                    const expanded = open.has(id);
                    return (
                      <Fragment key={id}>
                        <tr>
                          <td className="row-toggle-cell">
                            <button type="button" className="row-toggle" aria-expanded={expanded} aria-controls={`fact-${id}`} aria-label={expanded ? 'Hide details' : 'Show details'} onClick={() => toggle(id)}>
                              {expanded ? '−' : '+'}
                            </button>
                          </td>
                          {columns.map((c) => (
                            <td key={c.key} className={c.type === 'number' || c.type === 'seconds' ? 'num' : c.key === 'title' || c.key === 'reason' ? 'wrap' : undefined}>
                              {cell(c, row, units[c.key])}
                            </td>
                          ))}
                        </tr>
                        {expanded && (
                          <tr id={`fact-${id}`} className="fact-detail">
                            <td colSpan={columns.length + 1}>
                              <dl className="facts">
                                <dt>Id</dt>
                                <dd>{id}</dd>
                                {meta.columns.map((c) => (
                                  <Fragment key={c.key}>
                                    <dt>{c.title}</dt>
                                    <dd>{cell(c, row, undefined, true)}</dd>
                                  </Fragment>
                                ))}
                              </dl>
                            </td>
                          </tr>
                        )}
                      </Fragment>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
          <Pager meta={{ page: meta.page, perPage: meta.perPage, total: meta.matching }} onPage={onPage} />
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
              {replaced.data && (
                <div className="table-wrap">
                  <table className="facts-table">
                    <caption>{`${title}: ${many} replaced by another source, not counted`}</caption>
                    <thead>
                      <tr>{replacedColumns.map((c) => <th key={c.key} scope="col">{c.title}</th>)}</tr>
                    </thead>
                    <tbody>
                      {(replaced.data.data as unknown as Record_[]).map((row) => (
                        <tr key={String(row.id)}>{replacedColumns.map((c) => <td key={c.key}>{cell(c, row, undefined)}</td>)}</tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </section>
          ) : null}
        </>
      ) : (
        !facts.isError && <div className="skeleton" role="status" aria-busy="true" aria-label="Loading the facts" style={{ minHeight: 200 }} />
      )}
    </dialog>
  );
}
