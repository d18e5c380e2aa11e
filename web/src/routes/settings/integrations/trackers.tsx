/**
 * Settings › Integrations › Issue trackers (Jira Cloud, Linear): connect (a navigation to
 * /api/integrations/<kind>/connect, which sends the owner to the vendor), each connection's state,
 * last sync, error and live sync progress, the project mapping, sync again, disconnect.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../../api/client';
import { useChange } from '../../../api/change';
import { apiQuery } from '../../../api/cube';
import { onLiveMessage } from '../../../api/live';
import { ActionsHeader, ConfirmButton, Field, FormAlert, fieldProps, useFormErrors } from '../../../components/Form';
import { ErrorNote, Panel } from '../../../components/states';
import { formatDateTime } from '../../../lib/format';

type Kind = 'jira' | 'linear';
interface Connection {
  id: string;
  externalId: string;
  displayName: string | null;
  state: 'active' | 'needs_reconnect' | 'needs_attention';
  stateDetail: string | null;
  lastSyncAt: string | null;
  lastError: string | null;
  settings: { mapping: { projects: Record<string, string>; types: Record<string, string>; states: Record<string, string> }; backfillMonths: number };
  sync: { running: boolean; done: number | null };
}
interface Tracker {
  configured: boolean;
  callbackUrl: string | null;
  connections: Connection[];
}
const TRACKERS = '/api/integrations/trackers';
const NAMES: Record<Kind, string> = { jira: 'Jira Cloud', linear: 'Linear' };
const VARIABLES: Record<Kind, string> = { jira: 'TRACKER1_CLIENT_ID, TRACKER1_SECRET and TRACKER1_REDIRECT_URI', linear: 'TRACKER2_CLIENT_ID and TRACKER2_CLIENT_SECRET' };
const STATES: Record<Connection['state'], string> = { active: 'connected', needs_reconnect: 'needs reconnect', needs_attention: 'needs attention' };
const RESULTS: Record<string, string> = {
  connected: 'is connected: its issues of the last months are being synced.',
  denied: 'was not connected: the consent was declined.',
  refused: 'refused the grant: try connecting again.',
  failed: 'could not be reached: try connecting again later.',
  'no-site': 'granted access to no site or workspace.',
};

/** Issues synced so far by a running sync of this connection, from its live progress events. */
function useSyncProgress(connectionId: string): number | null {
  const qc = useQueryClient();
  const [done, setDone] = useState<number | null>(null);
  useEffect(
    () =>
      onLiveMessage((m) => {
        const subject = m.subject as { id?: string } | undefined;
        if (subject?.id !== connectionId) return;
        if (typeof m.done === 'number') setDone(m.done);
        if (m.kind === 'job.finished') void qc.invalidateQueries({ queryKey: ['api', TRACKERS] });
      }),
    [connectionId, qc],
  );
  return done;
}

function ProjectMapping({ kind, c }: { kind: Kind; c: Connection }) {
  const save = useChange((projects: Record<string, string>) => api(`/api/integrations/${kind}/connections/${c.id}`, { method: 'PATCH', json: { mapping: { ...c.settings.mapping, projects } } }), [['api', TRACKERS]]);
  // The API names `mapping.projects.<key>`: no single field of this form, so the alert lists it.
  const { errors, form } = useFormErrors(save.error, []);
  const form_ = `map-${c.id}`;
  const projects = c.settings.mapping.projects;
  return (
    <form
      ref={form}
      noValidate
      aria-label={`Project mapping of ${c.displayName ?? c.externalId}`}
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const from = String(data.get('trackerProject') ?? '').trim();
        const to = String(data.get('projectKey') ?? '').trim();
        save.mutate({ ...projects, [from]: to }, { onSuccess: () => form.current?.reset() });
      }}
    >
      <FormAlert errors={errors} />
      {Object.keys(projects).length > 0 && (
        <ul data-testid={`mapping-${c.id}`}>
          {Object.entries(projects).map(([from, to]) => (
            <li key={from}>
              {from} → {to}
            </li>
          ))}
        </ul>
      )}
      <div className="form-row">
        <Field form={form_} name="trackerProject" label={kind === 'jira' ? 'Jira project key' : 'Linear team key'} errors={errors}>
          <input {...fieldProps(form_, 'trackerProject', errors)} autoComplete="off" required />
        </Field>
        <Field form={form_} name="projectKey" label="Counts for project" errors={errors} hint="owner/repo, e.g. acme/api">
          <input {...fieldProps(form_, 'projectKey', errors)} autoComplete="off" required />
        </Field>
        <button disabled={save.isPending}>Map project</button>
      </div>
    </form>
  );
}

function ConnectionRow({ kind, c, owner }: { kind: Kind; c: Connection; owner: boolean }) {
  const done = useSyncProgress(c.id);
  const remove = useChange(() => api(`/api/integrations/${kind}?connection=${c.id}`, { method: 'DELETE' }), [['api', TRACKERS]]);
  const resync = useChange(() => api(`/api/integrations/${kind}/connections/${c.id}/backfill`, { method: 'POST' }), [['api', TRACKERS]]);
  const running = done !== null || c.sync.running;
  return (
    <tr data-testid={`tracker-${c.id}`}>
      <th scope="row">{c.displayName ?? c.externalId}</th>
      <td>
        {STATES[c.state]}
        {c.stateDetail && <div className="muted">{c.stateDetail}</div>}
      </td>
      <td>{c.lastSyncAt ? formatDateTime(c.lastSyncAt) : 'never'}</td>
      <td role="status">
        {running ? `syncing: ${done ?? c.sync.done ?? 0} issues so far` : c.lastError ? null : '—'}
        {c.lastError && <div className={running ? 'muted' : undefined}>{c.lastError}</div>}
      </td>
      {owner && (
        <td>
          {c.state === 'needs_reconnect' ? (
            <a className="button" href={`/api/integrations/${kind}/connect`}>
              Reconnect
            </a>
          ) : (
            <button type="button" onClick={() => resync.mutate(undefined)} disabled={resync.isPending}>
              Sync again
            </button>
          )}{' '}
          <ConfirmButton label="Disconnect" confirmLabel={`Disconnect ${NAMES[kind]}`} question={`Disconnect ${c.displayName ?? c.externalId}? Its tokens are deleted; issues already synced stay.`} onConfirm={() => remove.mutate(undefined)} />
          {(remove.isError || resync.isError) && <ErrorNote error={remove.error ?? resync.error} />}
        </td>
      )}
    </tr>
  );
}

function TrackerSection({ kind, t, owner }: { kind: Kind; t: Tracker; owner: boolean }) {
  return (
    <section aria-labelledby={`${kind}-title`} data-testid={`tracker-${kind}`}>
      <h3 id={`${kind}-title`}>{NAMES[kind]}</h3>
      {!t.configured ? (
        <p className="empty">Not configured on this server. An operator sets {VARIABLES[kind]} (README, “Issue trackers”).</p>
      ) : (
        <>
          {t.connections.length === 0 ? (
            <p className="empty">Not connected.</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">Site</th>
                  <th scope="col">State</th>
                  <th scope="col">Last sync</th>
                  <th scope="col">Sync</th>
                  {owner && <ActionsHeader />}
                </tr>
              </thead>
              <tbody>
                {t.connections.map((c) => (
                  <ConnectionRow key={c.id} kind={kind} c={c} owner={owner} />
                ))}
              </tbody>
            </table>
          )}
          {owner && t.connections.map((c) => <ProjectMapping key={c.id} kind={kind} c={c} />)}
          {owner && (
            <p>
              <a className="button primary" href={`/api/integrations/${kind}/connect`}>
                Connect {NAMES[kind]}
              </a>
            </p>
          )}
        </>
      )}
    </section>
  );
}

export function TrackersPanel({ owner }: { owner: boolean }) {
  const trackers = useQuery(apiQuery<{ data: Record<Kind, Tracker> }>(TRACKERS));
  const [result] = useState(() => {
    const params = new URLSearchParams(location.search);
    const kind = params.get('tracker') as Kind | null;
    const outcome = params.get('result') ?? '';
    return kind && kind in NAMES && outcome in RESULTS ? `${NAMES[kind]} ${RESULTS[outcome]}` : null;
  });
  return (
    <Panel title="Issue trackers" id="trackers" query={trackers} height={160}>
      {() => {
        const data = trackers.data?.data;
        if (!data) return null;
        return (
          <>
            {result && (
              <p role="status" className="notice" data-testid="tracker-result">
                {result}
              </p>
            )}
            <p className="muted">Issues from the trackers count in the measures like issues sent through the webhook API; map each tracker project to the project it counts for.</p>
            <TrackerSection kind="jira" t={data.jira} owner={owner} />
            <TrackerSection kind="linear" t={data.linear} owner={owner} />
          </>
        );
      }}
    </Panel>
  );
}
