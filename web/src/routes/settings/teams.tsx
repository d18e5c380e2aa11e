import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { TOUCHES, useToggle } from '../../api/change';
import { api } from '../../api/client';
import type { Data, TeamChange } from '../../api/contract';
import { teamsQuery, type Team } from '../../api/queries/organisation';
import { ListPanel } from '../../components/ListPanel';
import { ErrorNote } from '../../components/states';
import { usePageTitle } from '../../lib/usePageTitle';
import { keepScope } from '../../lib/scope';
import { useCan } from '../../api/me';

/** Enabling a team brings it into the baseline export, the dashboards and surveys; the switch says so. */
function EnabledSwitch({ team }: { team: Team }) {
  const toggle = useToggle(team.enabled, (enabled) => api('PATCH /api/teams/:id', { params: { id: team.id }, json: { enabled } }), TOUCHES.everything);
  return (
    <>
      <input type="checkbox" id={`enabled-${team.id}`} checked={toggle.checked} disabled={toggle.pending} onChange={(e) => toggle.set(e.target.checked)} />
      <label htmlFor={`enabled-${team.id}`} className="visually-hidden">
        {team.name} enabled
      </label>
      {toggle.error && <ErrorNote error={toggle.error} />}
    </>
  );
}

export function TeamsSettingsPage() {
  usePageTitle('Teams');
  const manage = useCan()('team.manage') === true;
  const [page, setPage] = useState(1);
  const teams = useQuery({ ...teamsQuery(page), placeholderData: (prev) => prev });
  return (
    <>
      <h1>Teams</h1>
      <p>
        Teams come from the register. An enabled team is in the dashboards, the finance exports and surveys; a disabled one keeps its data but is left out. Each team owns the projects
        whose pull requests and deployments count for it.
      </p>
      <ListPanel
        title="Teams"
        id="settings-teams"
        query={teams}
        height={200}
        onPage={setPage}
        rowKey={(t) => t.id}
        columns={[
          {
            key: 'name',
            header: 'Team',
            cell: (t) => (
              <Link to="/settings/teams/$teamId" params={{ teamId: t.id }} search={keepScope}>
                {t.name}
              </Link>
            ),
          },
          { key: 'slug', header: 'Slug', cell: (t) => <code>{t.slug}</code> },
          { key: 'memberCount', header: 'Members', numeric: true, cell: (t) => t.memberCount },
          { key: 'projects', header: 'Projects owned', cell: (t) => (t.projects.length ? t.projects.join(', ') : <span className="muted">none</span>) },
          { key: 'enabled', header: 'Enabled', cell: (t) => (manage ? <EnabledSwitch team={t} /> : t.enabled ? 'yes' : 'no') },
        ]}
        empty={
          <>
            No team yet: teams come from the register. <Link to="/settings/import" search={keepScope}>Import a register</Link>
          </>
        }
      />
    </>
  );
}
