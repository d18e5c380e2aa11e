/** The four sign-in providers (docs/auth-providers.md "Sign-in providers"); e-mail sign-in needs the mailer. */
import { endpointOverride, parseHttpUrl, type Reader } from './reader.js';

/** One sign-in provider's application: the credentials, where the provider sends people back, and whether an endpoint override is set. */
export interface SignInApp {
  clientId: string;
  clientSecret: string;
  /** The provider's redirect URI for this server: the group's REDIRECT_URI, else APP_URL/auth/<provider>/callback. */
  redirectUri: string;
  /** An issuer or base-URL override is set (tests, self-managed installations). */
  overridden: boolean;
}

export interface SignInConfig {
  email: boolean;
  /** First code host: GitHub (CODEHOST_BASE_URL for the web, CODEHOST_API_URL for its REST API). */
  codehost: (SignInApp & { baseUrl: string; apiUrl: string }) | null;
  /** First identity provider: Google (IDP1_ISSUER). */
  idp1: (SignInApp & { issuer: string }) | null;
  /** Second code host: GitLab, gitlab.com unless CODEHOST2_BASE_URL names a self-managed one. */
  codehost2: (SignInApp & { issuer: string }) | null;
  /** Second identity provider: Microsoft Entra ID, `organizations` unless IDP2_TENANT narrows it (IDP2_ISSUER replaces the authority). */
  idp2: (SignInApp & { issuer: string; tenant: string }) | null;
}

/**
 * The sign-in providers' groups. The optional overrides belong to their group: set without the
 * credentials they make it partial (a boot error), like any other member. Production refuses a
 * plain-http override (tokens and codes would cross the network in clear).
 */
export function parseSignIn(r: Reader, appUrl: string, production: boolean, email: boolean): SignInConfig {
  const url = (name: string, fallback: string): string => endpointOverride(r, name, production, fallback);
  const callback = (provider: string) => `${appUrl}/auth/${provider}/callback`;
  // The group's first two names are its client id and secret.
  const app = (g: Record<string, string>, redirectUri: string, overrides: string[]): SignInApp => {
    const [clientId, clientSecret] = Object.values(g) as [string, string];
    return { clientId, clientSecret, redirectUri, overridden: overrides.some((n) => r.get(n) !== null) };
  };

  const github = r.group('codehost (CODEHOST_CLIENT_ID, CODEHOST_CLIENT_SECRET)', ['CODEHOST_CLIENT_ID', 'CODEHOST_CLIENT_SECRET'], ['CODEHOST_BASE_URL', 'CODEHOST_API_URL']);
  const google = r.group('idp1 (IDP1_CLIENT_ID, IDP1_CLIENT_SECRET, IDP1_REDIRECT_URI)', ['IDP1_CLIENT_ID', 'IDP1_CLIENT_SECRET', 'IDP1_REDIRECT_URI'], ['IDP1_ISSUER']);
  const gitlab = r.group('codehost2 (CODEHOST2_CLIENT_ID, CODEHOST2_CLIENT_SECRET, CODEHOST2_REDIRECT_URI)', ['CODEHOST2_CLIENT_ID', 'CODEHOST2_CLIENT_SECRET', 'CODEHOST2_REDIRECT_URI'], ['CODEHOST2_BASE_URL']);
  const microsoft = r.group('idp2 (IDP2_CLIENT_ID, IDP2_CLIENT_SECRET)', ['IDP2_CLIENT_ID', 'IDP2_CLIENT_SECRET'], ['IDP2_TENANT', 'IDP2_ISSUER']);

  const tenant = r.get('IDP2_TENANT') ?? 'organizations';
  // A directory GUID, a verified domain, or one of Entra's multi-tenant names: never a path.
  if (!/^[A-Za-z0-9][A-Za-z0-9.-]{0,99}$/.test(tenant)) r.problems.push('IDP2_TENANT must be a tenant id, a domain, organizations, common or consumers');
  const redirect = (name: string, g: Record<string, string> | null) => (g ? (parseHttpUrl(r, name, g[name] as string)?.href ?? '') : '');

  const githubBase = url('CODEHOST_BASE_URL', 'https://github.com');
  return {
    email,
    codehost: github && {
      ...app(github, callback('github'), ['CODEHOST_BASE_URL', 'CODEHOST_API_URL']),
      baseUrl: githubBase,
      // GitHub Enterprise Server serves its API under /api/v3 of the same host.
      apiUrl: url('CODEHOST_API_URL', githubBase === 'https://github.com' ? 'https://api.github.com' : `${githubBase}/api/v3`),
    },
    idp1: google && { ...app(google, redirect('IDP1_REDIRECT_URI', google), ['IDP1_ISSUER']), issuer: url('IDP1_ISSUER', 'https://accounts.google.com') },
    codehost2: gitlab && { ...app(gitlab, redirect('CODEHOST2_REDIRECT_URI', gitlab), ['CODEHOST2_BASE_URL']), issuer: url('CODEHOST2_BASE_URL', 'https://gitlab.com') },
    idp2: microsoft && {
      ...app(microsoft, callback('microsoft'), ['IDP2_ISSUER']),
      tenant,
      issuer: url('IDP2_ISSUER', `https://login.microsoftonline.com/${tenant}/v2.0`),
    },
  };
}
