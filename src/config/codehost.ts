/**
 * The code host: its application (webhooks, installations; CODEHOST_APP_*) and the read-only
 * token and GraphQL endpoint of the benchmark corpus (docs/benchmarks.md). Sign-in with the code
 * host is a sign-in provider (signIn.ts).
 */
import { endpointOverride, parseHttpUrl, type Reader } from './reader.js';

export type CodehostAppConfig = {
  appId: string;
  privateKey: string;
  webhookSecret: string | null;
  name: string | null;
  /** The REST API the application acts through as its installations (the 90-day deployment backfill). */
  apiUrl: string;
} | null;

export interface CorpusConfig {
  codehostPublicToken: string | null;
  /** The code host's GraphQL endpoint for the benchmark corpus (CODEHOST_PUBLIC_GRAPHQL_URL; an addition, for tests and GitHub Enterprise). */
  codehostPublicGraphqlUrl: string;
}

export function parseCodehostApp(r: Reader, production = false): CodehostAppConfig {
  const app = r.group('code-host application group (CODEHOST_APP_ID)', ['CODEHOST_APP_ID', 'CODEHOST_APP_PRIVATE_KEY'], ['CODEHOST_APP_WEBHOOK_SECRET', 'CODEHOST_APP_NAME', 'CODEHOST_APP_API_URL']);
  // Installation tokens cross to this URL: never in clear in production (GitHub Enterprise: https://<host>/api/v3).
  const apiUrl = endpointOverride(r, 'CODEHOST_APP_API_URL', production, 'https://api.github.com');
  return app && {
    appId: app.CODEHOST_APP_ID as string,
    privateKey: app.CODEHOST_APP_PRIVATE_KEY as string,
    webhookSecret: r.get('CODEHOST_APP_WEBHOOK_SECRET'),
    name: r.get('CODEHOST_APP_NAME'),
    apiUrl,
  };
}

export function parseCorpus(r: Reader, production: boolean): CorpusConfig {
  const graphqlUrl = parseHttpUrl(r, 'CODEHOST_PUBLIC_GRAPHQL_URL', r.get('CODEHOST_PUBLIC_GRAPHQL_URL'));
  // The read-only token crosses to this URL: never in clear in production.
  if (graphqlUrl && production && graphqlUrl.protocol !== 'https:') r.problems.push('CODEHOST_PUBLIC_GRAPHQL_URL must use https when NODE_ENV is production');
  return {
    codehostPublicToken: r.get('CODEHOST_PUBLIC_TOKEN'),
    codehostPublicGraphqlUrl: graphqlUrl ? graphqlUrl.href : 'https://api.github.com/graphql',
  };
}
