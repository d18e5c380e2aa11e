import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { TOUCHES, useChange } from '../../api/change';
import { api, ApiError } from '../../api/client';
import { UNKNOWN_PROJECT } from '../../../../src/shared/projectKeys';
import type { Data, List, TeamChange, TeamMemberInput } from '../../api/contract';
import { apiQuery } from '../../api/cube';
import { peopleQuery, type Person, type Team } from '../../api/queries/organisation';
import { ConfirmButton, Field, FormAlert, fieldProps, useFormErrors } from '../../components/Form';
import { DataTable } from '../../components/DataTable';
import { ErrorNote, Panel } from '../../components/states';
import { usePageTitle } from '../../lib/usePageTitle';
import { keepScope } from '../../lib/scope';
import { useCan } from '../../api/me';


/**
 * The projects a team owns. A key no project of the organisation has (a typing mistake, most often)
 * is refused under the field with the nearest known key; "Add anyway" creates it, for a repository
 * whose data has not arrived yet (docs/register.md "Teams API").
 */
function Projects({ team }: { team: Team }) {
  const save = useChange((body: { projects: string[]; unknownProjects: 'refuse' | 'create' }) => api('PATCH /api/teams/:id', { params: { id: team.id }, json: body }), TOUCHES.everything);
  const { errors, form } = useFormErrors(save.error, ['projects']);
  const [sent, setSent] = useState<string[]>([]);
  const unknown = save.error instanceof ApiError ? save.error.details.filter((d) => d.message.startsWith(UNKNOWN_PROJECT)) : [];
  return (
    <form
      ref={form}
      noValidate
      aria-labelledby="projects-title"
      onSubmit={(e) => {
        e.preventDefault();
        const text = String(new FormData(e.currentTarget).get('projects') ?? '');
        const projects = text.split(/[\s,]+/).filter(Boolean);
        setSent(projects);
        save.mutate({ projects, unknownProjects: 'refuse' });
      }}
    >
      <h2 id="projects-title">Projects owned</h2>
      <FormAlert errors={errors} />
      <Field form="team" name="projects" label="Project keys, one per line" errors={errors} hint="<owner>/<repo> as the code host names it. A project has one owning team: listing it here takes it from another team.">
        <textarea {...fieldProps('team', 'projects', errors)} rows={5} cols={48} defaultValue={team.projects.join('\n')} key={team.projects.join(',')} />
      </Field>
      {unknown.length > 0 && (
        <p role="group" aria-label="Add unknown projects" data-testid="projects-confirm">
          {unknown.length === 1 ? 'This key names no project yet.' : `These ${unknown.length} keys name no project yet.`} Add {unknown.length === 1 ? 'it' : 'them'} only for a repository whose data has not arrived yet.{' '}
          <button type="button" disabled={save.isPending} onClick={() => save.mutate({ projects: sent, unknownProjects: 'create' })}>
            Add anyway
          </button>
        </p>
      )}
      <button className="primary" disabled={save.isPending}>
        Save projects
      </button>{' '}
      {save.isSuccess && <span role="status">Saved.</span>}
    </form>
  );
}

function AddMember({ team }: { team: Team }) {
  const [q, setQ] = useState('');
  const found = useQuery({ ...apiQuery('GET /api/people', { query: { q: q.trim() || undefined, perPage: 10 } }), enabled: q.trim().length >= 2 });
  const add = useChange((personId: string) => api('POST /api/teams/:id/members', { params: { id: team.id }, json: { personId } }), TOUCHES.everything);
  return (
    <div>
      <h3>Add a person by hand</h3>
      <div className="field">
        <label htmlFor="member-search">Find a person</label>
        <input id="member-search" type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="Name, external ref or e-mail" autoComplete="off" />
      </div>
      {add.isError && <ErrorNote error={add.error} />}
      {found.isError && <ErrorNote error={found.error} />}
      {found.data && (
        <ul aria-label="People found" className="plain">
          {found.data.data.length === 0 && <li className="muted">Nobody matches “{q.trim()}”.</li>}
          {found.data.data.map((p) => (
            <li key={p.id}>
              {p.displayName ?? p.externalRef} <span className="muted">({p.externalRef})</span>{' '}
              {p.teams.some((t) => t.id === team.id) ? (
                <span className="muted">already a member</span>
              ) : (
                <button type="button" onClick={() => add.mutate(p.id)} disabled={add.isPending}>
                  Add {p.displayName ?? p.externalRef}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Members({ team, manage }: { team: Team; manage: boolean }) {
  const members = useQuery(peopleQuery(1, team.slug));
  const remove = useChange((personId: string) => api('DELETE /api/teams/:id/members/:personId', { params: { id: team.id, personId } }), TOUCHES.everything);
  const sourceOf = (p: Person) => p.teams.find((t) => t.id === team.id)?.membershipSource ?? '';
  return (
    <Panel title="Members" id="team-members" query={members}>
      {() => (
        <>
          <p className="muted">Register members come from the register file; manual ones are added here (e.g. someone the register does not list yet).</p>
          {remove.isError && <ErrorNote error={remove.error} />}
          {members.data && members.data.data.length > 0 ? (
            <DataTable
              columns={[
                { key: 'name', header: 'Person', cell: (p) => p.displayName ?? '—' },
                { key: 'externalRef', header: 'External ref', cell: (p) => p.externalRef },
                { key: 'source', header: 'Source', cell: (p) => sourceOf(p) },
              ]}
              actions={
                manage
                  ? (p) =>
                      sourceOf(p) === 'manual' && (
                        <ConfirmButton label="Remove" confirmLabel="Remove member" question={`Remove ${p.displayName ?? p.externalRef} from ${team.name}?`} onConfirm={() => remove.mutate(p.id)} />
                      )
                  : undefined
              }
              rows={members.data.data}
              rowKey={(p) => p.id}
            />
          ) : (
            <p className="empty" data-testid="empty">
              Nobody in {team.name} yet.
            </p>
          )}
          {members.data && members.data.meta.total > members.data.data.length && (
            <p className="muted">
              Showing {members.data.data.length} of {members.data.meta.total}.
            </p>
          )}
          {manage && <AddMember team={team} />}
        </>
      )}
    </Panel>
  );
}

export function TeamSettingsPage() {
  const { teamId } = useParams({ strict: false }) as { teamId: string };
  const manage = useCan()('team.manage') === true;
  const team = useQuery(apiQuery('GET /api/teams/:id', { params: { id: teamId } }));
  usePageTitle(team.data?.data.name ?? 'Team');
  if (team.isError) return <ErrorNote error={team.error} onRetry={() => void team.refetch()} />;
  const t = team.data?.data;
  return (
    <>
      <p>
        <Link to="/settings/teams" search={keepScope}>
          ← Teams
        </Link>
      </p>
      <h1>{t?.name ?? 'Team'}</h1>
      {t && (
        <>
          <dl className="facts">
            <dt>Slug</dt>
            <dd>
              <code>{t.slug}</code>
            </dd>
            <dt>External ref</dt>
            <dd>{t.externalRef ?? '—'}</dd>
            <dt>Cost centre</dt>
            <dd>{t.costCentreCode ?? '—'}</dd>
            <dt>Org unit</dt>
            <dd>{t.orgUnit?.name ?? '—'}</dd>
            <dt>Enabled</dt>
            <dd>{t.enabled ? 'yes' : 'no'}</dd>
          </dl>
          <section className="panel">
            {manage ? (
              <Projects team={t} />
            ) : (
              <>
                <h2>Projects owned</h2>
                <p>{t.projects.length ? t.projects.join(', ') : 'none'}</p>
              </>
            )}
          </section>
          <Members team={t} manage={manage} />
        </>
      )}
    </>
  );
}
