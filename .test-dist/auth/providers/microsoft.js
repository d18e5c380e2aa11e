import { oidcProvider } from "./oidcProvider.js";
function microsoftProvider(app) {
  return oidcProvider({
    id: "microsoft",
    label: "Microsoft",
    codeHost: false,
    issuer: app.issuer,
    app,
    emailVerified: (claims) => claims.xms_edov === true || claims.xms_edov === "true" || claims.xms_edov === "1" || claims.xms_edov === 1,
    username: () => null
  });
}
export {
  microsoftProvider
};
