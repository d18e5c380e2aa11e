/**
 * Settings › Integrations › Issue trackers (Jira Cloud, Linear): connect (a navigation to
 * /api/integrations/<kind>/connect, which sends the owner to the vendor), each connection's state,
 * last sync, error and live sync progress, the project mapping, the type and status mapping, sync
 * again, disconnect.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../../api/client';
import { useChange } from '../../../api/change';
import type { Data, TrackerChange, Trackers } from '../../../api/contract';
import { apiQuery } from '../../../api/cube';
import { onLiveMessage } from '../../../api/live';
import { ActionsHeader, ConfirmButton, Field, FormAlert, fieldProps, useFormErrors, type FormErrors } from '../../../components/Form';
import { ErrorNote, Panel } from '../../../components/states';
import { formatDateTime } from '../../../lib/format';

type Kind = keyof Trackers;
type Tracker = Trackers[Kind];
type Connection = Tracker['connections'][number];
/** The mapping a change sends: type and status names to the values the server accepts. */
type Mapping = NonNullable<TrackerChange['mapping']>;
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
  const save = useChange((projects: Record<string, string>) => api(`PATCH /api/integrations/${kind}/connections/:id`, { params: { id: c.id }, json: { mapping: { ...c.settings.mapping, projects } } }), [['api', TRACKERS]]);
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

const OUR_TYPES = ['feature', 'bug', 'chore', 'discovery', 'incident', 'other'] as const;
const OUR_STATES = ['open', 'in_progress', 'closed'] as const;
const STATE_LABELS: Record<string, string> = { open: 'open', in_progress: 'in progress', closed: 'closed' };
type Pairs = [string, string][];
const sorted = (record: Record<string, string>): Pairs => Object.entries(record).sort(([a], [b]) => a.localeCompare(b));

/**
 * One list of a mapping (tracker names → one of ours): the rows as drafted, each with its select and
 * its API error (path `mapping.<field>.<name>`), and a line to add a name.
 */
function NameList({ form, field, legend, nameLabel, valueLabel, options, labels, rows, setRows, errors }: {
  form: string;
  field: 'types' | 'states';
  legend: string;
  nameLabel: string;
  valueLabel: string;
  options: readonly string[];
  labels?: Record<string, string>;
  rows: Pairs;
  setRows: (rows: Pairs) => void;
  errors: FormErrors;
}) {
  const [name, setName] = useState('');
  const [value, setValue] = useState<string>(options[0] ?? '');
  const [missing, setMissing] = useState(false);
  const addId = `${form}-${field}-new`;
  const add = () => {
    const trimmed = name.trim();
    if (trimmed === '') return setMissing(true);
    setMissing(false);
    // The same name again (same case) is a change of its row; any other name is a new row.
    setRows(rows.some(([n]) => n === trimmed) ? rows.map(([n, v]) => [n, n === trimmed ? value : v]) : [...rows, [trimmed, value]]);
    setName('');
  };
  return (
    <fieldset className="field">
      <legend>{legend}</legend>
      {rows.length === 0 ? (
        <p className="muted">None mapped: the defaults apply.</p>
      ) : (
        <table data-testid={`${form}-${field}`}>
          <tbody>
            {rows.map(([n, v], i) => {
              const id = `${form}-${field}-${i}`;
              const message = errors.field(`mapping.${field}.${n}`);
              return (
                <tr key={n}>
                  <th scope="row">{n}</th>
                  <td>
                    <select id={id} aria-label={`${valueLabel} for ${n}`} value={v} aria-invalid={message ? true : undefined} aria-describedby={`${id}-error`} onChange={(e) => setRows(rows.map(([m, w]) => [m, m === n ? e.target.value : w]))}>
                      {options.map((o) => (
                        <option key={o} value={o}>
                          {labels?.[o] ?? o}
                        </option>
                      ))}
                    </select>
                    <p id={`${id}-error`} className="field-error">
                      {message}
                    </p>
                  </td>
                  <td>
                    <button type="button" aria-label={`Remove ${n}`} onClick={() => setRows(rows.filter(([m]) => m !== n))}>
                      Remove
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <div className="form-row">
        <div className="field">
          <label htmlFor={addId}>{nameLabel}</label>
          <input
            id={addId}
            value={name}
            maxLength={255}
            autoComplete="off"
            aria-invalid={missing ? true : undefined}
            aria-describedby={`${addId}-error`}
            onChange={(e) => setName(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
          />
          <p id={`${addId}-error`} className="field-error">
            {missing ? 'Enter a name' : null}
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${addId}-value`}>{valueLabel}</label>
          <select id={`${addId}-value`} value={value} onChange={(e) => setValue(e.target.value)}>
            {options.map((o) => (
              <option key={o} value={o}>
                {labels?.[o] ?? o}
              </option>
            ))}
          </select>
        </div>
        <button type="button" onClick={add}>
          Add {field === 'types' ? 'type' : 'status'}
        </button>
      </div>
    </fieldset>
  );
}

/**
 * The owner's type and status mapping of one connection, edited as a draft and saved in one PATCH
 * (the API replaces the mapping; the project mapping is sent back as it is). Unmapped names take
 * the defaults (docs/integrations-trackers.md, Mapping).
 */
function TypeStateMapping({ kind, c }: { kind: Kind; c: Connection }) {
  const mapping = c.settings.mapping;
  const [types, setTypes] = useState<Pairs>(() => sorted(mapping.types));
  const [states, setStates] = useState<Pairs>(() => sorted(mapping.states));
  const [saved, setSaved] = useState(false);
  const save = useChange(
    (next: { types: Pairs; states: Pairs }) => api(`PATCH /api/integrations/${kind}/connections/:id`, { params: { id: c.id }, json: { mapping: { projects: mapping.projects, types: Object.fromEntries(next.types) as Mapping['types'], states: Object.fromEntries(next.states) as Mapping['states'] } } }),
    [['api', TRACKERS]],
    () => setSaved(true),
  );
  const paths = [...types.map(([n]) => `mapping.types.${n}`), ...states.map(([n]) => `mapping.states.${n}`)];
  const { errors, form } = useFormErrors(save.error, paths);
  const formId = `types-${c.id}`;
  const site = c.displayName ?? c.externalId;
  const edit = (set: (rows: Pairs) => void) => (rows: Pairs) => {
    setSaved(false);
    set(rows);
  };
  return (
    <form
      ref={form}
      noValidate
      aria-label={`Type and status mapping of ${site}`}
      onSubmit={(e) => {
        e.preventDefault();
        setSaved(false);
        save.mutate({ types, states });
      }}
    >
      <h4>Types and statuses of {site}</h4>
      <p className="muted">
        Names are compared without case. Unmapped {kind === 'jira' ? 'issue types' : 'labels'} take the defaults (Bug → bug, Incident → incident, Story → feature…), unmapped statuses their
        category.
      </p>
      <FormAlert errors={errors} />
      <NameList
        form={formId}
        field="types"
        legend={kind === 'jira' ? 'Issue types' : 'Labels'}
        nameLabel={kind === 'jira' ? 'Jira issue type' : 'Linear label'}
        valueLabel="Counts as type"
        options={OUR_TYPES}
        rows={types}
        setRows={edit(setTypes)}
        errors={errors}
      />
      <NameList form={formId} field="states" legend="Statuses" nameLabel={`${NAMES[kind]} status`} valueLabel="Counts as state" options={OUR_STATES} labels={STATE_LABELS} rows={states} setRows={edit(setStates)} errors={errors} />
      <button className="primary" disabled={save.isPending}>
        Save types and statuses
      </button>{' '}
      <span role="status">{saved && !save.isPending ? 'Saved. Issues synced from now on use it; Sync again rewrites the past months.' : ''}</span>
    </form>
  );
}

function ConnectionRow({ kind, c, manage }: { kind: Kind; c: Connection; manage: boolean }) {
  const done = useSyncProgress(c.id);
  const remove = useChange(() => api(`DELETE /api/integrations/${kind}`, { query: { connection: c.id } }), [['api', TRACKERS]]);
  const resync = useChange(() => api(`POST /api/integrations/${kind}/connections/:id/backfill`, { params: { id: c.id } }), [['api', TRACKERS]]);
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
      {manage && (
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

function TrackerSection({ kind, t, manage }: { kind: Kind; t: Tracker; manage: boolean }) {
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
                  {manage && <ActionsHeader />}
                </tr>
              </thead>
              <tbody>
                {t.connections.map((c) => (
                  <ConnectionRow key={c.id} kind={kind} c={c} manage={manage} />
                ))}
              </tbody>
            </table>
          )}
          {manage &&
            t.connections.map((c) => (
              <div key={c.id}>
                <ProjectMapping kind={kind} c={c} />
                <TypeStateMapping kind={kind} c={c} />
              </div>
            ))}
          {manage && (
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

export function TrackersPanel({ manage }: { manage: boolean }) {
  const trackers = useQuery(apiQuery('GET /api/integrations/trackers'));
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
            <TrackerSection kind="jira" t={data.jira} manage={manage} />
            <TrackerSection kind="linear" t={data.linear} manage={manage} />
          </>
        );
      }}
    </Panel>
  );
}
