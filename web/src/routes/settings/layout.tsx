import { Link, Outlet } from '@tanstack/react-router';
import { useCan, useFeatures, type TenantAction } from '../../api/me';
import { keepScope } from '../../lib/scope';

/** A page that is nothing but an action (`needs`) is left out of the menu of whoever may not take it; the API refuses it anyway. */
const PAGES = [
  { to: '/settings/keys', label: 'API keys' },
  // Members see who is in the organisation (read only); inviting and roles are the owner's.
  { to: '/settings/members', label: 'Members' },
  { to: '/settings/import', label: 'Register and seats', needs: 'register.import' },
  { to: '/settings/teams', label: 'Teams' },
  { to: '/settings/people', label: 'People' },
  { to: '/settings/surveys', label: 'Surveys' },
  { to: '/settings/integrations', label: 'Integrations' },
  { to: '/settings/deployments', label: 'Deployment sources' },
  { to: '/settings/organisation', label: 'Organisation' },
  { to: '/settings/bi', label: 'BI access', needs: 'bi.manage' },
  { to: '/settings/ai', label: 'AI' },
  { to: '/settings/account', label: 'Account' },
] as const satisfies ReadonlyArray<{ to: string; label: string; needs?: TenantAction }>;

export function SettingsLayout() {
  const can = useCan();
  // Billing exists only when the server has it on.
  const billing = useFeatures()?.billing === true;
  return (
    <div className="settings">
      <nav aria-label="Settings" className="subnav">
        <ul>
          {PAGES.filter((p) => !('needs' in p) || can(p.needs) === true).map((p) => (
            <li key={p.to}>
              <Link to={p.to} search={keepScope} activeProps={{ 'aria-current': 'page' }}>
                {p.label}
              </Link>
            </li>
          ))}
          {can('billing.manage') === true && billing && (
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
