import { twoTenants, type BuiltTenant } from './factories.js';
import { testServer, type TestServer } from './server.js';

/** The usual suite preamble: a fresh database behind a test server (with these options), and tenants A and B (see twoTenants). */
export async function serverWithTwoTenants(
  options: Parameters<typeof testServer>[0] = {},
  names: { a?: string; b?: string } = {},
): Promise<{ api: TestServer; a: BuiltTenant; b: BuiltTenant }> {
  const api = await testServer(options);
  return { api, ...(await twoTenants(api.databaseUrl, names)) };
}
