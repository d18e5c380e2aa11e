import { useQuery } from '@tanstack/react-query';
import { useChange } from '../../api/change';
import { api } from '../../api/client';
import type { AiVendorSource, AiVendorSourceInput } from '../../api/contract';
import { apiQuery } from '../../api/cube';
import { Field, FormAlert, fieldProps, useFormErrors } from '../../components/Form';
import { Panel } from '../../components/states';

const TOUCHES = [['api', '/api/ai/vendors']];

const KEY_HINTS: Record<AiVendorSource['source'], string> = {
  claude_code_analytics: 'An Anthropic Admin API key (sk-ant-admin…), from Claude Console › Settings › Admin keys.',
  copilot: 'A token with manage_billing:copilot; leave empty when the code-host application is installed on the organisation.',
  cursor: 'A Cursor Admin API key, from the Cursor dashboard › Settings › Admin API keys.',
};

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');

function SourceForm({ s }: { s: AiVendorSource }) {
  const form = `ai-tools-${s.source}`;
  const save = useChange((body: AiVendorSourceInput) => api('PUT /api/ai/vendors/:source', { params: { source: s.source }, json: body }), TOUCHES);
  const pull = useChange(() => api('POST /api/ai/vendors/:source/pull', { params: { source: s.source } }), TOUCHES);
  const remove = useChange(() => api('DELETE /api/ai/vendors/:source', { params: { source: s.source } }), TOUCHES);
  const { errors, form: ref } = useFormErrors(save.error, ['apiKey', 'org', 'backfillDays']);
  return (
    <form
      ref={ref}
      noValidate
      aria-label={`${s.name} key`}
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const apiKey = String(data.get('apiKey') ?? '').trim();
        const org = String(data.get('org') ?? '').trim();
        const days = String(data.get('backfillDays') ?? '').trim();
        save.mutate({ ...(apiKey ? { apiKey } : {}), ...(org ? { org } : {}), ...(days ? { backfillDays: Number(days) } : {}) });
      }}
    >
      <FormAlert errors={errors} />
      {s.source === 'copilot' ? (
        <Field form={form} name="org" label="GitHub organisation" errors={errors}>
          <input {...fieldProps(form, 'org', errors)} defaultValue={s.org ?? ''} autoComplete="off" />
        </Field>
      ) : null}
      <Field form={form} name="apiKey" label={s.source === 'copilot' ? 'Token' : 'Admin API key'} errors={errors} hint={`${KEY_HINTS[s.source]} ${s.keySet ? 'A key is stored (never shown again); leave empty to keep it.' : 'Tested with the vendor, then stored encrypted; never shown again.'}`}>
        <input {...fieldProps(form, 'apiKey', errors)} type="password" autoComplete="off" />
      </Field>
      <Field form={form} name="backfillDays" label="Days to pull back on the first run" errors={errors} hint="Default 90.">
        <input {...fieldProps(form, 'backfillDays', errors)} inputMode="numeric" defaultValue={s.backfillDays ?? ''} />
      </Field>
      <button className="primary" disabled={save.isPending}>{save.isPending ? 'Testing the key…' : 'Save'}</button>
      {s.configured ? (
        <>
          {' '}<button type="button" onClick={() => pull.mutate(undefined)} disabled={pull.isPending}>Pull now</button>
          {' '}<button type="button" onClick={() => remove.mutate(undefined)} disabled={remove.isPending}>Remove the key</button>
        </>
      ) : null}
    </form>
  );
}

/** Settings › AI › AI tools: the vendors' daily reports (docs/ai-vendor-reports.md). */
export function AiToolsSection({ manage }: { manage: boolean }) {
  const sources = useQuery(apiQuery('GET /api/ai/vendors'));
  return (
    <Panel title="AI tools: vendor reports" id="ai-tools" query={sources} height={200}>
      {() => (
        <>
          <p>Claude Code Analytics, GitHub Copilot and Cursor report each person’s day; with an admin key the server pulls those reports (Cursor hourly, the others daily) into AI active users and AI commits.</p>
          {(sources.data?.data ?? []).map((s) => (
            <section key={s.source} aria-labelledby={`ai-tools-${s.source}-title`} data-testid={`ai-tools-${s.source}`}>
              <h3 id={`ai-tools-${s.source}-title`}>{s.name}</h3>
              {s.configured ? (
                <dl>
                  {s.org ? <div><dt>Organisation</dt><dd>{s.org}</dd></div> : null}
                  <div><dt>Last run</dt><dd>{s.running ? 'Running now' : when(s.lastRunAt)}</dd></div>
                  <div><dt>Last success</dt><dd>{when(s.lastSuccessAt)}{s.syncedThrough ? ` (days through ${s.syncedThrough})` : ''}</dd></div>
                  <div><dt>Last error</dt><dd role={s.lastError ? 'alert' : undefined}>{s.lastError ? `${s.lastError} (${when(s.lastErrorAt)})` : 'none'}</dd></div>
                  {s.notice ? <div><dt>Note</dt><dd>{s.notice}</dd></div> : null}
                </dl>
              ) : (
                <p className="muted">Not set up.</p>
              )}
              {manage ? <SourceForm s={s} /> : null}
            </section>
          ))}
        </>
      )}
    </Panel>
  );
}
