import type { ReactNode } from 'react';
import { ApiError } from '../api/client';
import type { Reason } from '../lib/emptyReasons';
import { formatClock } from '../lib/format';

export function Empty({ reason }: { reason: Reason }) {
  return (
    <p className="empty" data-testid="empty">
      {reason.text}
      {reason.fix && (
        <>
          {' '}
          <a href={reason.fix.href}>{reason.fix.label}</a>
        </>
      )}
    </p>
  );
}

/** A retry cannot change a refusal (400, 403, 404, 409…); it can a 408, a 429, a 5xx or a lost connection. */
export function retryable(error: unknown): boolean {
  const status = error instanceof ApiError ? error.status : null;
  return status === null || status === 0 || status === 408 || status === 429 || status >= 500;
}

/**
 * What a person reads first is the message; the code and request id (for support) stay folded in
 * "Details" until someone opens it.
 */
export function ErrorMessage({ error, listDetails = true }: { error: unknown; listDetails?: boolean }) {
  const e = error instanceof ApiError ? error : null;
  const message = e ? e.message : error instanceof Error ? error.message : 'Something went wrong';
  return (
    <>
      <p>{e?.status === 403 && e.code === 'forbidden' ? `${message} (this needs the owner role)` : message}</p>
      {listDetails && e && e.details.length > 0 && (
        <ul>
          {e.details.map((d) => (
            <li key={`${d.path}:${d.message}`}>{d.path ? `${d.path}: ${d.message}` : d.message}</li>
          ))}
        </ul>
      )}
      {e && e.status !== 0 && (
        <details className="muted">
          <summary>Details</summary>
          HTTP {e.status} · {e.code}
          {e.requestId && ` · request ${e.requestId}`}
        </details>
      )}
    </>
  );
}

export function ErrorNote({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return (
    <div role="alert" className="error-note">
      <ErrorMessage error={error} />
      {onRetry && retryable(error) && (
        <button type="button" onClick={onRetry}>
          Retry
        </button>
      )}
    </div>
  );
}

export interface QueryState {
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  error: unknown;
  dataUpdatedAt: number;
  refetch: () => unknown;
  data?: unknown;
}

/** The answers one panel needs (e.g. the teams and their measures), as one panel state. */
export function allOf(...states: QueryState[]): QueryState {
  const failed = states.find((q) => q.isError);
  return {
    isPending: states.some((q) => q.isPending),
    isFetching: states.some((q) => q.isFetching),
    isError: failed !== undefined,
    error: failed?.error ?? null,
    dataUpdatedAt: Math.min(...states.map((q) => q.dataUpdatedAt)),
    refetch: () => states.forEach((q) => void q.refetch()),
    data: states.every((q) => q.data !== undefined) ? true : undefined,
  };
}

/**
 * A panel is loading (a skeleton of its final size), error, or data (maybe refreshing or stale).
 * A refetch never hides the data; a failed refetch keeps it and says so.
 */
export function Panel({ title, query, children, height = 120, id }: { title: string; query: QueryState; children: () => ReactNode; height?: number; id?: string }) {
  const headingId = id ? `${id}-title` : undefined;
  return (
    <section className="panel" aria-labelledby={headingId} data-testid={id}>
      <h2 id={headingId}>{title}</h2>
      {query.data === undefined && query.isPending && <div className="skeleton" role="status" style={{ minHeight: height }} aria-busy="true" aria-label={`Loading ${title}`} />}
      {query.data === undefined && query.isError && <ErrorNote error={query.error} onRetry={() => void query.refetch()} />}
      {query.data !== undefined && (
        <>
          {children()}
          <p className="stale muted">
            {query.isFetching ? 'Refreshing…' : query.isError ? `Showing data from ${formatClock(query.dataUpdatedAt)}; refresh failed: ${(query.error as Error)?.message}` : `Updated ${formatClock(query.dataUpdatedAt)}`}
          </p>
        </>
      )}
    </section>
  );
}
