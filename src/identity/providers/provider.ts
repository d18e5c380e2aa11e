/**
 * What every sign-in provider offers the flow (src/auth/providers/flow.ts): its client
 * configuration of `openid-client` (discovered once per process for OpenID Connect providers), the
 * scopes to ask for, and how to read a profile from the token response. All protocol work
 * (PKCE, state, nonce, the code exchange, ID-token validation through JWKS) is the library's.
 */
import * as oidc from 'openid-client';

export const PROVIDER_IDS = ['github', 'gitlab', 'google', 'microsoft'] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

/** What the provider vouches for about the person, read from a validated response. */
export interface ProviderProfile {
  /** The provider's immutable id of the account (GitHub's numeric id, an ID token's `sub`). */
  subject: string;
  /** Addresses the provider says the person controls, lower-cased, the primary one first. */
  verifiedEmails: string[];
  /** The address as reported (verified or not), for display only. */
  email: string | null;
  /** A code host's username (GitHub login, GitLab username); null for identity providers. */
  username: string | null;
}

export type TokenResponse = Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;

export interface SignInProvider {
  id: ProviderId;
  /** The button's text: "Sign in with <label>". */
  label: string;
  /** A code host: its username becomes a person identity (docs/auth.md). */
  codeHost: boolean;
  /** OpenID Connect: a nonce is sent and an ID token is required and validated. */
  openIdConnect: boolean;
  redirectUri: string;
  scope: string;
  configuration(): Promise<oidc.Configuration>;
  profile(configuration: oidc.Configuration, tokens: TokenResponse): Promise<ProviderProfile>;
}

/** Tests and development may point a provider at plain http on loopback; production config refuses http (src/config/signIn.ts). */
export function execute(url: string): Array<(config: oidc.Configuration) => void> {
  return new URL(url).protocol === 'http:' ? [oidc.allowInsecureRequests] : [];
}

/** Seconds a request to a provider may take before the provider counts as down. */
export const PROVIDER_TIMEOUT_SECONDS = 10;

export const lower = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value.toLowerCase() : null);
