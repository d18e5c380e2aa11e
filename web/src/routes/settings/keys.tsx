import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useChange } from '../../api/change';
import { api } from '../../api/client';
import type { Data, KeyInput, NewApiKey } from '../../api/contract';
import { meQuery, useCan } from '../../api/me';
import { keysQuery, type ApiKey } from '../../api/queries/keys';
import { ConfirmButton, CopyButton, Field, FormAlert, fieldProps, useFormErrors } from '../../components/Form';
import { ListPanel } from '../../components/ListPanel';
import { ErrorNote } from '../../components/states';
import { formatDateTime } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';

/** The secret of a new key lives in this component's state only, shown once (UI.md, Security). */
function NewKey({ created, role, onDone }: { created: NewApiKey; role: string; onDone: () => void }) {
  return (
    <section className="panel" aria-labelledby="new-key-title" data-testid="new-key">
      <h2 id="new-key-title">Key “{created.name}” created</h2>
      <p>Copy it now: it is shown only this once and cannot be recovered.</p>
      <div className="secret">
        <code data-testid="new-key-secret">{created.key}</code>
        <CopyButton text={created.key} label="Copy key" />
      </div>
      <p className="notice">
        This key carries your role (<strong>{role}</strong>): whoever holds it can do what you can in this organisation, exports included. For finance or a scheduled job, create
        the key from a dedicated member account.
      </p>
      <button type="button" onClick={onDone}>
        Done, I have stored it
      </button>
    </section>
  );
}

function CreateKey({ onCreated }: { onCreated: (key: NewApiKey) => void }) {
  const create = useChange((body: KeyInput) => api('POST /api/keys', { json: body }), [['api', '/api/keys']], (res) => onCreated(res.data));
  const { errors, form } = useFormErrors(create.error, ['name']);
  return (
    <form
      ref={form}
      noValidate
      aria-labelledby="create-key-title"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        create.mutate({ name: String(data.get('name') ?? '') }, { onSuccess: () => form.current?.reset() });
      }}
    >
      <h2 id="create-key-title">Create a key</h2>
      <FormAlert errors={errors} />
      <div className="form-row">
        <Field form="key" name="name" label="Name" errors={errors} invalid="Give the key a name (at most 100 characters)." hint="Where the key is used, e.g. “CI deployments” or “finance export”.">
          <input {...fieldProps('key', 'name', errors)} maxLength={100} autoComplete="off" />
        </Field>
        <button className="primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create key'}
        </button>
      </div>
    </form>
  );
}

function RevokeKey({ k }: { k: ApiKey }) {
  const revoke = useChange(() => api('DELETE /api/keys/:id', { params: { id: k.id } }), [['api', '/api/keys']]);
  return (
    <>
      <ConfirmButton label="Revoke" confirmLabel="Revoke key" question={`Revoke “${k.name}”? Anything using it stops working at once.`} onConfirm={() => revoke.mutate()} disabled={revoke.isPending} />
      {revoke.isError && <ErrorNote error={revoke.error} />}
    </>
  );
}

export function KeysPage() {
  usePageTitle('API keys');
  const me = useQuery(meQuery);
  const [page, setPage] = useState(1);
  const keys = useQuery({ ...keysQuery(page), placeholderData: (prev) => prev });
  const [created, setCreated] = useState<NewApiKey | null>(null);
  const listAll = useCan()('key.listAll') === true;
  return (
    <>
      <h1>API keys</h1>
      <p>
        Keys let CI pipelines, trackers, scripts and AI assistants call the API as you. {listAll ? 'As an owner you see every key of the organisation.' : 'You see the keys you created.'}{' '}
        A CLI gets its own key with <code>delivery-analytics login</code>.
      </p>
      {created ? <NewKey created={created} role={me.data?.data.activeTenant.role ?? 'member'} onDone={() => setCreated(null)} /> : <CreateKey onCreated={setCreated} />}
      <ListPanel
        title="Active keys"
        id="keys"
        query={keys}
        height={160}
        onPage={setPage}
        rowKey={(k) => k.id}
        columns={[
          { key: 'name', header: 'Name', cell: (k) => k.name },
          { key: 'prefix', header: 'Begins with', cell: (k) => <code>{k.prefix}…</code> },
          { key: 'createdBy', header: 'Created by', cell: (k) => (k.createdBy.userId === me.data?.data.user.id ? 'you' : k.createdBy.email) },
          { key: 'createdAt', header: 'Created', cell: (k) => formatDateTime(k.createdAt) },
          { key: 'lastUsedAt', header: 'Last used', cell: (k) => (k.lastUsedAt ? formatDateTime(k.lastUsedAt) : 'never') },
        ]}
        actions={(k) => <RevokeKey k={k} />}
        empty="No active key yet. Create one above."
      />
    </>
  );
}
