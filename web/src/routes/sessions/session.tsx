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
import type { SessionItem } from './index';

interface Review { model: string; createdAt: string }
interface Summary extends Review { text: string }
interface Assessment extends Review { score: number; rationale: string }
interface SessionDetails extends SessionItem {
  branch: string | null;
  prNumber: number | null;
  summary: Summary | null;
  assessment: Assessment | null;
}

/** How long the page polls for a re-run's result: a review job normally ends within a minute. */
const POLL_FOR_MS = 3 * 60_000;

/**
 * The summary panel's states: the summary (text, model, date); "Summary pending" while the job runs;
 * no transcript (nothing to summarise); "AI features are off" (no model for this organisation).
 * The uploader and owners (who may read the transcript it is made from) can re-run it.
 */
function SummaryPanel({ session, reviewsOn, canRerun, onRequested }: { session: SessionDetails; reviewsOn: boolean; canRerun: boolean; onRequested: () => void }) {
  const rerun = useChange(() => api(`/api/sessions/${session.id}/summary`, { method: 'POST' }), [], onRequested);
  const { summary } = session;
  return (
    <section className="panel" aria-labelledby="summary-title" data-testid="session-summary">
      <h2 id="summary-title">Summary</h2>
      {summary ? (
        <>
          <p className="summary-text">{summary.text}</p>
          <p className="muted">By <span data-testid="summary-model">{summary.model}</span> · <time dateTime={summary.createdAt} data-testid="summary-date">{formatDateTime(summary.createdAt)}</time></p>
        </>
      ) : !session.transcript.stored ? (
        <p className="empty">No transcript was uploaded with this session, so there is nothing to summarise.</p>
      ) : !reviewsOn ? (
        <p className="empty">AI features are off: no model provider is configured (Settings › AI).</p>
      ) : (
        <p className="empty" role="status">Summary pending: it appears here when the model has answered.</p>
      )}
      {canRerun && session.transcript.stored && reviewsOn && (
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
  const settings = useQuery(apiQuery<{ data: { features: { sessionReviews: boolean } } }>('/api/ai/settings'));
  const reviewsOn = settings.data?.data.features.sessionReviews ?? false;
  const session = useQuery({
    ...apiQuery<{ data: SessionDetails }>(`/api/sessions/${encodeURIComponent(sessionId)}`),
    // A pending summary, or a re-run's, is asked for again every 2 s, for a bounded while.
    refetchInterval: (query) => {
      const data = query.state.data?.data;
      if (!data) return false;
      const rerunning = pollUntil !== null && Date.now() < pollUntil.until && (data.summary?.createdAt ?? null) === pollUntil.after;
      const pending = reviewsOn && data.transcript.stored && data.summary === null && Date.now() - openedAt < POLL_FOR_MS;
      return rerunning || pending ? 2000 : false;
    },
  });
  const me = useQuery(meQuery);
  usePageTitle('AI session');
  const s = session.data?.data;
  const canRerun = Boolean(s && me.data && (me.data.data.activeTenant.role === 'owner' || me.data.data.user.id === s.userId));
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
      {s && settings.data && me.data && (
        <SummaryPanel session={s} reviewsOn={reviewsOn} canRerun={canRerun} onRequested={() => setPollUntil({ until: Date.now() + POLL_FOR_MS, after: s.summary?.createdAt ?? null })} />
      )}
      {s && settings.isError ? <ErrorNote error={settings.error} onRetry={() => void settings.refetch()} /> : null}
    </>
  );
}
