/**
 * Checked by `npm run lint` (tsc -p web/tsconfig.json), never bundled (nothing imports it): the
 * route table's types hold. Each `@ts-expect-error` line must fail to compile, so a change that
 * lets a wrong key, parameter, body or field through fails the lint (docs/web.md "Typing").
 */
import { api, type Answer } from './client';

export function routeTableTypes(sources: Answer<'GET /api/deployment-sources'>, me: Answer<'GET /api/users/me'>) {
  // The answer is the presenter's type (presentDeploymentSource): its fields, and no others.
  const row = sources.data[0];
  const fields: [string, string, number, number] | undefined = row && [row.projectId, row.projectKey, row.storedDeployments.webhook, sources.meta.total];
  // @ts-expect-error a field presentDeploymentSource does not send
  void row?.projectName;
  // @ts-expect-error the list's meta names its sources, typed by the server's enum
  const source: 'ftp' = sources.meta.sources[0]!;
  // The caller's actions are the policy table's.
  const action: 'deploymentSource.manage' | 'key.listAll' | undefined = me.data.actions.find((a) => a === 'deploymentSource.manage');

  return [
    fields,
    source,
    action,
    api('GET /api/deployment-sources', { query: { perPage: 100 } }),
    api('PUT /api/deployment-sources/:projectId', { params: { projectId: 'p' }, json: { source: 'workflow_runs', workflow: 'deploy.yml' } }),
    // @ts-expect-error a route the table does not have
    api('GET /api/deployment-source'),
    // @ts-expect-error a method the path does not answer
    api('DELETE /api/deployment-sources'),
    // @ts-expect-error the path parameter is required
    api('GET /api/teams/:id'),
    // @ts-expect-error a path parameter of another name
    api('GET /api/teams/:id', { params: { teamId: 't' } }),
    // @ts-expect-error a value the body schema refuses
    api('PUT /api/deployment-sources/:projectId', { params: { projectId: 'p' }, json: { source: 'ftp' } }),
    // @ts-expect-error a body the route requires
    api('POST /api/keys'),
    // @ts-expect-error a query parameter's value outside its enum
    api('GET /api/facts', { query: { measure: 'deployments.count', format: 'xml' } }),
  ];
}
