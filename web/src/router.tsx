/**
 * The route tree in one file. Every page is its own chunk, loaded lazily; the scope (window, team)
 * lives in the URL search so that a view can be shared as a link. A chunk that a newer deploy
 * removed makes the app reload once to fetch the new shell.
 */
import { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, createRouter, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { cubeQuery } from './api/cube';
import { aiImpactOf } from './api/queries/aiImpact';
import { doraTiles } from './api/queries/dora';
import { Shell } from './components/Shell';
import { validateDrill } from './lib/drill';
import { validateScope, validateTableSort, type Scope } from './lib/scope';

export interface RouterContext {
  queryClient: QueryClient;
}

const RELOADED = 'da-chunk-reload';
function lazy<T extends Record<string, unknown>>(load: () => Promise<T>, name: keyof T & string) {
  return lazyRouteComponent(async () => {
    try {
      const mod = await load();
      sessionStorage.removeItem(RELOADED);
      return mod;
    } catch (error) {
      if (!sessionStorage.getItem(RELOADED)) {
        sessionStorage.setItem(RELOADED, '1');
        location.reload();
      }
      throw error;
    }
  }, name);
}

const root = createRootRouteWithContext<RouterContext>()({ component: Shell, validateSearch: validateScope });

const overview = createRoute({
  getParentRoute: () => root,
  path: '/',
  validateSearch: validateDrill,
  // The tiles' queries start with the navigation, alongside the page's chunk instead of after it
  // has loaded and rendered; the page's useQuery picks up the same queries (docs/benchmarks/2026-11-24-web-performance.md).
  loaderDeps: ({ search }) => search as Scope,
  loader: ({ context: { queryClient }, deps }) => {
    void queryClient.prefetchQuery(cubeQuery(doraTiles(deps)));
  },
  component: lazy(() => import('./routes/dora'), 'DoraPage'),
});
// The table's sort is in the address too, so that a reload or a shared link shows the same order.
const teams = createRoute({ getParentRoute: () => root, path: '/teams', validateSearch: (search: Record<string, unknown>) => ({ ...validateTableSort(search), ...validateDrill(search) }), component: lazy(() => import('./routes/teams'), 'TeamsPage') });
const team = createRoute({ getParentRoute: () => root, path: '/teams/$teamId', validateSearch: validateDrill, component: lazy(() => import('./routes/team'), 'TeamPage') });
const flow = createRoute({ getParentRoute: () => root, path: '/flow', validateSearch: validateDrill, component: lazy(() => import('./routes/flow'), 'FlowPage') });
const openWork = createRoute({ getParentRoute: () => root, path: '/open-work', component: lazy(() => import('./routes/openWork'), 'OpenWorkPage') });
const ai = createRoute({ getParentRoute: () => root, path: '/ai', validateSearch: validateDrill, component: lazy(() => import('./routes/ai'), 'AiPage') });
// As the Overview: the comparison's one request starts with the navigation (or on hovering the
// link, defaultPreload), alongside the page's chunk (docs/ai-impact.md "Queries").
const aiImpact = createRoute({
  getParentRoute: () => root,
  path: '/ai-impact',
  validateSearch: validateDrill,
  loaderDeps: ({ search }) => ({ from: search.from, to: search.to, days: search.days, end: search.end, team: search.team }) as Scope,
  loader: ({ context: { queryClient }, deps }) => {
    void queryClient.prefetchQuery(aiImpactOf(deps).query);
  },
  component: lazy(() => import('./routes/aiImpact'), 'AiImpactPage'),
});
const sessions = createRoute({ getParentRoute: () => root, path: '/ai/sessions', component: lazy(() => import('./routes/sessions/index'), 'SessionsPage') });
const session = createRoute({ getParentRoute: () => root, path: '/ai/sessions/$sessionId', component: lazy(() => import('./routes/sessions/session'), 'SessionPage') });
const perception = createRoute({ getParentRoute: () => root, path: '/perception', component: lazy(() => import('./routes/surveys'), 'SurveysPage') });
const downloads = createRoute({ getParentRoute: () => root, path: '/downloads', component: lazy(() => import('./routes/downloads'), 'DownloadsPage') });
const notebooks = createRoute({ getParentRoute: () => root, path: '/notebook', component: lazy(() => import('./routes/notebook/index'), 'NotebooksPage') });
const notebook = createRoute({ getParentRoute: () => root, path: '/notebook/$notebookId', component: lazy(() => import('./routes/notebook/notebook'), 'NotebookPage') });
const help = createRoute({ getParentRoute: () => root, path: '/help', component: lazy(() => import('./routes/help'), 'HelpPage') });

// Settings: one layout with its own menu; each page is its own chunk. The window and team of the
// dashboards do not apply here, but stay in the URL so that going back keeps them.
const settings = createRoute({ getParentRoute: () => root, path: '/settings', component: lazy(() => import('./routes/settings/layout'), 'SettingsLayout') });
const settingsIndex = createRoute({
  getParentRoute: () => settings,
  path: '/',
  beforeLoad: ({ search }) => {
    throw redirect({ to: '/settings/keys', search: search as never, replace: true });
  },
});
const settingsPage = <P extends string>(path: P, load: () => Promise<Record<string, unknown>>, name: string) =>
  createRoute({ getParentRoute: () => settings, path, component: lazy(load, name) });
const settingsPages = [
  settingsPage('keys', () => import('./routes/settings/keys'), 'KeysPage'),
  settingsPage('members', () => import('./routes/settings/members'), 'MembersPage'),
  settingsPage('import', () => import('./routes/settings/import'), 'ImportPage'),
  settingsPage('teams', () => import('./routes/settings/teams'), 'TeamsSettingsPage'),
  settingsPage('teams/$teamId', () => import('./routes/settings/team'), 'TeamSettingsPage'),
  settingsPage('people', () => import('./routes/settings/people'), 'PeoplePage'),
  settingsPage('surveys', () => import('./routes/settings/surveys'), 'SurveysSettingsPage'),
  settingsPage('integrations', () => import('./routes/settings/integrations'), 'IntegrationsPage'),
  settingsPage('deployments', () => import('./routes/settings/deployments'), 'DeploymentSourcesPage'),
  settingsPage('organisation', () => import('./routes/settings/organisation'), 'OrganisationPage'),
  settingsPage('bi', () => import('./routes/settings/bi'), 'BiAccessPage'),
  settingsPage('account', () => import('./routes/settings/account'), 'AccountPage'),
  settingsPage('ai', () => import('./routes/settings/ai'), 'AiSettingsPage'),
  settingsPage('billing', () => import('./routes/settings/billing'), 'BillingPage'),
] as const;

const routeTree = root.addChildren([overview, teams, team, flow, openWork, ai, aiImpact, sessions, session, notebooks, notebook, perception, downloads, help, settings.addChildren([settingsIndex, ...settingsPages])]);

export function makeRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    basepath: '/app',
    context: { queryClient },
    defaultPendingMs: 400,
    defaultPreload: 'intent',
    scrollRestoration: true,
    defaultNotFoundComponent: () => (
      <div role="alert" className="error-note">
        <p>This page does not exist.</p>
      </div>
    ),
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof makeRouter>;
  }
}
