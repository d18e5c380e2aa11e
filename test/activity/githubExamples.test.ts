/**
 * GitHub's own example payloads (`@octokit/webhooks-examples`: github.com's and GitHub Enterprise
 * Server's) for every event the code-host webhook reads, every action included, signed with
 * `@octokit/webhooks-methods` as GitHub signs them. Each example's installation is mapped to one linked to the tenant (an App's deliveries
 * always name theirs; the repository-webhook examples name none), so each is applied, not set aside.
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import type { WebhookDefinition } from '@octokit/webhooks-examples';
import { HANDLED_EVENTS, ignoredAction } from '../../src/codehost/webhook.js';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { announceInstallation, codehostEnv, FIXTURE_SECRET, WEBHOOK } from './helpers.js';

const require = createRequire(import.meta.url);
/** github.com's examples, then those of each GitHub Enterprise Server release the package carries. */
const FLAVOURS = ['api.github.com', 'ghes-31', 'ghes-32', 'ghes-33', 'ghes-34', 'ghes-35'];
const definitions = FLAVOURS.map((flavour) => require(`@octokit/webhooks-examples/${flavour}/index.json`) as WebhookDefinition[]);
const INSTALLATION = 73_000_001;

describe('code-host webhook: GitHub\'s own example payloads', function () {
  this.timeout(120_000);
  let api: TestServer;
  let tenant: BuiltTenant;
  let sign: (secret: string, payload: string) => Promise<string>;

  before(async () => {
    // Imported here: the package is ESM only ("import" condition), and a static import makes mocha
    // load this file a second way, with a second copy of the test helpers.
    ({ sign } = await import('@octokit/webhooks-methods'));
    api = await testServer({ env: codehostEnv() });
    tenant = await buildTenant(api.databaseUrl);
    await announceInstallation(api.databaseUrl, INSTALLATION);
    const linked = await api.as(tenant.owner.apiKey).post('/api/integrations/codehost/installations', { installationId: INSTALLATION });
    expect(linked.status).to.equal(201);
  });
  after(() => api.close());

  /** Sends an example as GitHub would, with the installation mapped to the linked one. */
  async function deliver(event: string, example: Record<string, unknown>) {
    const payload = { ...example, installation: { ...(example.installation as object | undefined), id: INSTALLATION } };
    const body = JSON.stringify(payload);
    return api.post(WEBHOOK, new Uint8Array(Buffer.from(body)), {
      'content-type': 'application/json',
      'x-github-event': event,
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': await sign(FIXTURE_SECRET, body),
      'user-agent': 'GitHub-Hookshot/5a1b2c3',
    });
  }

  /**
   * Deployments claim their repository's project (the first source that delivers one,
   * docs/codehost-deployments.md); no owner named a workflow or chose releases, so runs and releases
   * are acknowledged and not stored.
   */
  function notTheSource(event: string, example: Record<string, unknown>) {
    const repo = (example.repository as { full_name: string }).full_name;
    if (repo === 'Codertocat/Hello-World') {
      return { stored: false, reason: `the deployment source of ${repo} is code-host deployments, not ${event === 'release' ? 'releases' : 'workflow runs'}` };
    }
    return { stored: false, reason: `no workflow is named as the deployment of ${repo}` };
  }

  // Installation events last: they change the installation the others are delivered through.
  const order = [...HANDLED_EVENTS].sort((a, b) => Number(a.startsWith('installation')) - Number(b.startsWith('installation')));
  for (const event of order) {
    const found = definitions.flatMap((flavour) => flavour.filter((d) => d.name === event));
    const actions = [...new Set(found.flatMap((d) => d.actions))].sort();
    it(`${event}: every example (${actions.join(', ') || 'no actions'}) is applied`, async () => {
      const examples = found.flatMap((d) => d.examples) as unknown as Record<string, unknown>[];
      expect(examples, `no examples of ${event}`).to.not.be.empty;
      for (const [i, example] of examples.entries()) {
        const res = await deliver(event, example);
        const label = `${event}.${String(example.action ?? '')} (example ${i}): ${JSON.stringify(res.body)}`;
        expect(res.status, label).to.equal(200);
        const action = example.action as string | undefined;
        const expected =
          event === 'ping' ? { stored: false, reason: 'ping' }
          : ignoredAction(event, action) ? { stored: false, reason: `action ${action} of ${event} is not used` }
          : event === 'workflow_run' || event === 'release' ? notTheSource(event, example)
          : { stored: true };
        expect(res.body.data, label).to.include(expected);
      }
    });
  }

  it('the examples became the tenant\'s facts', async () => {
    const { pool } = dbFor(api.databaseUrl);
    const count = async (table: string) => Number((await pool.query(`select count(*)::int as n from ${table} where tenant_id = $1`, [tenant.tenantId])).rows[0].n);
    for (const table of ['projects', 'pull_requests', 'pull_request_reviewers', 'commits', 'issues', 'codehost_deliveries']) expect(await count(table), table).to.be.greaterThan(0);
    // The deployment examples name two deployment ids; each is one row with its latest status.
    const { rows } = await pool.query(
      `select external_id, environment, status, is_production, provider from deployments where tenant_id = $1 order by external_id`, [tenant.tenantId]);
    expect(rows).to.deep.equal([
      { external_id: 'gh-deployment-145988746', environment: 'production', status: 'success', is_production: true, provider: 'codehost' },
      { external_id: 'gh-deployment-2', environment: 'production', status: 'success', is_production: true, provider: 'codehost' },
    ]);
  });
});
