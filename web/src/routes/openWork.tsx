import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { openWorkQuery, type AwaitingFirstReview, type UndeployedChange, type DeploymentFailure, type FailedDeployment, type OpenIncident, type OpenPullRequest, type OpenWorkBody, type ReviewerState, type WaitingState } from '../api/queries/openWork';
import { DataTable, type Column } from '../components/DataTable';
import { Panel } from '../components/states';
import { formatAge, formatClock, formatDateTime, formatSeconds } from '../lib/format';
import { useScope } from '../lib/scope';
import { usePageTitle } from '../lib/usePageTitle';

const WAITING: Record<WaitingState, string> = {
  draft: 'Draft',
  waiting_for_review: 'Waiting for review',
  changes_requested: 'Changes requested',
  approved: 'Approved',
};
const REVIEWER: Record<Exclude<ReviewerState, 'dismissed'>, string> = {
  requested: 'asked',
  commented: 'commented',
  approved: 'approved',
  changes_requested: 'changes requested',
};
const FAILURE: Record<DeploymentFailure, (d: FailedDeployment) => string> = {
  status: (d) => `Status ${d.status}`,
  rolled_back: () => 'Rolled back later',
  caused_incident: () => 'Caused an incident',
};

/** The item's name, a link to the code host or tracker when its address is known. */
function itemLink(url: string | null, label: ReactNode, title?: string): ReactNode {
  if (!url) return label;
  return (
    <a href={url} title={title}>
      {label}
    </a>
  );
}

const age = <R extends { ageSeconds: number },>(): Column<R> => ({
  key: 'age',
  header: 'Age',
  numeric: true,
  sortValue: (r) => r.ageSeconds,
  cell: (r) => <span style={{ whiteSpace: 'nowrap' }}>{formatAge(r.ageSeconds)}</span>,
});
const team = <R extends { team: { name: string } | null },>(): Column<R> => ({
  key: 'team',
  header: 'Team',
  sortValue: (r) => r.team?.name ?? null,
  cell: (r) => r.team?.name ?? 'No team',
});

const PR_COLUMNS: Column<OpenPullRequest>[] = [
  {
    key: 'item',
    header: 'Pull request',
    sortValue: (r) => `${r.repository}#${String(r.number).padStart(9, '0')}`,
    cell: (r) => (
      <>
        {itemLink(r.url, `${r.repository}#${r.number}`)} <span className="muted">{r.title}</span>
      </>
    ),
  },
  { key: 'state', header: 'Waiting state', sortValue: (r) => WAITING[r.waitingState], cell: (r) => WAITING[r.waitingState] },
  age<OpenPullRequest>(),
  { key: 'author', header: 'Author', sortValue: (r) => r.author, cell: (r) => r.author ?? '—' },
  {
    key: 'reviewers',
    header: 'Reviewers',
    cell: (r) => (r.reviewers.length === 0 ? 'None asked' : r.reviewers.map((v) => `${v.login} (${REVIEWER[v.state]})`).join(', ')),
  },
  team<OpenPullRequest>(),
];

const DEPLOYMENT_COLUMNS: Column<FailedDeployment>[] = [
  {
    key: 'item',
    header: 'Deployment',
    sortValue: (r) => `${r.project} ${r.externalId}`,
    cell: (r) => (
      <>
        {itemLink(r.url, `${r.project} ${r.externalId}`)} <span className="muted">{r.sha.slice(0, 7)}</span>
      </>
    ),
  },
  { key: 'why', header: 'Why failed', sortValue: (r) => FAILURE[r.failure](r), cell: (r) => FAILURE[r.failure](r) },
  age<FailedDeployment>(),
  { key: 'created', header: 'Deployed', sortValue: (r) => r.createdAt, cell: (r) => formatDateTime(r.createdAt) },
  team<FailedDeployment>(),
];

const INCIDENT_COLUMNS: Column<OpenIncident>[] = [
  {
    key: 'item',
    header: 'Incident',
    sortValue: (r) => `${r.project} ${r.key}`,
    cell: (r) => (
      <>
        {itemLink(r.url, `${r.project} ${r.key}`)} <span className="muted">{r.title}</span>
      </>
    ),
  },
  age<OpenIncident>(),
  { key: 'opened', header: 'Opened', sortValue: (r) => r.openedAt, cell: (r) => formatDateTime(r.openedAt) },
  team<OpenIncident>(),
];

const prItem = <R extends { url: string | null; repository: string; number: number; title: string },>(): Column<R> => ({
  key: 'item',
  header: 'Pull request',
  sortValue: (r) => `${r.repository}#${String(r.number).padStart(9, '0')}`,
  cell: (r) => (
    <>
      {itemLink(r.url, `${r.repository}#${r.number}`)} <span className="muted">{r.title}</span>
    </>
  ),
});

const UNDEPLOYED_COLUMNS: Column<UndeployedChange>[] = [
  prItem<UndeployedChange>(),
  { ...age<UndeployedChange>(), header: 'Since merge' },
  { key: 'merged', header: 'Merged', sortValue: (r) => r.mergedAt, cell: (r) => formatDateTime(r.mergedAt) },
  { key: 'author', header: 'Author', sortValue: (r) => r.author, cell: (r) => r.author ?? '—' },
  team<UndeployedChange>(),
];

const AWAITING_COLUMNS: Column<AwaitingFirstReview>[] = [
  prItem<AwaitingFirstReview>(),
  { ...age<AwaitingFirstReview>(), header: 'Waiting' },
  { key: 'median', header: 'Team pickup p50', numeric: true, sortValue: (r) => r.pickupMedianSeconds, cell: (r) => formatSeconds(r.pickupMedianSeconds) },
  { key: 'author', header: 'Author', sortValue: (r) => r.author, cell: (r) => r.author ?? '—' },
  { key: 'requested', header: 'Asked', cell: (r) => (r.requested.length === 0 ? 'None asked' : r.requested.join(', ')) },
  team<AwaitingFirstReview>(),
];

const OLDEST_FIRST = { key: 'age', desc: true };

/** "Showing the oldest 500 of 812." when a section is cut at the server's limit. */
function Cut({ shown, total }: { shown: number; total: number }) {
  if (total <= shown) return null;
  return <p className="muted">Showing the oldest {shown} of {total}.</p>;
}

function Section<Row extends { id: string }>({ rows, total, caption, columns, empty, testId }: { rows: Row[]; total: number; caption: string; columns: Column<Row>[]; empty: string; testId: string }) {
  if (rows.length === 0) {
    return (
      <p className="empty" data-testid={`${testId}-empty`}>
        {empty}
      </p>
    );
  }
  return (
    <>
      <DataTable caption={caption} columns={columns} rows={rows} rowKey={(r) => r.id} initialSort={OLDEST_FIRST} />
      <Cut shown={rows.length} total={total} />
    </>
  );
}

/**
 * What is in flight now (issue 33 point 3): open pull requests with their waiting state, failed
 * production deployments not yet recovered, open incidents, for the organisation or the team of
 * the scope bar. Every row and age comes from `GET /api/open-work`; the page only formats them.
 */
export function OpenWorkPage() {
  usePageTitle('Open work');
  const scope = useScope();
  const work = useQuery({ ...openWorkQuery(scope.team), placeholderData: (previous) => previous });
  const body: OpenWorkBody | undefined = work.data;
  const forWhom = body?.meta.team ? ` for ${body.meta.team.name}` : ' across the organisation';
  const suffix = body?.meta.team ? ` for ${body.meta.team.name}` : '';
  return (
    <>
      <h1>Open work</h1>
      <p data-testid="open-work-intro">
        What is in flight now{body ? forWhom : ''}, oldest first.{body ? ` Ages are counted to ${formatClock(Date.parse(body.meta.asOf))}.` : ''}
      </p>
      <Panel id="open-prs" title="Open pull requests" query={work} height={160}>
        {() => (
          <Section testId="open-prs" rows={body!.data.pullRequests} total={body!.meta.totals.pullRequests} caption="Open pull requests, oldest first" columns={PR_COLUMNS} empty={`No open pull requests${suffix}.`} />
        )}
      </Panel>
      <Panel id="awaiting-review" title="Waiting for a first review longer than the team's pickup median" query={work} height={120}>
        {() => (
          <>
            <p className="muted" data-testid="awaiting-review-note">
              Open pull requests ready for review that no one but their author has reviewed, waiting longer than their team's median pickup time (ready for review → first review by someone else) over the PRs it merged in the last {body!.meta.pickupWindowDays} days
              {body!.meta.pickup.length > 0 ? `: ${body!.meta.pickup.map((p) => `${p.team?.name ?? 'No team'} ${formatSeconds(p.p50Seconds)} (n = ${p.n})`).join(', ')}.` : '. No team has a pickup median yet (no reviewed PR merged in that time).'}
            </p>
            <Section
              testId="awaiting-review"
              rows={body!.data.awaitingFirstReview}
              total={body!.meta.totals.awaitingFirstReview}
              caption="Pull requests waiting for a first review longer than their team's pickup median, oldest first"
              columns={AWAITING_COLUMNS}
              empty={`No pull request waiting longer than its team's pickup median${suffix}.`}
            />
          </>
        )}
      </Panel>
      <Panel id="undeployed-changes" title="Merged, not yet deployed" query={work} height={120}>
        {() => (
          <>
            <p className="muted">Merged pull requests that no successful production deployment of their project has shipped yet, for projects that send deployments; the age is the time since the merge.</p>
            <Section
              testId="undeployed-changes"
              rows={body!.data.undeployedChanges}
              total={body!.meta.totals.undeployedChanges}
              caption="Merged pull requests not yet deployed to production, oldest merge first"
              columns={UNDEPLOYED_COLUMNS}
              empty={`No merged change waiting for a deployment${suffix}.`}
            />
          </>
        )}
      </Panel>
      <Panel id="failed-deployments" title="Failed deployments not yet recovered" query={work} height={120}>
        {() => (
          <Section
            testId="failed-deployments"
            rows={body!.data.failedDeployments}
            total={body!.meta.totals.failedDeployments}
            caption="Failed production deployments that no later deployment recovered, oldest first"
            columns={DEPLOYMENT_COLUMNS}
            empty={`No failed production deployment waiting for recovery${suffix}.`}
          />
        )}
      </Panel>
      <Panel id="open-incidents" title="Open incidents" query={work} height={120}>
        {() => (
          <Section testId="open-incidents" rows={body!.data.incidents} total={body!.meta.totals.incidents} caption="Open incidents, oldest first" columns={INCIDENT_COLUMNS} empty={`No open incidents${suffix}.`} />
        )}
      </Panel>
    </>
  );
}
