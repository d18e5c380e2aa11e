import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { useChange } from '../../api/change';
import { api } from '../../api/client';
import { apiQuery } from '../../api/cube';
import { meQuery } from '../../api/me';
import { ErrorNote, Panel } from '../../components/states';
import { formatDateTime } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';
import type { SessionDetails } from '../../api/contract';

/** A review whose job failed: the reason names the models and what went wrong, never a provider's message. */
type ReviewFailure = NonNullable<SessionDetails['reviewFailed']['summary']>;

const RETRY_REQUESTED = 'Retry requested; the result appears here when the model has answered.';

/** "Assessment failed" with its reason, and a Retry for those who may re-run it (the uploader and owners). */
function FailedReview({ kind, session, failure, canRerun, onRequested }: { kind: 'summary' | 'assessment'; session: SessionDetails; failure: ReviewFailure; canRerun: boolean; onRequested: () => void }) {
  const retry = useChange(() => api(`POST /api/sessions/:id/${kind}`, { params: { id: session.id } }), [], onRequested);
  const what = kind === 'summary' ? 'The summary' : 'The quality assessment';
  return (
    <div className="error-note" data-testid={`${kind}-failed`}>
      <p>
        {what} failed at {formatDateTime(failure.failedAt)}: {failure.reason}.{failure.retrying ? ' It is tried again automatically.' : ''}
      </p>
      {canRerun && !retry.isSuccess && (
        <button type="button" onClick={() => retry.mutate(undefined)} disabled={retry.isPending}>
          Retry
        </button>
      )}
      {retry.isSuccess && <p role="status" className="muted">{RETRY_REQUESTED}</p>}
      {retry.isError ? <ErrorNote error={retry.error} /> : null}
    </div>
  );
}

/** How long the page polls for a re-run's result: a review job normally ends within a minute. */
const POLL_FOR_MS = 3 * 60_000;

/**
 * The summary panel's states: the summary (text, model, date); "Summary pending" while the job runs;
 * no transcript (nothing to summarise); "AI features are off" (no model for this organisation).
 * The uploader and owners (who may read the transcript it is made from) can re-run it.
 */
function SummaryPanel({ session, reviewsOn, canRerun, onRequested }: { session: SessionDetails; reviewsOn: boolean; canRerun: boolean; onRequested: () => void }) {
  const rerun = useChange(() => api('POST /api/sessions/:id/summary', { params: { id: session.id } }), [], onRequested);
  const { summary } = session;
  return (
    <section className="panel" aria-labelledby="summary-title" data-testid="session-summary">
      <h2 id="summary-title">Summary</h2>
      {summary ? (
        <>
          <p className="summary-text">{summary.text}</p>
          <p className="muted">By <span data-testid="summary-model">{summary.model}</span> · <time dateTime={summary.createdAt} data-testid="summary-date">{formatDateTime(summary.createdAt)}</time></p>
        </>
      ) : session.reviewFailed.summary ? (
        <FailedReview kind="summary" session={session} failure={session.reviewFailed.summary} canRerun={canRerun} onRequested={onRequested} />
      ) : !session.transcript.stored ? (
        <p className="empty">No transcript was uploaded with this session, so there is nothing to summarise.</p>
      ) : !reviewsOn ? (
        <p className="empty">AI features are off: no model provider is configured (Settings › AI).</p>
      ) : (
        <p className="empty" role="status">Summary pending: it appears here when the model has answered.</p>
      )}
      {canRerun && session.transcript.stored && reviewsOn && !(session.reviewFailed.summary && !summary) && (
        <button type="button" onClick={() => rerun.mutate(undefined)} disabled={rerun.isPending}>{summary ? 'Re-run summary' : 'Re-run'}</button>
      )}
      {rerun.isSuccess && <p role="status" className="muted">Re-run requested; the new summary replaces this one when it is ready.</p>}
      {rerun.isError ? <ErrorNote error={rerun.error} /> : null}
    </section>
  );
}

export function SessionPage() {
  const { sessionId } = useParams({ strict: false }) as { sessionId: string };
  const [openedAt] = useState(() => Date.now());
  const [pollUntil, setPollUntil] = useState<{ until: number; after: string | null } | null>(null);
  // A retried assessment's failure is gone as soon as its new job is queued (the latest job is what
  // counts), before the model answers: the request is still said here until the score arrives.
  const [assessmentRequested, setAssessmentRequested] = useState(false);
  const settings = useQuery(apiQuery('GET /api/ai/settings'));
  const reviewsOn = settings.data?.data.features.sessionReviews ?? false;
  const session = useQuery({
    ...apiQuery('GET /api/sessions/:id', { params: { id: sessionId } }),
    // A pending summary, or a re-run's, is asked for again every 2 s, for a bounded while.
    refetchInterval: (query) => {
      const data = query.state.data?.data;
      if (!data) return false;
      const rerunning = pollUntil !== null && Date.now() < pollUntil.until && (data.summary?.createdAt ?? null) === pollUntil.after;
      const failed = (data.reviewFailed.summary && !data.reviewFailed.summary.retrying) || (data.reviewFailed.assessment && !data.reviewFailed.assessment.retrying);
      const pending = reviewsOn && data.transcript.stored && (data.summary === null || data.assessment === null) && !failed && Date.now() - openedAt < POLL_FOR_MS;
      return rerunning || pending ? 2000 : false;
    },
  });
  const me = useQuery(meQuery);
  usePageTitle('AI session');
  const s = session.data?.data;
  // The server's rule, not the role: re-running a review is for those who may read the transcript.
  const canRerun = s?.actions.includes('session.readTranscript') === true;
  // After a re-run is requested, ask again every 2 s for a bounded while (until the summary is a new one).
  const pollForReview = () => setPollUntil({ until: Date.now() + POLL_FOR_MS, after: s?.summary?.createdAt ?? null });
  return (
    <>
      <h1>AI session{s ? ` · ${s.tool}, ${formatDateTime(s.startedAt)}` : ''}</h1>
      <Panel title="Session" id="session" query={session} height={120}>
        {() => s && (
          <dl className="facts">
            <dt>Tool</dt><dd>{s.tool}</dd>
            <dt>Model</dt><dd>{s.model ?? '—'}</dd>
            <dt>Started</dt><dd>{formatDateTime(s.startedAt)}</dd>
            <dt>Project</dt><dd>{s.projectKey ?? '—'}{s.branch ? ` · ${s.branch}` : ''}{s.prNumber ? ` · PR #${s.prNumber}` : ''}</dd>
            {s.assessment && (<><dt>Quality score</dt><dd data-testid="assessment">{s.assessment.score} / 100 · {s.assessment.rationale} <span className="muted">({s.assessment.model})</span></dd></>)}
          </dl>
        )}
      </Panel>
      {s && !s.assessment && s.reviewFailed.assessment && me.data && (
        <FailedReview
          kind="assessment"
          session={s}
          failure={s.reviewFailed.assessment}
          canRerun={canRerun}
          onRequested={() => {
            setAssessmentRequested(true);
            pollForReview();
          }}
        />
      )}
      {s && !s.assessment && !s.reviewFailed.assessment && assessmentRequested && (
        <p role="status" className="muted" data-testid="assessment-requested">{RETRY_REQUESTED}</p>
      )}
      {s && settings.data && me.data && (
        <SummaryPanel session={s} reviewsOn={reviewsOn} canRerun={canRerun} onRequested={pollForReview} />
      )}
      {s && settings.isError ? <ErrorNote error={settings.error} onRetry={() => void settings.refetch()} /> : null}
    </>
  );
}
