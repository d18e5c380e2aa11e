import { useQuery } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { useChange } from '../../../api/change';
import { apiQuery } from '../../../api/cube';
import { ConfirmButton } from '../../../components/Form';
import { ErrorNote, Panel } from '../../../components/states';
import { formatDateTime } from '../../../lib/format';

/** A connection as /api/integrations/slack and /api/integrations/notion present it (never a token). */
export interface VendorConnection {
  id: string;
  kind: 'slack' | 'notion';
  externalId: string;
  displayName: string | null;
  state: 'active' | 'needs_reconnect' | 'needs_attention';
  stateDetail: string | null;
  lastSyncAt: string | null;
  lastError: string | null;
  settings: Record<string, unknown>;
}

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

interface SlackStatus {
  enabled: boolean;
  requestsAccepted: boolean;
  scopes: string[];
  commandUrl: string;
  eventsUrl: string;
  connections: VendorConnection[];
}
const SLACK = '/api/integrations/slack';

function RemoveButton({ path, queryKey, what }: { path: string; queryKey: string; what: string }) {
  const remove = useChange(() => api(path, { method: 'DELETE' }), [['api', queryKey]]);
  return (
    <>
      <ConfirmButton label="Disconnect" confirmLabel={`Disconnect ${what}`} question={`Disconnect ${what}? Its stored token is deleted.`} onConfirm={() => remove.mutate()} />
      {remove.isError && <ErrorNote error={remove.error} />}
    </>
  );
}

/** Settings › Integrations › Slack: install, the signing secret's state, the slash command and events URLs. */
export function SlackPanel({ owner }: { owner: boolean }) {
  const status = useQuery(apiQuery<{ data: SlackStatus }>(SLACK));
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
                {owner && <RemoveButton path={`${SLACK}/connections/${c.id}`} queryKey={SLACK} what="Slack" />}
              </div>
            ))}
            {owner && (s.connections.length === 0 || s.connections.some((c) => c.state === 'needs_reconnect')) && (
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

interface NotionStatus {
  enabled: boolean;
  webhooksAccepted: boolean;
  webhookUrl: string;
  connections: VendorConnection[];
}
const NOTION = '/api/integrations/notion';

/** Settings › Integrations › Notion: connect, the parent page's state ("needs attention"), the webhook URL. */
export function NotionPanel({ owner }: { owner: boolean }) {
  const status = useQuery(apiQuery<{ data: NotionStatus }>(NOTION));
  return (
    <Panel title="Document workspace (Notion)" id="notion" query={status} height={160}>
      {() => {
        const s = status.data?.data;
        if (!s) return null;
        if (!s.enabled) return <p className="empty" data-testid="notion-off">Notion is not configured on this server. An operator sets DOCS_CLIENT_ID and DOCS_CLIENT_SECRET.</p>;
        return (
          <>
            <p className="muted">
              Webhook URL <code>{s.webhookUrl}</code> — {s.webhooksAccepted ? 'webhooks are accepted.' : 'webhooks are refused until the operator sets DOCS_WEBHOOK_SECRET.'}
            </p>
            {s.connections.map((c) => (
              <div key={c.id}>
                <ConnectionState c={c} />
                <p className="muted">{c.settings.parentPageId ? `Monthly team pages are written under page ${String(c.settings.parentPageId)}.` : 'Choose a parent page to start the monthly team pages.'}</p>
                {owner && <RemoveButton path={`${NOTION}/connections/${c.id}`} queryKey={NOTION} what="Notion" />}
              </div>
            ))}
            {owner && (s.connections.length === 0 || s.connections.some((c) => c.state === 'needs_reconnect')) && (
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
