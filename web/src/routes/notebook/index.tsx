import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { keepScope } from '../../lib/scope';
import { useChange } from '../../api/change';
import { api } from '../../api/client';
import type { Data, List, NotebookInput, NotebookSummary } from '../../api/contract';
import { apiQuery } from '../../api/cube';
import { Field, FormAlert, fieldProps, useFormErrors } from '../../components/Form';
import { Panel } from '../../components/states';
import { formatDateTime } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';

export function NotebooksPage() {
  usePageTitle('Notebook');
  const list = useQuery(apiQuery('GET /api/notebooks'));
  const create = useChange((body: NotebookInput) => api('POST /api/notebooks', { json: body }), [['api', '/api/notebooks']]);
  const { errors, form } = useFormErrors(create.error, ['title']);
  return (
    <>
      <h1>Notebook</h1>
      <p>Ask questions about your delivery data in plain language. The assistant answers with the same measures as the dashboards and MCP, for this organisation only.</p>
      <form ref={form} noValidate aria-labelledby="new-notebook" onSubmit={(e) => {
        e.preventDefault();
        create.mutate({ title: String(new FormData(e.currentTarget).get('title') ?? '') }, { onSuccess: () => form.current?.reset() });
      }}>
        <h2 id="new-notebook">New notebook</h2>
        <FormAlert errors={errors} />
        <div className="form-row">
          <Field form="notebook" name="title" label="Title" errors={errors}>
            <input {...fieldProps('notebook', 'title', errors)} maxLength={200} autoComplete="off" />
          </Field>
          <button className="primary" disabled={create.isPending}>Create notebook</button>
        </div>
      </form>
      <Panel title="Notebooks" id="notebooks" query={list} height={120}>
        {() =>
          list.data && list.data.data.length > 0 ? (
            <ul>
              {list.data.data.map((n) => (
                <li key={n.id}>
                  <Link to="/notebook/$notebookId" params={{ notebookId: n.id }} search={keepScope}>{n.title}</Link> · {n.mine ? (n.shared ? 'yours, shared' : 'yours') : 'shared with you'} · {formatDateTime(n.updatedAt)}
                </li>
              ))}
            </ul>
          ) : (
            <p className="empty">No notebook yet. Create one above.</p>
          )
        }
      </Panel>
    </>
  );
}
