import type { Config } from '../../config/index.js';
import { oidcProvider } from './oidcProvider.js';
import type { SignInProvider } from './provider.js';

/** Google (the first identity provider): `email_verified` must be true. */
export function googleProvider(app: NonNullable<Config['signIn']['idp1']>): SignInProvider {
  return oidcProvider({
    id: 'google',
    label: 'Google',
    codeHost: false,
    issuer: app.issuer,
    app,
    emailVerified: (claims) => claims.email_verified === true,
    username: () => null,
  });
}
