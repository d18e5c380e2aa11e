import { oidcProvider } from "./oidcProvider.js";
function googleProvider(app) {
  return oidcProvider({
    id: "google",
    label: "Google",
    codeHost: false,
    issuer: app.issuer,
    app,
    emailVerified: (claims) => claims.email_verified === true,
    username: () => null
  });
}
export {
  googleProvider
};
