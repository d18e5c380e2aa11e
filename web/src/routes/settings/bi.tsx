import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useChange } from '../../api/change';
import { api } from '../../api/client';
import type { BiCredentialInput, Data } from '../../api/contract';
import { biCredentialsQuery, type BiCredential, type NewBiCredential } from '../../api/queries/bi';
import { ConfirmButton, CopyButton, Field, FormAlert, fieldProps, useFormErrors } from '../../components/Form';
import { ListPanel } from '../../components/ListPanel';
import { ErrorNote } from '../../components/states';
import { formatDateTime } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';
import { useCan } from '../../api/me';

const TOUCHES = [['api', '/api/bi/credentials']];

/** The password lives in this component's state only, shown once (UI.md, Security). */
function NewCredential({ created, onDone }: { created: NewBiCredential; onDone: () => void }) {
  const rows: [string, string][] = [
    ['Host', created.host],
    ['Port', String(created.port)],
    ['Database', created.database],
    ['User', created.user],
    ['Password', created.password],
    ['SSL mode', created.sslmode],
  ];
  return (
    <section className="panel" aria-labelledby="new-bi-title" data-testid="new-bi-credential">
      <h2 id="new-bi-title">Credential “{created.name}” created</h2>
      <p>Copy the password now: it is shown only this once and cannot be recovered.</p>
      <dl>
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>
              <code data-testid={`bi-${label.toLowerCase().replace(' ', '-')}`}>{value}</code>
            </dd>
          </div>
        ))}
      </dl>
      <div className="secret">
        <code>{created.url}</code>
        <CopyButton text={created.url} label="Copy connection URL" />
      </div>
      <button type="button" onClick={onDone}>
        Done, I have stored it
      </button>
    </section>
  );
}

function CreateCredential({ onCreated }: { onCreated: (created: NewBiCredential) => void }) {
  const create = useChange((body: BiCredentialInput) => api('POST /api/bi/credentials', { json: body }), TOUCHES, (res) => onCreated(res.data));
  const { errors, form } = useFormErrors(create.error, ['name']);
  return (
    <form
      ref={form}
      noValidate
      aria-labelledby="create-bi-title"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        create.mutate({ name: String(data.get('name') ?? '') }, { onSuccess: () => form.current?.reset() });
      }}
    >
      <h2 id="create-bi-title">Create a BI credential</h2>
      <FormAlert errors={errors} />
      <div className="form-row">
        <Field form="bi" name="name" label="Name" errors={errors} invalid="Give the credential a name (at most 100 characters)." hint="The tool it is for, e.g. “Metabase” or “Power BI finance”.">
          <input {...fieldProps('bi', 'name', errors)} maxLength={100} autoComplete="off" />
        </Field>
        <button className="primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create credential'}
        </button>
      </div>
    </form>
  );
}

function RevokeCredential({ c }: { c: BiCredential }) {
  const revoke = useChange(() => api('DELETE /api/bi/credentials/:id', { params: { id: c.id } }), TOUCHES);
  return (
    <>
      <ConfirmButton label="Revoke" confirmLabel="Revoke credential" question={`Revoke “${c.name}”? Its open connections end at once.`} onConfirm={() => revoke.mutate()} disabled={revoke.isPending} />
      {revoke.isError && <ErrorNote error={revoke.error} />}
    </>
  );
}

export function BiAccessPage() {
  usePageTitle('BI access');
  const manage = useCan()('bi.manage');
  return (
    <>
      <h1>BI access</h1>
      <p>
        BI tools (Metabase, Superset, Tableau, Power BI, Excel) connect as a read-only PostgreSQL user that sees this organisation’s <code>bi</code> views only: one per data
        model, with the same flags the measures count.
      </p>
      {/* Credentials are the owner's (the API refuses a member); a member who opens the page by its address reads what it is for. */}
      {manage === true && <Credentials />}
      {manage === false && (
        <p data-testid="bi-owner-only">
          An owner of the organisation creates and revokes BI credentials: each is a database user and password for one tool. Ask an owner for a credential for the tool you
          use.
        </p>
      )}
    </>
  );
}

function Credentials() {
  const credentials = useQuery(biCredentialsQuery());
  const [created, setCreated] = useState<NewBiCredential | null>(null);
  return (
    <>
      {created ? <NewCredential created={created} onDone={() => setCreated(null)} /> : <CreateCredential onCreated={setCreated} />}
      <ListPanel
        title="Credentials"
        id="bi-credentials"
        query={credentials}
        height={120}
        rowKey={(c) => c.id}
        columns={[
          { key: 'name', header: 'Name', cell: (c) => c.name },
          { key: 'user', header: 'User', cell: (c) => <code>{c.user}</code> },
          { key: 'createdAt', header: 'Created', cell: (c) => formatDateTime(c.createdAt) },
        ]}
        actions={(c) => <RevokeCredential c={c} />}
        empty="No BI credential yet. Create one above."
      />
    </>
  );
}
