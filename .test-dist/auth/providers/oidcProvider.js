import * as oidc from "openid-client";
import { execute, PROVIDER_TIMEOUT_SECONDS } from "./provider.js";
function oidcProvider(spec) {
  let discovered = null;
  return {
    id: spec.id,
    label: spec.label,
    codeHost: spec.codeHost,
    openIdConnect: true,
    redirectUri: spec.app.redirectUri,
    scope: "openid email profile",
    configuration() {
      discovered ??= oidc.discovery(new URL(spec.issuer), spec.app.clientId, spec.app.clientSecret, void 0, { execute: execute(spec.issuer), timeout: PROVIDER_TIMEOUT_SECONDS }).catch((error) => {
        discovered = null;
        throw error;
      });
      return discovered;
    },
    async profile(_configuration, tokens) {
      const claims = tokens.claims();
      const email = typeof claims.email === "string" && claims.email !== "" ? claims.email.toLowerCase() : null;
      return {
        subject: claims.sub,
        verifiedEmails: email !== null && spec.emailVerified(claims) ? [email] : [],
        email,
        username: spec.username(claims)
      };
    }
  };
}
export {
  oidcProvider
};
