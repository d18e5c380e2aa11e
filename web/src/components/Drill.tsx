import { lazy, Suspense, type ReactNode } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import type { DrillSearch } from '../lib/drill';
import type { Scope } from '../lib/scope';
import { dateRange } from '../lib/window';

// The panel and its table load when a list is opened, not with the dashboard (main script budget).
const FactsPanel = lazy(() => import('./FactsPanel').then((m) => ({ default: m.FactsPanel })));

/**
 * The link on a number that opens the facts it was computed from, in the same scope (the page's
 * window, or one month of it). A tile's link reads "List the facts"; a table's number is the link
 * itself, its name the number as shown and its description (title) what it opens.
 */
export function DrillLink({ measure, title, testId, month, team, children }: {
  measure: string;
  title: string;
  testId?: string;
  month?: string;
  /** One team's row of a by-team table: its id and name. */
  team?: { id: string; name: string };
  children?: ReactNode;
}) {
  const what = `List the facts behind ${title}${team ? `, ${team.name}` : ''}${month ? `, ${month}` : ''}`;
  return (
    <Link
      to="."
      search={((prev: Record<string, unknown>) => ({ ...prev, drill: measure, dpage: undefined, dmonth: month, dteam: team?.id, dfrom: undefined, dto: undefined })) as never}
      className={children ? undefined : 'drill-link'}
      data-testid={testId}
      // In a table whose row opens a page (Teams), the number opens its list, not the row's page.
      onClick={(e) => e.stopPropagation()}
      {...(children ? { title: what } : { 'aria-label': what })}
    >
      {children ?? 'List the facts'}
    </Link>
  );
}

/**
 * The list's window: a chart point's days, a month, or the page's window (its days for a days
 * window; whole months otherwise, the current one included: nothing is dated after today).
 */
function listWindow(scope: Scope, { dmonth, dfrom, dto }: DrillSearch): { from: string; to: string } {
  if (dfrom && dto) return { from: dfrom, to: dto };
  if (dmonth) return { from: dmonth, to: dmonth };
  if (scope.days) {
    const [from, to] = dateRange(scope);
    return { from, to };
  }
  return { from: scope.from, to: scope.to };
}

/** The open drill-through panel of the page, if its URL names one; `titles` names the measures the page shows. */
export function DrillPanel({ scope, titles }: { scope: Scope; titles: Record<string, string> }) {
  const search = useSearch({ strict: false }) as DrillSearch;
  const { drill, dpage, dteam } = search;
  const navigate = useNavigate();
  if (!drill) return null;
  const to = (search: (prev: Record<string, unknown>) => Record<string, unknown>) => void navigate({ to: '.', search: search as never, replace: true });
  return (
    <Suspense fallback={null}>
      <FactsPanel
        measure={drill}
        title={titles[drill] ?? drill}
        scope={{ team: scope.team, ...listWindow(scope, search), ...(dteam ? { team: dteam } : {}) }}
        page={dpage ?? 1}
        onPage={(page) => to((prev) => ({ ...prev, dpage: page > 1 ? page : undefined }))}
        onClose={() => to((prev) => ({ ...prev, drill: undefined, dpage: undefined, dmonth: undefined, dteam: undefined, dfrom: undefined, dto: undefined }))}
      />
    </Suspense>
  );
}
