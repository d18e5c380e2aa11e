import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import { useChange } from '../../api/change';
import type { Codehost, Data, Installation, InstallationInput } from '../../api/contract';
import { apiQuery } from '../../api/cube';
import { ConfirmButton, CopyButton, Field, FormAlert, fieldProps, useFormErrors } from '../../components/Form';
import { DataTable } from '../../components/DataTable';
import { ErrorNote, Panel } from '../../components/states';
import { formatDateTime } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';
import { useCan } from '../../api/me';
import { TrackersPanel } from './integrations/trackers';
import { NotionPanel, SlackPanel } from './integrations/chatDocs';

const CODEHOST = '/api/integrations/codehost';

function Url({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <code data-testid={testId}>{value}</code> <CopyButton text={value} label={`Copy ${label.toLowerCase()}`} />
      </dd>
    </>
  );
}

function LinkInstallation() {
  const link = useChange((installationId: string) => api('POST /api/integrations/codehost/installations', { json: { installationId } }), [['api', CODEHOST]]);
  const { errors, form } = useFormErrors(link.error, ['installationId']);
  return (
    <form
      ref={form}
      noValidate
      aria-labelledby="link-title"
      onSubmit={(e) => {
        e.preventDefault();
        link.mutate(String(new FormData(e.currentTarget).get('installationId') ?? '').trim(), { onSuccess: () => form.current?.reset() });
      }}
    >
      <h3 id="link-title">Link an installation by its id</h3>
      <FormAlert errors={errors} />
      <div className="form-row">
        <Field form="codehost" name="installationId" label="Installation id" errors={errors} hint="The number at the end of the installation’s settings URL on the code host.">
          <input {...fieldProps('codehost', 'installationId', errors)} inputMode="numeric" autoComplete="off" />
        </Field>
        <button className="primary" disabled={link.isPending}>
          Link installation
        </button>
      </div>
    </form>
  );
}

const stateOf = (i: Installation) => (i.removed ? 'removed on the code host' : i.suspended ? 'suspended on the code host' : i.linkedAt ? 'linked' : 'not linked');

function Unlink({ i }: { i: Installation }) {
  const unlink = useChange(() => api('DELETE /api/integrations/codehost/installations/:installationId', { params: { installationId: String(i.installationId) } }), [['api', CODEHOST]]);
  return (
    <>
      {i.linkedAt && !i.removed && (
        <ConfirmButton label="Unlink" confirmLabel="Unlink installation" question={`Unlink installation ${i.installationId}? Its events stop counting for this organisation.`} onConfirm={() => unlink.mutate()} />
      )}
      {unlink.isError && <ErrorNote error={unlink.error} />}
    </>
  );
}

export function IntegrationsPage() {
  usePageTitle('Integrations');
  const can = useCan();
  const link = can('codehost.link') === true;
  const manage = can('integration.manage') === true;
  const codehost = useQuery(apiQuery('GET /api/integrations/codehost'));
  // The setup callback sends the owner back here once an installation is linked.
  const [justLinked] = useState(() => {
    const params = new URLSearchParams(location.search);
    return params.get('codehost') === 'linked' ? params.get('installation') : null;
  });
  return (
    <>
      <h1>Integrations</h1>
      {justLinked && (
        <p role="status" className="notice" data-testid="just-linked">
          Installation {justLinked} is linked: its pull requests, commits and issues now arrive here.
        </p>
      )}
      <Panel title="Code host application" id="codehost" query={codehost} height={200}>
        {() => {
          const c = codehost.data?.data;
          if (!c) return null;
          if (!c.enabled)
            return (
              <p className="empty" data-testid="empty">
                No code-host application is configured on this server: pull requests, commits and issues cannot arrive yet. An operator sets CODEHOST_APP_ID and CODEHOST_APP_PRIVATE_KEY
                (README, “Code-host application”).
              </p>
            );
          return (
            <>
              <p>
                {c.appName ? `The application “${c.appName}” is configured.` : 'The application is configured.'}{' '}
                {c.webhooksAccepted ? 'Webhooks are accepted.' : 'Webhooks are refused until the operator sets CODEHOST_APP_WEBHOOK_SECRET.'}
              </p>
              <dl className="facts">
                <Url label="Webhook URL" value={c.webhookUrl} testId="webhook-url" />
                <Url label="Setup URL" value={c.setupUrl} testId="setup-url" />
              </dl>
              <p className="muted">Install the application on your account on the code host; it sends you back to the setup URL, where you confirm the link to this organisation.</p>
              <h3>Installations</h3>
              {c.installations.length === 0 ? (
                <p className="empty">No installation linked yet.</p>
              ) : (
                <DataTable
                  testId="installations"
                  columns={[
                    { key: 'installationId', header: 'Installation', cell: (i) => i.installationId },
                    {
                      key: 'account',
                      header: 'Account',
                      cell: (i) => (
                        <>
                          {i.accountLogin ?? '—'} {i.accountType && <span className="muted">({i.accountType})</span>}
                        </>
                      ),
                    },
                    { key: 'state', header: 'State', cell: stateOf },
                    { key: 'linkedAt', header: 'Linked', cell: (i) => (i.linkedAt ? formatDateTime(i.linkedAt) : '—') },
                  ]}
                  actions={link ? (i) => <Unlink i={i} /> : undefined}
                  rows={c.installations}
                  rowKey={(i) => String(i.installationId)}
                />
              )}
              {link && <LinkInstallation />}
            </>
          );
        }}
      </Panel>
      <TrackersPanel manage={manage} />
      <SlackPanel manage={manage} />
      <NotionPanel manage={manage} />
    </>
  );
}
