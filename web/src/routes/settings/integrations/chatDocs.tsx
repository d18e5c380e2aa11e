/**
 * Settings › Integrations › Slack and Notion: install or connect, the state of each connection,
 * and the owner's choices: a digest channel per team (Slack), the parent page (Notion).
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../../api/client';
import { useChange } from '../../../api/change';
import { apiQuery, vendorQuery } from '../../../api/cube';
import type { Channel, Data, DigestInput, List, NotionPage, NotionStatus, ParentInput, SlackStatus, Team, VendorConnection } from '../../../api/contract';
import { ActionsHeader, ConfirmButton, Field, FormAlert, fieldProps, useFormErrors } from '../../../components/Form';
import { ErrorNote, Panel } from '../../../components/states';
import { formatDateTime } from '../../../lib/format';


const STATE_TEXT = { active: 'Connected', needs_reconnect: 'Needs reconnect', needs_attention: 'Needs attention' } as const;

export function ConnectionState({ c }: { c: VendorConnection }) {
  return (
    <p data-testid={`${c.kind}-state`}>
      <strong>{c.displayName ?? c.externalId}</strong>: {STATE_TEXT[c.state]}
      {c.stateDetail && <span className="muted"> — {c.stateDetail}</span>}
      {c.lastSyncAt && <span className="muted"> · last published {formatDateTime(c.lastSyncAt)}</span>}
    </p>
  );
}

const SLACK = '/api/integrations/slack';

function RemoveButton({ vendor, connectionId, what }: { vendor: 'slack' | 'notion'; connectionId: string; what: string }) {
  const remove = useChange(() => api(`DELETE /api/integrations/${vendor}/connections/:id`, { params: { id: connectionId } }), [['api', `/api/integrations/${vendor}`]]);
  return (
    <>
      <ConfirmButton label="Disconnect" confirmLabel={`Disconnect ${what}`} question={`Disconnect ${what}? Its stored token is deleted.`} onConfirm={() => remove.mutate()} />
      {remove.isError && <ErrorNote error={remove.error} />}
    </>
  );
}

/** One team's digest channel: a select of the workspace's public channels (or none), saved on its own. */
function DigestRow({ connectionId, team, current, channels }: { connectionId: string; team: Team; current: string | null; channels: Channel[] }) {
  const [channel, setChannel] = useState(current ?? '');
  const [saved, setSaved] = useState(false);
  const save = useChange((value: string) => api('PUT /api/integrations/slack/connections/:id/digests', { params: { id: connectionId }, json: { teamId: team.id, channel: value === '' ? null : value } }), [['api', SLACK]], () => setSaved(true));
  const { errors } = useFormErrors(save.error, ['channel']);
  const id = `digest-${team.id}`;
  // A stored channel Slack no longer lists (archived, renamed away) stays visible rather than silently shown as "none".
  const unlisted = current !== null && !channels.some((c) => c.id === current);
  return (
    <tr>
      <th scope="row">{team.name}</th>
      <td>
        <select
          id={id}
          aria-label={`Digest channel of ${team.name}`}
          value={channel}
          aria-invalid={errors.field('channel') ? true : undefined}
          aria-describedby={`${id}-error`}
          onChange={(e) => {
            setSaved(false);
            setChannel(e.target.value);
          }}
        >
          <option value="">No digest</option>
          {unlisted && <option value={current}>{current} (not listed by Slack)</option>}
          {channels.map((c) => (
            <option key={c.id} value={c.id}>
              #{c.name}
            </option>
          ))}
        </select>
        <p id={`${id}-error`} className="field-error">
          {errors.field('channel')}
        </p>
        {errors.general && <ErrorNote error={errors.general} />}
      </td>
      <td>
        <button type="button" onClick={() => save.mutate(channel)} disabled={save.isPending || channel === (current ?? '')} aria-label={`Save digest channel of ${team.name}`}>
          Save
        </button>{' '}
        <span role="status" className="muted">
          {saved && !save.isPending ? 'Saved.' : ''}
        </span>
      </td>
    </tr>
  );
}

/** The owner's choice of a digest channel per team, among the channels `conversations.list` gives. */
function DigestChannels({ c }: { c: VendorConnection }) {
  const channels = useQuery(vendorQuery('GET /api/integrations/slack/connections/:id/channels', { params: { id: c.id } }));
  const teams = useQuery(apiQuery('GET /api/teams', { query: { enabled: 'true', perPage: 100 } }));
  const chosen = (c.settings.digestChannels as Record<string, string> | undefined) ?? {};
  if (channels.isError || teams.isError) return <ErrorNote error={channels.error ?? teams.error} />;
  if (!channels.data || !teams.data) return <p className="muted">Loading channels…</p>;
  return (
    <section aria-labelledby={`digests-${c.id}`} data-testid="slack-digests">
      <h3 id={`digests-${c.id}`}>Weekly digests</h3>
      <p className="muted">Mondays 07:00 UTC, last week’s and the month-to-date figures of each team, in the channel chosen for it.</p>
      {teams.data.data.length === 0 ? (
        <p className="empty">No enabled team yet. Teams come from the register (Settings › Teams).</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Team</th>
              <th scope="col">Channel</th>
              <ActionsHeader />
            </tr>
          </thead>
          <tbody>
            {teams.data.data.map((t) => (
              <DigestRow key={t.id} connectionId={c.id} team={t} current={chosen[t.id] ?? null} channels={channels.data.data} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** Settings › Integrations › Slack: install, the signing secret's state, the slash command and events URLs. */
export function SlackPanel({ manage }: { manage: boolean }) {
  const status = useQuery(apiQuery('GET /api/integrations/slack'));
  return (
    <Panel title="Chat tool (Slack)" id="slack" query={status} height={160}>
      {() => {
        const s = status.data?.data;
        if (!s) return null;
        if (!s.enabled) return <p className="empty" data-testid="slack-off">Slack is not configured on this server. An operator sets CHAT_CLIENT_ID and CHAT_CLIENT_SECRET (README, “Chat tool and document workspace”).</p>;
        return (
          <>
            {!s.requestsAccepted && (
              <p role="alert" className="notice" data-testid="slack-no-secret">
                Slack’s requests are refused: CHAT_SIGNING_SECRET is not set on this server, so slash commands and events cannot be verified. Ask the operator to set it.
              </p>
            )}
            <p className="muted">
              Slash command URL <code>{s.commandUrl}</code> · Events URL <code>{s.eventsUrl}</code> · bot scopes {s.scopes.join(', ')}
            </p>
            {s.connections.map((c) => (
              <div key={c.id}>
                <ConnectionState c={c} />
                {manage && c.state === 'active' && <DigestChannels c={c} />}
                {manage && <RemoveButton vendor="slack" connectionId={c.id} what="Slack" />}
              </div>
            ))}
            {manage && (s.connections.length === 0 || s.connections.some((c) => c.state === 'needs_reconnect')) && (
              <a className="button primary" href={`${SLACK}/connect`} data-testid="slack-connect">
                Add to Slack
              </a>
            )}
          </>
        );
      }}
    </Panel>
  );
}

const NOTION = '/api/integrations/notion';

const bare = (id: string) => id.replace(/-/g, '').toLowerCase();

/**
 * The owner's choice of the parent page among the pages shared with the integration (Notion's
 * search). Choosing again also clears "needs attention" (a deleted or moved parent).
 */
function ParentPicker({ c }: { c: VendorConnection }) {
  const pages = useQuery(vendorQuery('GET /api/integrations/notion/connections/:id/pages', { params: { id: c.id } }));
  const current = typeof c.settings.parentPageId === 'string' ? c.settings.parentPageId : null;
  const [chosen, setChosen] = useState<string | null>(null);
  const choose = useChange((pageId: string) => api('PUT /api/integrations/notion/connections/:id/parent', { params: { id: c.id }, json: { pageId } }), [['api', NOTION]], () => setChosen(null));
  const { errors, form } = useFormErrors(choose.error, ['pageId']);
  if (pages.isError) return <ErrorNote error={pages.error} />;
  if (!pages.data) return <p className="muted">Loading the pages shared with the integration…</p>;
  const list = pages.data.data;
  const selected = chosen ?? list.find((p) => current && bare(p.id) === bare(current))?.id ?? '';
  const formId = `parent-${c.id}`;
  return (
    <form
      ref={form}
      noValidate
      aria-label="Parent page"
      onSubmit={(e) => {
        e.preventDefault();
        if (selected) choose.mutate(selected);
      }}
    >
      <FormAlert errors={errors} />
      {list.length === 0 ? (
        <p className="empty">No page is shared with the integration. In Notion, share a page with it (⋯ › Connections), then reload.</p>
      ) : (
        <div className="form-row">
          <Field form={formId} name="pageId" label="Parent page" errors={errors} hint="The monthly team pages are written under it.">
            <select {...fieldProps(formId, 'pageId', errors)} value={selected} onChange={(e) => setChosen(e.target.value)}>
              <option value="" disabled>
                Choose a page
              </option>
              {list.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.title}
                </option>
              ))}
            </select>
          </Field>
          <button disabled={choose.isPending || selected === '' || (current !== null && bare(selected) === bare(current) && c.state === 'active')}>Use as parent page</button>
        </div>
      )}
    </form>
  );
}

/** The parent page in words: its title when Notion still lists it. */
function parentText(c: VendorConnection, pages: NotionPage[] | undefined): string {
  const id = typeof c.settings.parentPageId === 'string' ? c.settings.parentPageId : null;
  if (!id) return 'Choose a parent page to start the monthly team pages.';
  const page = pages?.find((p) => bare(p.id) === bare(id));
  return `Monthly team pages are written under ${page ? `“${page.title}”` : `page ${id}`}.`;
}

function NotionConnection({ c, manage }: { c: VendorConnection; manage: boolean }) {
  // Shares the picker's query (same key): the title of the chosen page.
  const pages = useQuery({ ...vendorQuery('GET /api/integrations/notion/connections/:id/pages', { params: { id: c.id } }), enabled: manage && c.state !== 'needs_reconnect' });
  return (
    <div>
      <ConnectionState c={c} />
      <p className="muted" data-testid="notion-parent">
        {parentText(c, pages.data?.data)}
      </p>
      {manage && c.state !== 'needs_reconnect' && <ParentPicker c={c} />}
      {manage && <RemoveButton vendor="notion" connectionId={c.id} what="Notion" />}
    </div>
  );
}

/** Settings › Integrations › Notion: connect, the parent page's state ("needs attention"), the webhook URL. */
export function NotionPanel({ manage }: { manage: boolean }) {
  const status = useQuery(apiQuery('GET /api/integrations/notion'));
  return (
    <Panel title="Document workspace (Notion)" id="notion" query={status} height={160}>
      {() => {
        const s = status.data?.data;
        if (!s) return null;
        if (!s.enabled) return <p className="empty" data-testid="notion-off">Notion is not configured on this server. An operator sets DOCS_CLIENT_ID and DOCS_CLIENT_SECRET.</p>;
        return (
          <>
            <p className="muted">
              Webhook URL <code>{s.webhookUrl}</code> — {s.webhooksAccepted
                ? 'webhooks are accepted.'
                : 'webhooks are refused until the operator sets DOCS_WEBHOOK_SECRET to the verification token Notion sends when the subscription is created (the operator reads it with the CLI, README “Chat tool and document workspace”).'}
            </p>
            {s.connections.map((c) => (
              <NotionConnection key={c.id} c={c} manage={manage} />
            ))}
            {manage && (s.connections.length === 0 || s.connections.some((c) => c.state === 'needs_reconnect')) && (
              <a className="button primary" href={`${NOTION}/connect`} data-testid="notion-connect">
                Connect Notion
              </a>
            )}
          </>
        );
      }}
    </Panel>
  );
}
