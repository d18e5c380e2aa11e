/**
 * Settings › AI, attribution (docs/ai-attribution.md): the labels that mark a PR as AI-assisted
 * besides `ai-assisted`, and, for owners, how many merged PRs each signal found in the last three
 * months, so an owner sees which of the organisation's sources are set up.
 */
import { useQuery } from '@tanstack/react-query';
import { TOUCHES, useChange } from '../../api/change';
import { api } from '../../api/client';
import type { AttributionSettings, AttributionSettingsInput, AttributionSignals } from '../../api/contract';
import { apiQuery } from '../../api/cube';
import { useCan } from '../../api/me';
import { DataTable, type Column } from '../../components/DataTable';
import { Field, FormAlert, fieldProps, useFormErrors } from '../../components/Form';
import { Panel } from '../../components/states';

// The labels change every team's AI-assisted share: every answer is fetched again after a save.

/** The last three whole months up to this one, `YYYY-MM`. */
function lastMonths(): { from: string; to: string } {
  const now = new Date();
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1));
  return { from: from.toISOString().slice(0, 7), to: now.toISOString().slice(0, 7) };
}

function LabelsForm({ settings }: { settings: AttributionSettings }) {
  const save = useChange((body: AttributionSettingsInput) => api('PUT /api/ai/attribution/settings', { json: body }), TOUCHES.everything);
  const { errors, form } = useFormErrors(save.error, ['labels']);
  return (
    <form
      ref={form}
      noValidate
      aria-labelledby="ai-labels-form-title"
      onSubmit={(e) => {
        e.preventDefault();
        const labels = String(new FormData(e.currentTarget).get('labels') ?? '').split(',').map((l) => l.trim()).filter(Boolean);
        save.mutate({ labels });
      }}
    >
      <h3 id="ai-labels-form-title">Labels that mark a PR as AI-assisted</h3>
      <FormAlert errors={errors} />
      <Field form="ai-labels" name="labels" label="Labels besides ai-assisted" errors={errors} hint="Comma-separated, as on the code host; case does not matter. Every team’s AI-assisted PR share changes with them.">
        <input {...fieldProps('ai-labels', 'labels', errors)} defaultValue={settings.labels.join(', ')} autoComplete="off" />
      </Field>
      <button className="primary" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save labels'}</button>
    </form>
  );
}

type SignalRow = AttributionSignals['signals'][number];
const SIGNAL_COLUMNS: Column<SignalRow>[] = [
  { key: 'title', header: 'Signal', cell: (r) => r.title },
  { key: 'level', header: 'Level', cell: (r) => r.level },
  { key: 'prs', header: 'Merged PRs', numeric: true, cell: (r) => r.prs.toLocaleString() },
];

function SignalCounts() {
  const window = lastMonths();
  const signals = useQuery(apiQuery('GET /api/ai/attribution/signals', { query: window }));
  const d = signals.data?.data;
  return (
    <Panel title="What found the AI-assisted PRs" id="ai-signals" query={signals} height={200}>
      {() =>
        d ? (
          <>
            <p data-testid="ai-signals-levels">
              {window.from} to {window.to}: {d.prsMerged.toLocaleString()} merged PRs; high {d.levels.high}, medium {d.levels.medium}, low {d.levels.low}, none {d.levels.none}.
              A PR found by two signals counts under both.
            </p>
            <DataTable caption="Merged PRs per signal" columns={SIGNAL_COLUMNS} rows={d.signals} rowKey={(r) => r.signal} />
          </>
        ) : null
      }
    </Panel>
  );
}

export function AttributionPanels() {
  const can = useCan();
  const settings = useQuery(apiQuery('GET /api/ai/attribution/settings'));
  const s = settings.data?.data;
  return (
    <>
      <Panel title="AI attribution" id="ai-attribution" query={settings} height={80}>
        {() =>
          s ? (
            <>
              <p>
                Each merged PR gets a level from its evidence: high (a linked AI session, vendor commit data), medium (AI trailers, labels, agent
                branches and authors), low (only its author’s AI activity on a commit day). The AI-assisted PR share counts high and medium.
              </p>
              <p data-testid="ai-labels">Labels read: {[s.defaultLabel, ...s.labels].join(', ')}</p>
              {can('aiAttribution.manage') === true ? <LabelsForm settings={s} /> : null}
            </>
          ) : null
        }
      </Panel>
      {can('aiAttribution.signals') === true ? <SignalCounts /> : null}
    </>
  );
}
