/**
 * The OpenID Connect providers (Google, GitLab, Microsoft Entra ID) share one shape: discovery at
 * the issuer, scopes `openid email profile`, and a profile read from the validated ID token's
 * claims. They differ only in which claim proves the address and which is the username.
 */
import * as oidc from 'openid-client';
import { execute, PROVIDER_TIMEOUT_SECONDS, type ProviderId, type ProviderProfile, type SignInProvider } from './provider.js';
import type { SignInApp } from '../../config/index.js';

export interface OidcSpec {
  id: ProviderId;
  label: string;
  codeHost: boolean;
  issuer: string;
  app: SignInApp;
  /** Whether the claims prove that the person controls `email`. */
  emailVerified(claims: oidc.IDToken): boolean;
  username(claims: oidc.IDToken): string | null;
}

export function oidcProvider(spec: OidcSpec): SignInProvider {
  let discovered: Promise<oidc.Configuration> | null = null;
  return {
    id: spec.id,
    label: spec.label,
    codeHost: spec.codeHost,
    openIdConnect: true,
    redirectUri: spec.app.redirectUri,
    scope: 'openid email profile',
    configuration() {
      // Discovered once per process; a failure is not kept, so the next sign-in tries again.
      discovered ??= oidc
        .discovery(new URL(spec.issuer), spec.app.clientId, spec.app.clientSecret, undefined, { execute: execute(spec.issuer), timeout: PROVIDER_TIMEOUT_SECONDS })
        .catch((error: unknown) => {
          discovered = null;
          throw error;
        });
      return discovered;
    },
    async profile(_configuration, tokens): Promise<ProviderProfile> {
      // authorizationCodeGrant validated the ID token (signature through JWKS, iss, aud, exp, nonce).
      const claims = tokens.claims() as oidc.IDToken;
      const email = typeof claims.email === 'string' && claims.email !== '' ? claims.email.toLowerCase() : null;
      return {
        subject: claims.sub,
        verifiedEmails: email !== null && spec.emailVerified(claims) ? [email] : [],
        email,
        username: spec.username(claims),
      };
    },
  };
}
