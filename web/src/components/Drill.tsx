import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import type { Data, UpdateMe } from '../api/contract';
import { meQuery, useActiveOrganisation, type Me } from '../api/me';
import type { DrillSearch, DrillSplit } from '../lib/drill';
import type { Scope } from '../lib/scope';
import { dateRange } from '../lib/window';

// The panel and its table load when a list is opened, not with the dashboard (main script budget).
const FactsPanel = lazy(() => import('./FactsPanel').then((m) => ({ default: m.FactsPanel })));

/**
 * The link on a number that opens the facts it was computed from, in the same scope (the page's
 * window, or one month of it). A tile's link reads "List the facts"; a table's number is the link
 * itself, its name the number as shown and its description (title) what it opens.
 */
export function DrillLink({ measure, title, testId, month, team, split, children }: {
  measure: string;
  title: string;
  testId?: string;
  month?: string;
  /** One team's row of a by-team table: its id and name. */
  team?: { id: string; name: string };
  /** One side of AI against not (the list of the AI-assisted PRs or the others), or one AI attribution level. */
  split?: DrillSplit;
  children?: ReactNode;
}) {
  const org = useActiveOrganisation();
  const what = `List the facts behind ${title}${team ? `, ${team.name}` : ''}${month ? `, ${month}` : ''}`;
  return (
    <Link
      to="."
      search={((prev: Record<string, unknown>) => ({ ...prev, drill: measure, dpage: undefined, dmonth: month, dteam: team?.id, dfrom: undefined, dto: undefined, dorg: org, dsplit: split })) as never}
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

/**
 * A link's organisation (`dorg`) against the active one: `own` when they are the same (or the link
 * names none), `switching` while the app moves to the link's organisation (the user is one of its
 * members), `foreign` when the user is not; undefined until the user's organisations are known.
 */
function useLinkOrganisation(dorg: string | undefined): { state: 'own' | 'switching' | 'foreign'; error: unknown } | undefined {
  const me = useQuery(meQuery);
  const [error, setError] = useState<unknown>(null);
  const data = me.data?.data;
  const state = !data ? undefined : !dorg || dorg === data.activeTenant.id ? 'own' : data.tenants.some((t) => t.id === dorg) ? 'switching' : 'foreign';
  useEffect(() => {
    if (state !== 'switching' || !dorg) return;
    // A full load, as the organisation menu does: every cached answer belongs to the previous organisation.
    api('PATCH /api/users/me', { json: { activeTenantId: dorg } })
      .then(() => location.assign(location.href))
      .catch(setError);
  }, [state, dorg]);
  return state && { state, error };
}

/** The open drill-through panel of the page, if its URL names one; `titles` names the measures the page shows. */
export function DrillPanel({ scope, titles }: { scope: Scope; titles: Record<string, string> }) {
  const search = useSearch({ strict: false }) as DrillSearch;
  const { drill, dpage, dteam, dorg, dsplit } = search;
  const navigate = useNavigate();
  const organisation = useLinkOrganisation(drill ? dorg : undefined);
  const active = useActiveOrganisation();
  const to = (search: (prev: Record<string, unknown>) => Record<string, unknown>) => void navigate({ to: '.', search: search as never, replace: true });
  // A list opened before the user's organisation was known (a click as the page loads) names it
  // once it is: the address in the bar is the one people share.
  useEffect(() => {
    if (drill && !dorg && active) to((prev) => ({ ...prev, dorg: active }));
  }, [drill, dorg, active]);
  if (!drill || !organisation) return null;
  return (
    <Suspense fallback={null}>
      <FactsPanel
        measure={drill}
        title={titles[drill] ?? drill}
        scope={{ team: scope.team, ...listWindow(scope, search), ...(dteam ? { team: dteam } : {}), ...(dsplit ? { split: dsplit } : {}) }}
        page={dpage ?? 1}
        // Another organisation's list is never asked for: the server would answer with this one's.
        blocked={organisation.state === 'own' ? undefined : { state: organisation.state, error: organisation.error }}
        onPage={(page) => to((prev) => ({ ...prev, dpage: page > 1 ? page : undefined }))}
        onClose={() => to((prev) => ({ ...prev, drill: undefined, dpage: undefined, dmonth: undefined, dteam: undefined, dfrom: undefined, dto: undefined, dorg: undefined, dsplit: undefined }))}
      />
    </Suspense>
  );
}
