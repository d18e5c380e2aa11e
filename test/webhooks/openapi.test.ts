import { expect } from 'chai';
import { z } from 'zod';
import { DeploymentWebhook, IssueWebhook } from '../../src/webhooks/schemas.js';
import { buildMember, buildTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { DEPLOYMENTS, deployment, ISSUES, issue, rows } from './helpers.js';

describe('webhook API v1: OpenAPI document and key ownership', () => {
  let api: TestServer;
  before(async () => {
    api = await testServer();
  });
  after(() => api.close());

  it('serves an OpenAPI 3.1 document generated from the validating schemas, without authentication', async () => {
    const res = await api.get('/api/openapi.json');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    const doc = res.body;
    expect(doc.openapi).to.equal('3.1.0');
    // The webhook API's operations, beside the general API's (test/foundation/openapi.test.ts).
    expect(Object.keys(doc.paths)).to.include.members(['/api/webhooks/v1/issues', '/api/webhooks/v1/deployments']);
    const post = doc.paths['/api/webhooks/v1/issues'].post;
    expect(Object.keys(post.responses).sort()).to.deep.equal(['200', '201', '400', '401', '413', '429', '500']);
    expect(post.security).to.deep.equal([{ apiKey: [] }]);
    expect(doc.components.securitySchemes.apiKey).to.include({ type: 'http', scheme: 'bearer' });

    const issueSchema = doc.components.schemas.IssueWebhook;
    expect(issueSchema.required).to.deep.equal(['projectKey', 'externalId', 'title', 'type', 'state']);
    expect(issueSchema.additionalProperties).to.equal(false);
    expect(issueSchema.properties.type.enum).to.deep.equal(['feature', 'bug', 'chore', 'discovery', 'incident', 'other']);
    expect(issueSchema.properties.labels).to.include({ type: 'array' });
    const deploymentSchema = doc.components.schemas.DeploymentWebhook;
    expect(deploymentSchema.required).to.deep.equal(['projectKey', 'externalId', 'ref', 'sha', 'environment', 'status']);
    expect(deploymentSchema.properties.status.enum).to.deep.equal(['pending', 'queued', 'in_progress', 'success', 'failure', 'error', 'inactive']);
    expect(deploymentSchema.properties.sha.pattern).to.equal('^[0-9a-fA-F]{7,40}$');
    // The same schemas: what is served is what z.toJSONSchema makes of the validators.
    const generated = z.toJSONSchema(DeploymentWebhook, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as { $defs: Record<string, any> };
    expect(deploymentSchema.properties).to.deep.equal(generated.$defs.DeploymentWebhook.properties);
    // Every $ref points into the document's own components.
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).to.be.greaterThan(0);
    for (const ref of refs) expect(doc.components.schemas).to.have.property(ref.split('/').pop()!.replace('"', ''));

    // Each request example is valid and accepted by the live API.
    const t = await buildTenant(api.databaseUrl);
    for (const [path, schema, name] of [[ISSUES, IssueWebhook, '/api/webhooks/v1/issues'], [DEPLOYMENTS, DeploymentWebhook, '/api/webhooks/v1/deployments']] as const) {
      const example = doc.paths[name].post.requestBody.content['application/json'].example;
      expect(schema.safeParse(example).success).to.equal(true);
      expect((await api.as(t.owner.apiKey).post(path, example)).status).to.equal(201);
    }
  });

  it("a member's key writes its own tenant; a key whose creator left the tenant is refused", async () => {
    const t = await buildTenant(api.databaseUrl);
    const member = await buildMember(api.databaseUrl, t.tenantId);
    const res = await api.as(member.apiKey).post(ISSUES, issue({ externalId: 'M-1' }));
    expect(res.status).to.equal(201);
    expect((await rows(api, 'select tenant_id from issues where id = $1', [res.body.id]))[0].tenant_id).to.equal(t.tenantId);
    await rows(api, 'delete from tenant_memberships where tenant_id = $1 and user_id = $2', [t.tenantId, member.userId]);
    const gone = await api.as(member.apiKey).post(DEPLOYMENTS, deployment());
    expect(gone.status).to.equal(401);
    expect(gone.text).to.equal('{"error":"Unauthorized"}');
  });
});
