import type { Config } from '../../config/index.js';
import { oidcProvider } from './oidcProvider.js';
import type { SignInProvider } from './provider.js';

/**
 * GitLab (the second code host), gitlab.com or a self-managed instance (CODEHOST2_BASE_URL, which
 * is its OpenID Connect issuer). `email_verified` must be true; the username is `nickname`
 * (GitLab also sends it as `preferred_username`).
 */
export function gitlabProvider(app: NonNullable<Config['signIn']['codehost2']>): SignInProvider {
  return oidcProvider({
    id: 'gitlab',
    label: 'GitLab',
    codeHost: true,
    issuer: app.issuer,
    app,
    emailVerified: (claims) => claims.email_verified === true,
    username: (claims) => {
      const name = claims.nickname ?? claims.preferred_username;
      return typeof name === 'string' && name !== '' ? name : null;
    },
  });
}
