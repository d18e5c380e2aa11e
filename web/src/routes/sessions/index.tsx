import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import type { List, SessionListItem } from '../../api/contract';
import { apiQuery } from '../../api/cube';
import { Pager } from '../../components/Pager';
import { Panel } from '../../components/states';
import { cubeQuery } from '../../api/cube';
import { TEAMS_QUERY } from '../../api/queries/common';
import { formatDateTime, formatDay } from '../../lib/format';
import { keepScope, useScope } from '../../lib/scope';
import { addDays, dateRange } from '../../lib/window';
import { usePageTitle } from '../../lib/usePageTitle';

const REVIEW_WORDS: Record<SessionListItem['review']['state'], string> = {
  no_transcript: 'No transcript',
  pending: 'Pending',
  assessed: 'Assessed',
  failed: 'Failed (open the session to see why)',
};

/**
 * The AI sessions of the page's scope, newest first (`GET /api/sessions`): those started in the
 * window, and with a team the sessions of its members (the ones AI adoption counts for it); a row
 * opens the session with its summary.
 */
export function SessionsPage() {
  usePageTitle('AI sessions');
  const scope = useScope();
  const [first, last] = dateRange(scope);
  const [page, setPage] = useState(1);
  // Another window or team is another list: it starts on its first page.
  useEffect(() => setPage(1), [first, last, scope.team]);
  const teams = useQuery(cubeQuery(TEAMS_QUERY));
  const teamName = scope.team === undefined ? null : String(teams.data?.data.find((t) => String(t['teams.id']) === scope.team)?.['teams.name'] ?? 'the team');
  // `to` is exclusive: the day after the window's last.
  const query = { page, perPage: 25, from: first, to: addDays(last, 1), team: scope.team };
  const list = useQuery({ ...apiQuery('GET /api/sessions', { query }), placeholderData: (previous) => previous });
  const scopeWords = `started ${formatDay(first)} to ${formatDay(last)}${teamName === null ? '' : ` by the members of ${teamName}`}`;
  return (
    <>
      <h1>AI sessions</h1>
      <p>Coding sessions uploaded by the organisation’s members. A session with a transcript gets a summary and a quality assessment when the AI features are on.</p>
      <p data-testid="sessions-scope">Sessions {scopeWords} (the window and team above).</p>
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
            <p className="empty" data-testid="empty">No AI session {scopeWords}.</p>
          )
        }
      </Panel>
    </>
  );
}
