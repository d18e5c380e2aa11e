import { oidcProvider } from "./oidcProvider.js";
function gitlabProvider(app) {
  return oidcProvider({
    id: "gitlab",
    label: "GitLab",
    codeHost: true,
    issuer: app.issuer,
    app,
    emailVerified: (claims) => claims.email_verified === true,
    username: (claims) => {
      const name = claims.nickname ?? claims.preferred_username;
      return typeof name === "string" && name !== "" ? name : null;
    }
  });
}
export {
  gitlabProvider
};
