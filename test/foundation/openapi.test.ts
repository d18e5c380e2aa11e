import { expect } from 'chai';
import { generalApiRoutes } from '../../src/http/openapi.js';
import { testServer, type TestServer } from '../helpers/server.js';

/** OpenAPI 3.1 operation keys (a path item's other members are not operations). */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

describe('OpenAPI document of the general API (GET /api/openapi.json)', () => {
  let api: TestServer;
  before(async () => {
    api = await testServer();
  });
  after(() => api.close());

  it('lists every general-API route of the route table, each with its parameters, body schema, security and answers', async () => {
    const res = await api.get('/api/openapi.json');
    expect(res.status).to.equal(200);
    const doc = res.body;
    expect(doc.openapi).to.equal('3.1.0');
    expect(doc.info).to.include.keys('title', 'version');

    // The served operations are the table's /api routes (plus the webhook API's, written by hand).
    const table = generalApiRoutes(api.running.routes);
    expect(table.length).to.be.greaterThan(60);
    const expected = table.map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`).sort();
    const served = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, item]) => Object.keys(item).filter((m) => METHODS.includes(m)).map((m) => `${m.toUpperCase()} ${path}`))
      .filter((op) => !op.includes('/api/webhooks/v1/'))
      .sort();
    expect(served).to.deep.equal(expected);
    expect(served).to.include.members(['GET /api/deployment-sources', 'PUT /api/deployment-sources/{projectId}', 'GET /api/users/me', 'POST /api/keys', 'DELETE /api/keys/{id}',
      // Routers mounted inside another: the notebooks' (in the AI router's), each tracker's.
      'GET /api/notebooks', 'POST /api/notebooks/{id}/cells/{cellId}/run', 'PATCH /api/integrations/jira/connections/{id}', 'POST /api/integrations/linear/connections/{id}/backfill']);

    // Structure: every operation has answers; every path template's parameter is declared as a path parameter.
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const method of Object.keys(item).filter((m) => METHODS.includes(m))) {
        const op = item[method];
        expect(Object.keys(op.responses), `${method} ${path}`).to.not.be.empty;
        const declared = (op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name);
        expect(declared, `${method} ${path}`).to.have.members(names);
      }
    }

    // The request schemas are the validating zod schemas, as JSON Schema.
    const put = doc.paths['/api/deployment-sources/{projectId}'].put;
    expect(put['x-policy']).to.equal('deploymentSource.manage');
    expect(put.security).to.deep.equal([{ apiKey: [] }, { session: [] }]);
    const body = put.requestBody.content['application/json'].schema;
    expect(body.additionalProperties).to.equal(false);
    expect(body.required).to.deep.equal(['source']);
    expect(body.properties.source.anyOf[0].enum).to.deep.equal(['webhook', 'deployments', 'workflow_runs', 'releases']);
    const list = doc.paths['/api/deployment-sources'].get;
    expect(list.parameters.map((p: any) => `${p.in}:${p.name}`)).to.deep.equal(['query:page', 'query:perPage']);
    expect(list.parameters[1].schema).to.include({ maximum: 100, default: 25 });
    expect(Object.keys(list.responses)).to.include.members(['2XX', '400', '401', '429']);
    expect(doc.paths['/api/users/me'].get.security).to.deep.equal([{ apiKey: [] }, { session: [] }]);
    expect(doc.paths['/api/config-report'].get.security).to.deep.equal([{ adminSecret: [] }]);

    // Every reference resolves inside the document.
    const text = JSON.stringify(doc);
    for (const ref of text.match(/"\$ref":"[^"]+"/g) ?? []) {
      expect(ref).to.match(/^"\$ref":"#\/components\/schemas\//);
      expect(doc.components.schemas).to.have.property(ref.slice(ref.lastIndexOf('/') + 1, -1));
    }
    expect(Object.keys(doc.components.securitySchemes).sort()).to.deep.equal(['adminSecret', 'apiKey', 'session']);
  });

  it('is public: no credentials needed', async () => {
    const res = await api.get('/api/openapi.json');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
  });
});
