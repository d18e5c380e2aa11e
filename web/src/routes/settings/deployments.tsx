import { useQuery } from '@tanstack/react-query';
import { useChange } from '../../api/change';
import { api, type Answer, type ApiOptions } from '../../api/client';
import { apiQuery } from '../../api/cube';
import { ConfirmButton, Field, FormAlert, fieldProps, useFormErrors } from '../../components/Form';
import { Panel } from '../../components/states';
import { formatClock, formatDay } from '../../lib/format';
import { usePageTitle } from '../../lib/usePageTitle';
import { useCan } from '../../api/me';

/** A project's setting as `GET /api/deployment-sources` answers it (its presenter's type, from the server). */
type DeploymentSourceSetting = Answer<'GET /api/deployment-sources'>['data'][number];
type Source = Answer<'GET /api/deployment-sources'>['meta']['sources'][number];
type Backfill = NonNullable<DeploymentSourceSetting['backfill']>;
type SourceInput = ApiOptions<'PUT /api/deployment-sources/:projectId'>['json'];
type PatternInput = ApiOptions<'PUT /api/deployment-sources/organisation'>['json'];

/** The last 90 days read from the code host (docs/codehost-deployments-backfill.md "Backfill"), in words. */
function backfillText(b: Backfill | null): string {
  if (!b) return 'Not run';
  const of = LABELS[b.source];
  if (b.state === 'finished') return `${of}: ${b.applied} read since ${formatDay(b.since)}`;
  if (b.state === 'waiting') return `${of}: ${b.applied} read; waiting for the code host’s rate limit until ${formatClock(Date.parse(b.waitingUntil ?? b.since))}`;
  if (b.state === 'stopped') return `${of}: stopped after ${b.applied}: ${b.lastError ?? 'unknown reason'}`;
  return b.total === null ? `${of}: listing records since ${formatDay(b.since)}` : `${of}: ${b.applied} of ${b.total} read`;
}

const LABELS: Record<Source, string> = {
  webhook: 'Webhook API (POST /api/webhooks/v1/deployments)',
  deployments: 'Code-host deployments',
  workflow_runs: 'Workflow runs',
  releases: 'Releases',
};

/**
 * The source a project's deployments come from, in words. A project with no source chosen whose
 * rows came from the webhook API counts those rows (nothing is replaced without a source), so the
 * webhook API is named as its source until one is chosen.
 */
function sourceText(r: DeploymentSourceSetting): string {
  if (r.source === 'workflow_runs' && r.workflow) return `${LABELS.workflow_runs} (${r.workflow})`;
  if (r.source) return LABELS[r.source];
  return r.storedDeployments.webhook > 0 ? `${LABELS.webhook}, not chosen yet` : 'Not chosen';
}

// The pattern decides which workflow a project without its own uses: the list changes with it.
const TOUCHES = [['api', '/api/deployment-sources'], ['api', '/api/deployment-sources/organisation']];

type OrganisationPattern = NonNullable<Answer<'GET /api/deployment-sources/organisation'>['data']['pattern']>;

/**
 * The organisation-wide workflow pattern (docs/codehost-deployments.md): runs of a matching
 * workflow on the branch are the deployments of projects without a source or a workflow of their own.
 */
function PatternForm({ pattern }: { pattern: OrganisationPattern | null }) {
  const save = useChange((body: PatternInput) => api('PUT /api/deployment-sources/organisation', { json: body }), TOUCHES);
  const { errors, form } = useFormErrors(save.error, ['pattern.workflow', 'pattern.branch']);
  const id = 'organisation-pattern';
  return (
    <form
      ref={form}
      noValidate
      aria-label="Organisation-wide workflow pattern"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const branch = String(data.get('pattern.branch') ?? '').trim();
        save.mutate({ pattern: { workflow: String(data.get('pattern.workflow') ?? ''), branch: branch === '' ? null : branch } });
      }}
    >
      <FormAlert errors={errors} />
      <Field form={id} name="pattern.workflow" label="Workflow pattern" errors={errors} hint="A workflow file name, * for any characters: deploy*.yml." invalid="Give a workflow file name or pattern, without spaces, e.g. deploy*.yml.">
        <input {...fieldProps(id, 'pattern.workflow', errors)} defaultValue={pattern?.workflow ?? ''} autoComplete="off" />
      </Field>
      <Field form={id} name="pattern.branch" label="Pattern branch" errors={errors} hint="Empty: each repository’s default branch.">
        <input {...fieldProps(id, 'pattern.branch', errors)} defaultValue={pattern?.branch ?? ''} autoComplete="off" />
      </Field>
      <button className="primary" disabled={save.isPending}>{save.isPending ? 'Saving…' : 'Save pattern'}</button>{' '}
      {pattern && <ConfirmButton label="Remove pattern" confirmLabel="Remove" question="Remove the organisation-wide pattern?" disabled={save.isPending} onConfirm={() => save.mutate({ pattern: null })} />}
    </form>
  );
}

function OrganisationPatternPanel({ manage }: { manage: boolean }) {
  const current = useQuery(apiQuery('GET /api/deployment-sources/organisation'));
  const pattern = current.data?.data.pattern ?? null;
  return (
    <Panel title="Organisation-wide workflow pattern" id="organisation-pattern" query={current} height={60}>
      {() => (
        <>
          <p>
            {pattern
              ? `Runs of ${pattern.workflow} on ${pattern.branch ?? 'the default branch'} are the deployments of projects with no source yet or with workflow runs but no workflow of their own.`
              : 'No pattern: only a project’s own workflow counts as its deployment.'}
          </p>
          {manage && <PatternForm key={`${pattern?.workflow}-${pattern?.branch}`} pattern={pattern} />}
        </>
      )}
    </Panel>
  );
}

function SourceForm({ setting }: { setting: DeploymentSourceSetting }) {
  const save = useChange((body: SourceInput) => api('PUT /api/deployment-sources/:projectId', { params: { projectId: setting.projectId }, json: body }), TOUCHES);
  const { errors, form } = useFormErrors(save.error, ['source', 'workflow', 'branch', 'productionEnvironment']);
  const id = `source-${setting.projectId}`;
  const text = (data: FormData, name: string) => {
    const value = String(data.get(name) ?? '').trim();
    return value === '' ? null : value;
  };
  return (
    <form
      ref={form}
      noValidate
      aria-label={`Deployment source of ${setting.projectKey}`}
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        save.mutate({ source: text(data, 'source') as Source | null, workflow: text(data, 'workflow'), branch: text(data, 'branch'), productionEnvironment: text(data, 'productionEnvironment') });
      }}
    >
      <FormAlert errors={errors} />
      <Field form={id} name="source" label="Source" errors={errors} hint="Not chosen: the first source that delivers a deployment claims the project.">
        <select {...fieldProps(id, 'source', errors)} defaultValue={setting.source ?? ''}>
          <option value="">Not chosen</option>
          {(Object.keys(LABELS) as Source[]).map((s) => <option key={s} value={s}>{LABELS[s]}</option>)}
        </select>
      </Field>
      <Field form={id} name="workflow" label="Workflow file" errors={errors} hint="For workflow runs, e.g. deploy.yml.">
        <input {...fieldProps(id, 'workflow', errors)} defaultValue={setting.workflow ?? ''} autoComplete="off" />
      </Field>
      <Field form={id} name="branch" label="Branch" errors={errors} hint="Empty: the repository’s default branch.">
        <input {...fieldProps(id, 'branch', errors)} defaultValue={setting.branch ?? ''} autoComplete="off" />
      </Field>
      <Field form={id} name="productionEnvironment" label="Production environment" errors={errors} hint="Empty: production.">
        <input {...fieldProps(id, 'productionEnvironment', errors)} defaultValue={setting.productionEnvironment ?? ''} autoComplete="off" />
      </Field>
      <button className="primary" disabled={save.isPending}>{save.isPending ? 'Saving…' : `Save ${setting.projectKey}`}</button>
    </form>
  );
}

export function DeploymentSourcesPage() {
  usePageTitle('Deployment sources');
  const manage = useCan()('deploymentSource.manage') === true;
  const list = useQuery(apiQuery('GET /api/deployment-sources', { query: { perPage: 100 } }));
  const rows = list.data?.data ?? [];
  return (
    <>
      <h1>Deployment sources</h1>
      <p>
        Each project takes its deployments from one source: the webhook API, the code host’s deployments, the runs of a named workflow, or
        releases. Another source’s events are acknowledged and not stored, so a deployment never counts twice; rows already stored stay.
      </p>
      <OrganisationPatternPanel manage={manage} />
      <Panel title="Projects" id="deployment-sources" query={list} height={120}>
        {() =>
          rows.length === 0 ? (
            <p>No project yet: projects appear with the code host’s first event or the first webhook.</p>
          ) : (
            <table>
              <thead>
                <tr><th scope="col">Project</th><th scope="col">Source</th><th scope="col">Stored (webhook / code host)</th><th scope="col">Last 90 days from the code host</th></tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.projectId}>
                    <th scope="row">{r.projectKey}</th>
                    <td>{sourceText(r)}</td>
                    <td>{r.storedDeployments.webhook} / {r.storedDeployments.codehost}</td>
                    <td>{backfillText(r.backfill)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Panel>
      {manage ? rows.map((r) => <SourceForm key={`${r.projectId}-${r.source}-${r.workflow}`} setting={r} />) : null}
    </>
  );
}
