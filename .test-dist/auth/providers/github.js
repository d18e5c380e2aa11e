import * as oidc from "openid-client";
import { execute, lower, PROVIDER_TIMEOUT_SECONDS } from "./provider.js";
function githubProvider(app) {
  const configuration = new oidc.Configuration(
    { issuer: app.baseUrl, authorization_endpoint: `${app.baseUrl}/login/oauth/authorize`, token_endpoint: `${app.baseUrl}/login/oauth/access_token` },
    app.clientId,
    app.clientSecret
  );
  for (const apply of [...execute(app.baseUrl), ...execute(app.apiUrl)].slice(0, 1)) apply(configuration);
  configuration.timeout = PROVIDER_TIMEOUT_SECONDS;
  async function read(accessToken, path) {
    const headers = new Headers({ accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28", "user-agent": "delivery-analytics" });
    const url = new URL(`${app.apiUrl}${path}`);
    const res = await oidc.fetchProtectedResource(configuration, accessToken, url, "GET", void 0, headers);
    if (!res.ok) throw new ProviderHttpError(res.status, path);
    return await res.json();
  }
  return {
    id: "github",
    label: "GitHub",
    codeHost: true,
    openIdConnect: false,
    redirectUri: app.redirectUri,
    scope: "read:user user:email",
    configuration: async () => configuration,
    async profile(_configuration, tokens) {
      const [user, emails] = await Promise.all([read(tokens.access_token, "/user"), read(tokens.access_token, "/user/emails")]);
      if (typeof user?.id !== "number" || typeof user.login !== "string" || !Array.isArray(emails)) throw new ProviderHttpError(502, "/user");
      const verified = emails.filter((e) => e.verified === true && typeof e.email === "string").sort((a, b) => Number(b.primary) - Number(a.primary));
      return {
        subject: String(user.id),
        verifiedEmails: verified.map((e) => e.email.toLowerCase()),
        email: lower(emails.find((e) => e.primary)?.email ?? user.email),
        username: user.login
      };
    }
  };
}
class ProviderHttpError extends Error {
  constructor(status, path) {
    super(`provider API ${path} answered ${status}`);
    this.status = status;
  }
  status;
}
export {
  ProviderHttpError,
  githubProvider
};
