import { parseHttpUrl } from "./reader.js";
function parseCodehostApp(r) {
  const app = r.group("code-host application group (CODEHOST_APP_ID)", ["CODEHOST_APP_ID", "CODEHOST_APP_PRIVATE_KEY"], ["CODEHOST_APP_WEBHOOK_SECRET", "CODEHOST_APP_NAME"]);
  return app && {
    appId: app.CODEHOST_APP_ID,
    privateKey: app.CODEHOST_APP_PRIVATE_KEY,
    webhookSecret: r.get("CODEHOST_APP_WEBHOOK_SECRET"),
    name: r.get("CODEHOST_APP_NAME")
  };
}
function parseCorpus(r, production) {
  const graphqlUrl = parseHttpUrl(r, "CODEHOST_PUBLIC_GRAPHQL_URL", r.get("CODEHOST_PUBLIC_GRAPHQL_URL"));
  if (graphqlUrl && production && graphqlUrl.protocol !== "https:") r.problems.push("CODEHOST_PUBLIC_GRAPHQL_URL must use https when NODE_ENV is production");
  return {
    codehostPublicToken: r.get("CODEHOST_PUBLIC_TOKEN"),
    codehostPublicGraphqlUrl: graphqlUrl ? graphqlUrl.href : "https://api.github.com/graphql"
  };
}
export {
  parseCodehostApp,
  parseCorpus
};
