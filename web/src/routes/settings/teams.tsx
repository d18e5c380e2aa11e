import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { TOUCHES, useToggle } from '../../api/change';
import { api } from '../../api/client';
import type { Data, TeamChange } from '../../api/contract';
import { teamsQuery, type Team } from '../../api/queries/organisation';
import { ErrorNote, Panel } from '../../components/states';
import { Pager } from '../../components/Pager';
import { usePageTitle } from '../../lib/usePageTitle';
import { useIsOwner } from './layout';
import { keepScope } from '../../lib/scope';

/** Enabling a team brings it into the baseline export, the dashboards and surveys; the switch says so. */
function EnabledSwitch({ team }: { team: Team }) {
  const toggle = useToggle(team.enabled, (enabled) => api<Data<Team>>(`/api/teams/${team.id}`, { method: 'PATCH', json: { enabled } satisfies TeamChange }), TOUCHES.everything);
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
  const owner = useIsOwner();
  const [page, setPage] = useState(1);
  const teams = useQuery({ ...teamsQuery(page), placeholderData: (prev) => prev });
  return (
    <>
      <h1>Teams</h1>
      <p>
        Teams come from the register. An enabled team is in the dashboards, the finance exports and surveys; a disabled one keeps its data but is left out. Each team owns the projects
        whose pull requests and deployments count for it.
      </p>
      <Panel title="Teams" id="settings-teams" query={teams} height={200}>
        {() =>
          teams.data && teams.data.data.length > 0 ? (
            <>
              <div className="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Team</th>
                      <th scope="col">Slug</th>
                      <th scope="col" className="num">
                        Members
                      </th>
                      <th scope="col">Projects owned</th>
                      <th scope="col">Enabled</th>
                    </tr>
                  </thead>
                  <tbody>
                    {teams.data.data.map((t) => (
                      <tr key={t.id}>
                        <th scope="row">
                          <Link to="/settings/teams/$teamId" params={{ teamId: t.id }} search={keepScope}>
                            {t.name}
                          </Link>
                        </th>
                        <td>
                          <code>{t.slug}</code>
                        </td>
                        <td className="num">{t.memberCount}</td>
                        <td>{t.projects.length ? t.projects.join(', ') : <span className="muted">none</span>}</td>
                        <td>{owner ? <EnabledSwitch team={t} /> : t.enabled ? 'yes' : 'no'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager meta={teams.data.meta} onPage={setPage} />
            </>
          ) : (
            <p className="empty" data-testid="empty">
              No team yet: teams come from the register. <Link to="/settings/import" search={keepScope}>Import a register</Link>
            </p>
          )
        }
      </Panel>
    </>
  );
}
