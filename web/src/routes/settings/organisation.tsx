import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useChange } from '../../api/change';
import { api } from '../../api/client';
import type { ConfigReport as Report, Data, Me, NewTenant, Role, TenantInput, UpdateMe } from '../../api/contract';
import { meQuery, useCan } from '../../api/me';
import { Field, FormAlert, fieldProps, useFormErrors } from '../../components/Form';
import { usePageTitle } from '../../lib/usePageTitle';

function Rename({ tenant }: { tenant: { id: string; name: string } }) {
  const rename = useChange((name: string) => api('PATCH /api/tenants/:id', { params: { id: tenant.id }, json: { name } }), [['api', '/api/users/me']]);
  const { errors, form } = useFormErrors(rename.error, ['name']);
  return (
    <form
      ref={form}
      noValidate
      className="panel"
      aria-labelledby="rename-title"
      onSubmit={(e) => {
        e.preventDefault();
        rename.mutate(String(new FormData(e.currentTarget).get('name') ?? ''));
      }}
    >
      <h2 id="rename-title">Name</h2>
      <FormAlert errors={errors} />
      <div className="form-row">
        <Field form="rename" name="name" label="Organisation name" errors={errors}>
          <input {...fieldProps('rename', 'name', errors)} defaultValue={tenant.name} key={tenant.name} maxLength={200} />
        </Field>
        <button className="primary" disabled={rename.isPending}>
          Rename
        </button>{' '}
        {rename.isSuccess && <span role="status">Renamed.</span>}
      </div>
    </form>
  );
}

/** A new organisation is empty and owned by its creator, who is switched into it at once. */
function CreateTenant() {
  const create = useMutation({
    mutationFn: async (name: string) => {
      const created = await api('POST /api/tenants', { json: { name } });
      await api('PATCH /api/users/me', { json: { activeTenantId: created.data.id } });
    },
    // A full load: cached answers and the live socket belong to the previous organisation.
    onSuccess: () => location.assign('/app/settings/import'),
  });
  const { errors, form } = useFormErrors(create.error, ['name']);
  return (
    <form
      ref={form}
      noValidate
      className="panel"
      aria-labelledby="create-tenant-title"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate(String(new FormData(e.currentTarget).get('name') ?? ''));
      }}
    >
      <h2 id="create-tenant-title">Create another organisation</h2>
      <p className="muted">A separate organisation with its own teams, data and keys; you become its owner and switch to it. Switch back with the organisation menu at the top.</p>
      <FormAlert errors={errors} />
      <div className="form-row">
        <Field form="new-tenant" name="name" label="New organisation’s name" errors={errors}>
          <input {...fieldProps('new-tenant', 'name', errors)} maxLength={200} />
        </Field>
        <button className="primary" disabled={create.isPending}>
          Create organisation
        </button>
      </div>
    </form>
  );
}

function flatten(value: unknown, path = ''): [string, string][] {
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => flatten(v, path ? `${path}.${k}` : k));
  return [[path, value === true ? 'yes' : value === false ? 'no' : String(value)]];
}

/**
 * The server's configuration report (booleans and kinds, never a value) for the global
 * administrator. The secret is typed here for one request and kept in component state only.
 */
function ConfigReport() {
  const [secret, setSecret] = useState('');
  const report = useMutation({ mutationFn: () => api('GET /api/config-report', { headers: { 'X-Admin-Secret': secret }, signInOn401: false }) });
  return (
    <section className="panel" aria-labelledby="config-title">
      <h2 id="config-title">Server configuration report</h2>
      <p className="muted">For the operator: which parts of the server are configured (yes/no and kinds, never a value). Needs the administrator secret (ADMIN_SECRET).</p>
      <form
        noValidate
        className="form-row"
        onSubmit={(e) => {
          e.preventDefault();
          report.mutate();
        }}
      >
        <div className="field">
          <label htmlFor="admin-secret">Administrator secret</label>
          <input id="admin-secret" type="password" autoComplete="off" value={secret} onChange={(e) => setSecret(e.target.value)} />
        </div>
        <button disabled={!secret || report.isPending}>Show report</button>
      </form>
      {report.isError && <FormAlert errors={{ field: () => undefined, general: report.error }} />}
      {report.data && (
        <table data-testid="config-report">
          <tbody>
            {flatten(report.data.data).map(([k, v]) => (
              <tr key={k}>
                <th scope="row">{k}</th>
                <td>{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The caller's role, in words (what it allows comes from `actions`, never from this). */
const ROLE_NAME: Record<Role, string> = { owner: 'an owner', member: 'a member' };

export function OrganisationPage() {
  usePageTitle('Organisation');
  const me = useQuery(meQuery);
  const rename = useCan()('tenant.manage') === true;
  const tenant = me.data?.data.activeTenant;
  return (
    <>
      <h1>Organisation</h1>
      {tenant && (
        <p>
          You are {ROLE_NAME[tenant.role]} of <strong>{tenant.name}</strong> (<code>{tenant.slug}</code>).
        </p>
      )}
      {tenant && rename && <Rename tenant={tenant} />}
      <CreateTenant />
      <ConfigReport />
    </>
  );
}
