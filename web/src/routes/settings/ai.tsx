import { useQuery } from '@tanstack/react-query';
import { useChange } from '../../api/change';
import { api } from '../../api/client';
import type { AiSettings, AiSettingsInput, Data } from '../../api/contract';
import { apiQuery, cubeQuery, num } from '../../api/cube';
import { Field, FormAlert, fieldProps, useFormErrors } from '../../components/Form';
import { Panel } from '../../components/states';
import { usePageTitle } from '../../lib/usePageTitle';
import { useCan } from '../../api/me';
import { AiToolsSection } from './aiTools';
import { AttributionPanels } from './aiAttribution';


const TOUCHES = [['api', '/api/ai/settings']];

function monthRange(): [string, string] {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0));
  return [first.toISOString().slice(0, 10), last.toISOString().slice(0, 10)];
}

function SettingsForm({ settings }: { settings: AiSettings }) {
  const save = useChange((body: AiSettingsInput) => api('PUT /api/ai/settings', { json: body }), TOUCHES);
  const { errors, form } = useFormErrors(save.error, ['provider', 'models', 'apiKey', 'monthlyTokenBudget']);
  return (
    <form
      ref={form}
      noValidate
      aria-labelledby="ai-form-title"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const provider = String(data.get('provider') ?? '');
        const apiKey = String(data.get('apiKey') ?? '').trim();
        const budget = String(data.get('monthlyTokenBudget') ?? '').trim();
        save.mutate({
          provider: provider === '' ? null : (provider as NonNullable<AiSettingsInput['provider']>),
          models: String(data.get('models') ?? '').split(',').map((m) => m.trim()).filter(Boolean),
          ...(apiKey ? { apiKey } : {}),
          monthlyTokenBudget: budget === '' ? null : Number(budget),
        }, { onSuccess: () => form.current?.querySelector<HTMLInputElement>('input[name="apiKey"]')?.setAttribute('value', '') });
      }}
    >
      <h2 id="ai-form-title">The organisation’s provider</h2>
      <FormAlert errors={errors} />
      <Field form="ai" name="provider" label="Provider" errors={errors} hint="Empty: the models the server is configured with.">
        <select {...fieldProps('ai', 'provider', errors)} defaultValue={settings.provider ?? ''}>
          <option value="">Server’s configuration</option>
          <option value="openai">OpenAI</option>
          <option value="anthropic">Anthropic</option>
          <option value="google">Google</option>
        </select>
      </Field>
      <Field form="ai" name="models" label="Models, tried in order" errors={errors} hint="Comma-separated, e.g. gpt-4.1-mini, gpt-4.1">
        <input {...fieldProps('ai', 'models', errors)} defaultValue={settings.models.join(', ')} autoComplete="off" />
      </Field>
      <Field form="ai" name="apiKey" label="API key" errors={errors} hint={settings.apiKeySet ? 'A key is stored (never shown again). Leave empty to keep it.' : 'Stored encrypted; never shown again.'}>
        <input {...fieldProps('ai', 'apiKey', errors)} type="password" autoComplete="off" />
      </Field>
      <Field form="ai" name="monthlyTokenBudget" label="Monthly token budget" errors={errors} hint="Input plus output tokens per calendar month; empty: no limit.">
        <input {...fieldProps('ai', 'monthlyTokenBudget', errors)} inputMode="numeric" defaultValue={settings.monthlyTokenBudget ?? ''} />
      </Field>
      <button className="primary" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save'}</button>
    </form>
  );
}

export function AiSettingsPage() {
  usePageTitle('AI');
  const manage = useCan()('ai.manage') === true;
  const settings = useQuery(apiQuery('GET /api/ai/settings'));
  const usage = useQuery(cubeQuery({ measures: ['ai_usage.ai_tokens', 'ai_usage.ai_calls'], timeDimensions: [{ dimension: 'ai_usage.created_at', dateRange: monthRange() }] }));
  const s = settings.data?.data;
  return (
    <>
      <h1>AI</h1>
      <p>Session summaries, quality assessments and the notebook call a language model: the organisation’s own provider and key when set here, else the server’s.</p>
      <Panel title="Status" id="ai-status" query={settings} height={120}>
        {() =>
          s ? (
            <dl>
              <div><dt>Models from</dt><dd data-testid="ai-source">{s.source === 'organisation' ? 'This organisation’s provider' : s.source === 'environment' ? 'The server’s configuration' : 'Nowhere: the AI features are off'}</dd></div>
              <div><dt>Session summaries and assessments</dt><dd>{s.features.sessionReviews ? 'On' : 'Off'}</dd></div>
              <div><dt>Notebook</dt><dd>{s.features.notebook ? 'On' : 'Off'}</dd></div>
            </dl>
          ) : null
        }
      </Panel>
      <Panel title="Usage this month" id="ai-usage" query={usage} height={80}>
        {() => {
          const row = usage.data?.data[0];
          const tokens = num(row, 'ai_usage.ai_tokens') ?? 0;
          return (
            <p data-testid="ai-usage">
              {tokens.toLocaleString()} tokens in {(num(row, 'ai_usage.ai_calls') ?? 0).toLocaleString()} model calls
              {s?.monthlyTokenBudget ? ` of a budget of ${s.monthlyTokenBudget.toLocaleString()}` : ''}
            </p>
          );
        }}
      </Panel>
      {manage && s ? <SettingsForm settings={s} /> : null}
      <AiToolsSection manage={manage} />
      <AttributionPanels />
    </>
  );
}
