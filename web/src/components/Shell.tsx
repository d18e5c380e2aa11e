import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useNavigate, useRouterState, useSearch } from '@tanstack/react-router';
import { useState, useSyncExternalStore } from 'react';
import { api } from '../api/client';
import { cubeQuery } from '../api/cube';
import { liveState, subscribeLive } from '../api/live';
import { meQuery, useFeatures } from '../api/me';
import { billingNoticeQuery } from '../api/queries/billing';
import { TEAMS_QUERY } from '../api/queries/common';
import { formatDay, formatMonth } from '../lib/format';
import { addMonths, currentMonth, dateRange, DAY_WINDOWS, defaultWindow, MAX_MONTHS, monthCount } from '../lib/window';
import { ErrorNote } from './states';

const NAV = [
  { to: '/', label: 'Overview (DORA)' },
  { to: '/teams', label: 'Teams' },
  { to: '/flow', label: 'Flow' },
  { to: '/open-work', label: 'Open work' },
  { to: '/ai', label: 'AI adoption' },
  { to: '/ai-impact', label: 'AI impact' },
  { to: '/notebook', label: 'Notebook' },
  { to: '/perception', label: 'Perception' },
  { to: '/downloads', label: 'Downloads' },
  { to: '/settings', label: 'Settings' },
] as const;

function LiveBadge() {
  const state = useSyncExternalStore(subscribeLive, liveState);
  if (state === 'open') return <span className="live ok" data-testid="live">Live</span>;
  return (
    <span className="live down" role="status" data-testid="live">
      {state === 'down' ? 'Live updates disconnected; reconnecting…' : 'Connecting live updates…'}
    </span>
  );
}

function ScopeBar() {
  const search = useSearch({ strict: false }) as { from: string; to: string; days?: number; team?: string };
  const navigate = useNavigate();
  const teams = useQuery(cubeQuery(TEAMS_QUERY));
  const teamRows = teams.data?.data ?? [];
  const [problem, setProblem] = useState<string | null>(null);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const onTeamPage = /\/teams\/[^/]+$/.test(pathname);
  // A page of what is open now has no window: only the team applies (the window stays in the URL).
  const windowless = /\/open-work$/.test(pathname);
  const set = (patch: Record<string, string | number | undefined>) => {
    const next = { ...search, ...patch };
    // A days window is `days` alone in the address (its months follow from today); months drop it.
    if (next.days) return void navigate({ to: '.', search: { ...next, from: undefined, to: undefined } as never });
    if (next.from > next.to) return setProblem('The first month must not be after the last month.');
    if (monthCount({ from: next.from, to: next.to }) > MAX_MONTHS) return setProblem(`A window is at most ${MAX_MONTHS} months.`);
    setProblem(null);
    void navigate({ to: '.', search: next as never });
  };
  const reset = defaultWindow();
  const thisMonth = currentMonth();
  const [first, last] = dateRange(search);
  return (
    <form className="scope" aria-label={windowless ? 'Team filter' : 'Window and team'} onSubmit={(e) => e.preventDefault()}>
      {!windowless && (
        <>
          <label htmlFor="scope-window">Window</label>
          <select id="scope-window" value={search.days ?? ''} onChange={(e) => set(e.target.value ? { days: Number(e.target.value) } : { days: undefined, from: search.from, to: search.to })}>
            <option value="">Months</option>
            {DAY_WINDOWS.map((d) => (
              <option key={d} value={d}>
                Last {d} days
              </option>
            ))}
          </select>
          {search.days ? (
            <span data-testid="scope-days">
              {formatDay(first)} to {formatDay(last)}
            </span>
          ) : (
            <>
              <label htmlFor="scope-from">From</label>
              <input id="scope-from" type="month" value={search.from} max={thisMonth} required aria-describedby="scope-problem" aria-invalid={!!problem} onChange={(e) => e.target.value && set({ from: e.target.value })} />
              <label htmlFor="scope-to">To</label>
              <input id="scope-to" type="month" value={search.to} max={thisMonth} required aria-describedby="scope-problem scope-to-hint" aria-invalid={!!problem} onChange={(e) => e.target.value && set({ to: e.target.value })} />
              {search.to === thisMonth && (
                <span id="scope-to-hint" className="muted" data-testid="scope-partial">
                  {formatMonth(thisMonth)} is month to date
                </span>
              )}
            </>
          )}
          <button type="button" onClick={() => set({ days: undefined, from: reset.from, to: reset.to })}>
            Last 12 months
          </button>
          <button type="button" onClick={() => set({ days: undefined, from: addMonths(thisMonth, -11), to: thisMonth })}>
            12 months to date
          </button>
        </>
      )}
      {!onTeamPage && (
        <>
          <label htmlFor="scope-team">Team</label>
          <select id="scope-team" value={search.team ?? ''} onChange={(e) => set({ team: e.target.value || undefined })}>
            <option value="">All teams</option>
            {/* The address may name a team before the list has arrived (or one since deleted): keep it selected rather than show "All teams" over filtered numbers. */}
            {search.team && !teamRows.some((t) => String(t['teams.id']) === search.team) && (
              <option value={search.team}>{teams.isPending ? 'Loading teams…' : 'Unknown team'}</option>
            )}
            {teamRows.map((t) => (
              <option key={String(t['teams.id'])} value={String(t['teams.id'])}>
                {String(t['teams.name'])}
              </option>
            ))}
          </select>
        </>
      )}
      <p id="scope-problem" className="field-error" role={problem ? 'alert' : undefined}>
        {problem}
      </p>
    </form>
  );
}

function UserMenu() {
  const me = useQuery(meQuery);
  const [error, setError] = useState<unknown>(null);
  if (me.isError) return <ErrorNote error={me.error} onRetry={() => void me.refetch()} />;
  const data = me.data?.data;
  if (!data) return <span className="muted">…</span>;
  // A full load, not a client navigation: every cached answer and the live socket (authenticated
  // when it connected) belong to the previous organisation.
  const switchTenant = async (tenantId: string) => {
    try {
      await api('PATCH /api/users/me', { json: { activeTenantId: tenantId } });
      const search = new URLSearchParams(location.search);
      const keep = new URLSearchParams();
      for (const k of ['from', 'to', 'days']) if (search.get(k)) keep.set(k, search.get(k) as string);
      location.assign(`/app/${keep.size ? `?${keep}` : ''}`);
    } catch (e) {
      setError(e);
    }
  };
  const signOut = async () => {
    try {
      await api('POST /auth/logout');
    } finally {
      location.assign('/login');
    }
  };
  return (
    <div className="user">
      <span data-testid="signed-in-user">{data.user.displayName ?? data.user.email}</span>
      {data.tenants.length > 1 ? (
        <>
          <label htmlFor="tenant-switch" className="visually-hidden">
            Organisation
          </label>
          <select id="tenant-switch" value={data.activeTenant.id} onChange={(e) => void switchTenant(e.target.value)}>
            {data.tenants.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </>
      ) : (
        <span data-testid="tenant-name">{data.activeTenant.name}</span>
      )}
      <button type="button" onClick={() => void signOut()}>
        Sign out
      </button>
      {error !== null && <ErrorNote error={error} />}
    </div>
  );
}

/** What billing asks of this organisation (read-only, grace period, seats over the band); nothing when billing is off. */
function BillingBanner() {
  // Asked for only when the server has billing on (it answers 404 otherwise, a console error on every page).
  const notice = useQuery({ ...billingNoticeQuery, enabled: useFeatures()?.billing === true });
  const message = notice.data?.data.message;
  if (!message) return null;
  return (
    <p className={`notice${notice.data?.data.readOnly ? ' error' : ''}`} role={notice.data?.data.readOnly ? 'alert' : 'status'} data-testid="billing-banner">
      {message}
    </p>
  );
}

export function Shell() {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const inSettings = useRouterState({ select: (s) => /^(\/app)?\/settings(\/|$)/.test(s.location.pathname) });
  const keep = { ...(search.days ? { days: search.days } : { from: search.from, to: search.to }), ...(search.team ? { team: search.team } : {}) };
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Delivery Analytics</span>
        <nav aria-label="Main">
          <ul>
            {NAV.map((n) => (
              <li key={n.to}>
                <Link to={n.to} search={keep as never} activeOptions={{ exact: n.to === '/', includeSearch: false }} activeProps={{ 'aria-current': 'page' }}>
                  {n.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <LiveBadge />
        <UserMenu />
      </header>
      <BillingBanner />
      {!inSettings && <ScopeBar />}
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
