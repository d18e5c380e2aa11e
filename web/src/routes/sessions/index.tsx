import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { List, SessionListItem } from '../../api/contract';
import { apiQuery } from '../../api/cube';
import { Pager } from '../../components/Pager';
import { Panel } from '../../components/states';
import { formatDateTime } from '../../lib/format';
import { keepScope } from '../../lib/scope';
import { usePageTitle } from '../../lib/usePageTitle';

const REVIEW_WORDS: Record<SessionListItem['review']['state'], string> = {
  no_transcript: 'No transcript',
  pending: 'Pending',
  assessed: 'Assessed',
  failed: 'Failed (open the session to see why)',
};

/** The organisation's AI sessions, newest first (`GET /api/sessions`); a row opens the session with its summary. */
export function SessionsPage() {
  usePageTitle('AI sessions');
  const [page, setPage] = useState(1);
  const list = useQuery({ ...apiQuery('GET /api/sessions', { query: { page, perPage: 25 } }), placeholderData: (previous) => previous });
  return (
    <>
      <h1>AI sessions</h1>
      <p>Coding sessions uploaded by the organisation’s members. A session with a transcript gets a summary and a quality assessment when the AI features are on.</p>
      <Panel title="Sessions" id="sessions" query={list} height={240}>
        {() =>
          list.data && list.data.data.length > 0 ? (
            <>
              <div className="table-wrap">
                <table>
                  <caption className="visually-hidden">AI sessions, newest first</caption>
                  <thead>
                    <tr><th scope="col">Started</th><th scope="col">Uploaded by</th><th scope="col">Tool</th><th scope="col">Model</th><th scope="col">Project</th><th scope="col">Review</th><th scope="col">Score</th></tr>
                  </thead>
                  <tbody>
                    {list.data.data.map((s) => (
                      <tr key={s.id}>
                        <th scope="row"><Link to="/ai/sessions/$sessionId" params={{ sessionId: s.id }} search={keepScope}>{formatDateTime(s.startedAt)}</Link></th>
                        <td>{s.uploader.name ?? '—'}</td>
                        <td>{s.tool}</td>
                        <td>{s.model ?? '—'}</td>
                        <td>{s.projectKey ?? '—'}</td>
                        <td>{REVIEW_WORDS[s.review.state]}</td>
                        <td>{s.review.score === null ? '—' : `${s.review.score} / 100`}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager meta={list.data.meta} onPage={setPage} />
            </>
          ) : (
            <p className="empty" data-testid="empty">No AI session uploaded yet.</p>
          )
        }
      </Panel>
    </>
  );
}
