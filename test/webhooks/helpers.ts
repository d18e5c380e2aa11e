import { buildMember, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';

export const ISSUES = '/api/webhooks/v1/issues';
export const DEPLOYMENTS = '/api/webhooks/v1/deployments';

export const issue = (over: Record<string, unknown> = {}) => ({
  projectKey: 'acme/web',
  externalId: `ISS-${Math.random().toString(36).slice(2)}`,
  title: 'Checkout fails',
  type: 'bug',
  state: 'open',
  ...over,
});

export const deployment = (over: Record<string, unknown> = {}) => ({
  projectKey: 'acme/web',
  externalId: `DEP-${Math.random().toString(36).slice(2)}`,
  ref: 'main',
  sha: 'abcdef1',
  environment: 'production',
  status: 'success',
  ...over,
});

/**
 * A tenant whose API keys rotate: each key serves at most 90 requests, so tests that send many
 * requests never meet the 100-a-minute webhook limit they are not about.
 */
export class Sender {
  private uses = 0;
  private key: string;
  private constructor(
    readonly api: TestServer,
    readonly tenant: BuiltTenant,
  ) {
    this.key = tenant.owner.apiKey;
  }

  static async create(api: TestServer): Promise<Sender> {
    return new Sender(api, await buildTenant(api.databaseUrl));
  }

  get tenantId(): string {
    return this.tenant.tenantId;
  }

  async client() {
    if (this.uses >= 90) {
      this.key = (await buildMember(this.api.databaseUrl, this.tenant.tenantId)).apiKey;
      this.uses = 0;
    }
    this.uses += 1;
    return this.api.as(this.key);
  }

  async post(path: string, body: unknown, headers?: Record<string, string>) {
    return (await this.client()).post(path, body, headers);
  }
}

export async function rows<T = any>(api: TestServer, text: string, values: unknown[] = []): Promise<T[]> {
  return (await dbFor(api.databaseUrl).pool.query(text, values)).rows as T[];
}

/** Suite preamble: a fresh server and a Sender for a new tenant on it. */
export async function serverWithSender(): Promise<{ api: TestServer; sender: Sender }> {
  const api = await testServer();
  return { api, sender: await Sender.create(api) };
}
