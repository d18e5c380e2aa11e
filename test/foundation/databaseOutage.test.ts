/**
 * While PostgreSQL is unreachable every request that needs it is a 503 `unavailable` with
 * Retry-After (the webhook API's own envelope there), never a 500; once it is back, requests
 * succeed again without a restart. The database is really stopped, not simulated.
 */
import { expect } from 'chai';
import { buildTenant, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { stoppableDatabase, type StoppableDatabase } from '../helpers/stoppableDatabase.js';
import { ISSUES, issue } from '../webhooks/helpers.js';

describe('database outage', function () {
  this.timeout(120_000);
  let database: StoppableDatabase;
  let api: TestServer;
  let tenant: BuiltTenant;

  before(async () => {
    database = await stoppableDatabase();
    api = await testServer({ databaseUrl: database.url });
    tenant = await buildTenant(database.url);
  });
  after(async () => {
    await api?.close();
    await database?.remove();
  });

  it('answers 503 unavailable with Retry-After while the database is stopped, and recovers when it is back', async () => {
    expect((await api.as(tenant.owner.apiKey).get('/api/users/me')).status).to.equal(200);
    await database.stop();

    const general = await api.as(tenant.owner.apiKey).get('/api/users/me');
    expect(general.status).to.equal(503);
    expect(general.body.error.code).to.equal('unavailable');
    expect(general.headers.get('retry-after')).to.equal('5');

    const anonymous = await api.get('/api/users/me');
    expect(anonymous.status).to.equal(503);

    const webhook = await api.as(tenant.owner.apiKey).post(ISSUES, issue());
    expect(webhook.status).to.equal(503);
    expect(webhook.body).to.deep.equal({ error: 'Service unavailable' });
    expect(webhook.headers.get('retry-after')).to.equal('5');

    const cube = await api.as(tenant.owner.apiKey).post('/cubejs-api/v1/load', { query: { measures: ['issues.issues_closed'] } });
    expect(cube.status).to.equal(503);

    expect((await api.get('/health')).status).to.equal(200);
    expect((await api.get('/health/ready')).status).to.equal(503);

    await database.start();
    const back = await api.as(tenant.owner.apiKey).get('/api/users/me');
    expect(back.status).to.equal(200);
    const stored = await api.as(tenant.owner.apiKey).post(ISSUES, issue());
    expect(stored.status).to.equal(201);
  });
});
