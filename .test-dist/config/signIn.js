import { endpointOverride, parseHttpUrl } from "./reader.js";
function parseSignIn(r, appUrl, production, email) {
  const url = (name, fallback) => endpointOverride(r, name, production, fallback);
  const callback = (provider) => `${appUrl}/auth/${provider}/callback`;
  const app = (g, redirectUri, overrides) => {
    const [clientId, clientSecret] = Object.values(g);
    return { clientId, clientSecret, redirectUri, overridden: overrides.some((n) => r.get(n) !== null) };
  };
  const github = r.group("codehost (CODEHOST_CLIENT_ID, CODEHOST_CLIENT_SECRET)", ["CODEHOST_CLIENT_ID", "CODEHOST_CLIENT_SECRET"], ["CODEHOST_BASE_URL", "CODEHOST_API_URL"]);
  const google = r.group("idp1 (IDP1_CLIENT_ID, IDP1_CLIENT_SECRET, IDP1_REDIRECT_URI)", ["IDP1_CLIENT_ID", "IDP1_CLIENT_SECRET", "IDP1_REDIRECT_URI"], ["IDP1_ISSUER"]);
  const gitlab = r.group("codehost2 (CODEHOST2_CLIENT_ID, CODEHOST2_CLIENT_SECRET, CODEHOST2_REDIRECT_URI)", ["CODEHOST2_CLIENT_ID", "CODEHOST2_CLIENT_SECRET", "CODEHOST2_REDIRECT_URI"], ["CODEHOST2_BASE_URL"]);
  const microsoft = r.group("idp2 (IDP2_CLIENT_ID, IDP2_CLIENT_SECRET)", ["IDP2_CLIENT_ID", "IDP2_CLIENT_SECRET"], ["IDP2_TENANT", "IDP2_ISSUER"]);
  const tenant = r.get("IDP2_TENANT") ?? "organizations";
  if (!/^[A-Za-z0-9][A-Za-z0-9.-]{0,99}$/.test(tenant)) r.problems.push("IDP2_TENANT must be a tenant id, a domain, organizations, common or consumers");
  const redirect = (name, g) => g ? parseHttpUrl(r, name, g[name])?.href ?? "" : "";
  const githubBase = url("CODEHOST_BASE_URL", "https://github.com");
  return {
    email,
    codehost: github && {
      ...app(github, callback("github"), ["CODEHOST_BASE_URL", "CODEHOST_API_URL"]),
      baseUrl: githubBase,
      // GitHub Enterprise Server serves its API under /api/v3 of the same host.
      apiUrl: url("CODEHOST_API_URL", githubBase === "https://github.com" ? "https://api.github.com" : `${githubBase}/api/v3`)
    },
    idp1: google && { ...app(google, redirect("IDP1_REDIRECT_URI", google), ["IDP1_ISSUER"]), issuer: url("IDP1_ISSUER", "https://accounts.google.com") },
    codehost2: gitlab && { ...app(gitlab, redirect("CODEHOST2_REDIRECT_URI", gitlab), ["CODEHOST2_BASE_URL"]), issuer: url("CODEHOST2_BASE_URL", "https://gitlab.com") },
    idp2: microsoft && {
      ...app(microsoft, callback("microsoft"), ["IDP2_ISSUER"]),
      tenant,
      issuer: url("IDP2_ISSUER", `https://login.microsoftonline.com/${tenant}/v2.0`)
    }
  };
}
export {
  parseSignIn
};
