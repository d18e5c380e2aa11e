/**
 * GitHub (the first code host) speaks plain OAuth 2.0 with PKCE and has no ID token: the account
 * (`/user`) and its addresses (`/user/emails`, only those with `verified: true` count) are read
 * from its REST API with the access token, which is then forgotten (never stored).
 */
import * as oidc from 'openid-client';
import type { Config } from '../../config/index.js';
import { execute, lower, PROVIDER_TIMEOUT_SECONDS, type ProviderProfile, type SignInProvider } from './provider.js';

interface GitHubUser { id: number; login: string; email: string | null }
interface GitHubEmail { email: string; primary: boolean; verified: boolean }

export function githubProvider(app: NonNullable<Config['signIn']['codehost']>): SignInProvider {
  const configuration = new oidc.Configuration(
    { issuer: app.baseUrl, authorization_endpoint: `${app.baseUrl}/login/oauth/authorize`, token_endpoint: `${app.baseUrl}/login/oauth/access_token` },
    app.clientId,
    app.clientSecret,
  );
  for (const apply of [...execute(app.baseUrl), ...execute(app.apiUrl)].slice(0, 1)) apply(configuration);
  configuration.timeout = PROVIDER_TIMEOUT_SECONDS;

  async function read<T>(accessToken: string, path: string): Promise<T> {
    const headers = new Headers({ accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', 'user-agent': 'delivery-analytics' });
    const url = new URL(`${app.apiUrl}${path}`);
    const res = await oidc.fetchProtectedResource(configuration, accessToken, url, 'GET', undefined, headers);
    if (!res.ok) throw new ProviderHttpError(res.status, path);
    return (await res.json()) as T;
  }

  return {
    id: 'github',
    label: 'GitHub',
    codeHost: true,
    openIdConnect: false,
    redirectUri: app.redirectUri,
    scope: 'read:user user:email',
    configuration: async () => configuration,
    async profile(_configuration, tokens): Promise<ProviderProfile> {
      const [user, emails] = await Promise.all([read<GitHubUser>(tokens.access_token, '/user'), read<GitHubEmail[]>(tokens.access_token, '/user/emails')]);
      if (typeof user?.id !== 'number' || typeof user.login !== 'string' || !Array.isArray(emails)) throw new ProviderHttpError(502, '/user');
      const verified = emails.filter((e) => e.verified === true && typeof e.email === 'string').sort((a, b) => Number(b.primary) - Number(a.primary));
      return {
        subject: String(user.id),
        verifiedEmails: verified.map((e) => e.email.toLowerCase()),
        email: lower(emails.find((e) => e.primary)?.email ?? user.email),
        username: user.login,
      };
    },
  };
}

/** A provider's API answered with an error status (5xx: it is down). */
export class ProviderHttpError extends Error {
  constructor(readonly status: number, path: string) {
    super(`provider API ${path} answered ${status}`);
  }
}
