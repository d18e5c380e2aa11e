import { useQuery } from '@tanstack/react-query';
import { Link, Outlet } from '@tanstack/react-router';
import { meQuery, useFeatures } from '../../api/me';
import { keepScope } from '../../lib/scope';

/** Owner-only pages are left out of a member's menu; the API refuses them anyway. */
const PAGES = [
  { to: '/settings/keys', label: 'API keys', owner: false },
  // Members see who is in the organisation (read only); inviting and roles are the owner's.
  { to: '/settings/members', label: 'Members', owner: false },
  { to: '/settings/import', label: 'Register and seats', owner: true },
  { to: '/settings/teams', label: 'Teams', owner: false },
  { to: '/settings/people', label: 'People', owner: false },
  { to: '/settings/surveys', label: 'Surveys', owner: false },
  { to: '/settings/integrations', label: 'Integrations', owner: false },
  { to: '/settings/deployments', label: 'Deployment sources', owner: false },
  { to: '/settings/organisation', label: 'Organisation', owner: false },
  { to: '/settings/bi', label: 'BI access', owner: true },
  { to: '/settings/ai', label: 'AI', owner: false },
  { to: '/settings/account', label: 'Account', owner: false },
] as const;

/** The caller's role in the active organisation; undefined until known (show no control, and no refusal, meanwhile). */
export function useRole(): 'owner' | 'member' | undefined {
  const me = useQuery(meQuery);
  return me.data?.data.activeTenant.role as 'owner' | 'member' | undefined;
}
export function useIsOwner(): boolean {
  return useRole() === 'owner';
}

export function SettingsLayout() {
  const owner = useIsOwner();
  // Billing exists only when the server has it on.
  const billing = useFeatures()?.billing === true;
  return (
    <div className="settings">
      <nav aria-label="Settings" className="subnav">
        <ul>
          {PAGES.filter((p) => owner || !p.owner).map((p) => (
            <li key={p.to}>
              <Link to={p.to} search={keepScope} activeProps={{ 'aria-current': 'page' }}>
                {p.label}
              </Link>
            </li>
          ))}
          {owner && billing && (
            <li>
              {/* A full load: the billing page's Content-Security-Policy comes with its document. */}
              <Link to="/settings/billing" search={keepScope} reloadDocument activeProps={{ 'aria-current': 'page' }}>
                Billing
              </Link>
            </li>
          )}
        </ul>
      </nav>
      <div className="settings-page">
        <Outlet />
      </div>
    </div>
  );
}
