import type { Config } from '../../config/index.js';
import { oidcProvider } from './oidcProvider.js';
import type { SignInProvider } from './provider.js';

/**
 * Microsoft Entra ID (the second identity provider). Entra's `email` claim is whatever the account's
 * directory says, and any directory can say anything: the "nOAuth" attack is an attacker's tenant
 * setting a victim's address. So the address counts as verified only with the optional claim
 * `xms_edov` ("email domain owner verified") true; without it nothing is linked by e-mail. The
 * multi-tenant authorities (`organizations`, `common`) publish a templated issuer
 * (`…/{tenantid}/v2.0`); openid-client checks the ID token's `iss` against it with the token's `tid`.
 */
export function microsoftProvider(app: NonNullable<Config['signIn']['idp2']>): SignInProvider {
  return oidcProvider({
    id: 'microsoft',
    label: 'Microsoft',
    codeHost: false,
    issuer: app.issuer,
    app,
    emailVerified: (claims) => claims.xms_edov === true || claims.xms_edov === 'true' || claims.xms_edov === '1' || claims.xms_edov === 1,
    username: () => null,
  });
}
