import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useChange } from '../../api/change';
import { api } from '../../api/client';
import { apiQuery } from '../../api/cube';
import type { Data, List, Person, PersonChange } from '../../api/contract';
import { Field, FormAlert, fieldProps, useFormErrors } from '../../components/Form';
import { ListPanel } from '../../components/ListPanel';
import { usePageTitle } from '../../lib/usePageTitle';
import { useCan } from '../../api/me';

type Identity = PersonChange['identities'][number];
const KINDS: Record<string, string> = { email: 'E-mail', codehost_username: 'Code-host username' };

/**
 * Manual identities tie commits, pull requests and AI sessions under another address or username to
 * the person; register identities come from the register and are not edited here.
 */
function IdentityEditor({ person }: { person: Person }) {
  const manual = person.identities.filter((i) => i.source === 'manual').map(({ kind, value }) => ({ kind, value }) as Identity);
  const save = useChange((identities: Identity[]) => api('PATCH /api/people/:id', { params: { id: person.id }, json: { identities } }), [['api', '/api/people']]);
  const { errors, form } = useFormErrors(save.error, ['identities']);
  const formId = `identity-${person.id}`;
  return (
    <div>
      <FormAlert errors={errors} />
      {manual.length > 0 && (
        <ul className="plain" aria-label={`Manual identities of ${person.displayName ?? person.externalRef}`}>
          {manual.map((i) => (
            <li key={`${i.kind}:${i.value}`}>
              {KINDS[i.kind] ?? i.kind}: {i.value}{' '}
              <button type="button" disabled={save.isPending} onClick={() => save.mutate(manual.filter((m) => m !== i))}>
                Remove {i.value}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        ref={form}
        noValidate
        className="form-row"
        aria-label={`Add an identity to ${person.displayName ?? person.externalRef}`}
        onSubmit={(e) => {
          e.preventDefault();
          const data = new FormData(e.currentTarget);
          save.mutate([...manual, { kind: String(data.get('kind')) as Identity['kind'], value: String(data.get('identities') ?? '') }], { onSuccess: () => form.current?.reset() });
        }}
      >
        <div className="field">
          <label htmlFor={`${formId}-kind`}>Kind</label>
          <select id={`${formId}-kind`} name="kind" defaultValue="email">
            {Object.entries(KINDS).map(([k, label]) => (
              <option key={k} value={k}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <Field form={formId} name="identities" label="Value" errors={errors}>
          <input {...fieldProps(formId, 'identities', errors)} autoComplete="off" />
        </Field>
        <button className="primary" disabled={save.isPending}>
          Add identity
        </button>
      </form>
    </div>
  );
}

export function PeoplePage() {
  usePageTitle('People');
  const manage = useCan()('person.manage') === true;
  const [page, setPage] = useState(1);
  const [q, setQ] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const people = useQuery({ ...apiQuery('GET /api/people', { query: { page, perPage: 25, q: q.trim() || undefined } }), placeholderData: (prev) => prev });
  return (
    <>
      <h1>People</h1>
      <p>
        People come from the register. Their identities (e-mail addresses, code-host usernames) attribute pull requests, commits and AI sessions to them; add an identity by hand when
        someone works under an address the register does not know.
      </p>
      <div className="field">
        <label htmlFor="people-search">Search</label>
        <input
          id="people-search"
          type="search"
          value={q}
          onChange={(e) => {
            setQ(e.target.value);
            setPage(1);
          }}
          placeholder="Name, external ref or e-mail"
        />
      </div>
      <ListPanel
        title="People"
        id="people"
        query={people}
        height={240}
        onPage={setPage}
        rowKey={(p) => p.id}
        columns={[
          { key: 'name', header: 'Person', cell: (p) => p.displayName ?? '—' },
          { key: 'externalRef', header: 'External ref', cell: (p) => p.externalRef },
          { key: 'teams', header: 'Teams', cell: (p) => p.teams.map((t) => t.slug).join(', ') || <span className="muted">none</span> },
          {
            key: 'identities',
            header: 'Identities',
            cell: (p) => (
              <>
                {p.identities.map((i) => (
                  <div key={`${i.kind}:${i.value}`} className="identity">
                    {i.value} <span className="muted">({i.source === 'manual' ? 'added by hand' : 'register'})</span>
                  </div>
                ))}
                {open === p.id && <IdentityEditor person={p} />}
              </>
            ),
          },
        ]}
        actions={
          manage
            ? (p) => (
                <button type="button" aria-expanded={open === p.id} onClick={() => setOpen(open === p.id ? null : p.id)}>
                  {open === p.id ? 'Close' : 'Edit identities'}
                </button>
              )
            : undefined
        }
        empty={q.trim() ? `Nobody matches “${q.trim()}”.` : 'No person yet: people come from the register (Settings › Register and seats).'}
      />
    </>
  );
}
