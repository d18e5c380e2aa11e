import { parseHttpUrl, withoutTrailingSlash } from "./reader.js";
const BILLING_PLANS = ["individual", "small_team", "large_team", "enterprise"];
const BILLING_VARIABLES = [
  "BILLING_API_KEY",
  "BILLING_WEBHOOK_SECRET",
  "BILLING_CLIENT_TOKEN",
  "BILLING_INDIVIDUAL_PRICE_ID",
  "BILLING_SMALL_TEAM_PRICE_ID",
  "BILLING_LARGE_TEAM_PRICE_ID",
  "BILLING_ENTERPRISE_PRICE_ID"
];
function parseBilling(r, production) {
  const apiUrl = parseHttpUrl(r, "BILLING_API_URL", r.get("BILLING_API_URL"));
  if (!r.boolean("BILLING_ENABLED", false)) return null;
  if (apiUrl && production && apiUrl.protocol !== "https:") r.problems.push("BILLING_API_URL must use https when NODE_ENV is production");
  const g = r.enabledGroup("billing group (BILLING_ENABLED)", BILLING_VARIABLES);
  if (!g) return null;
  return {
    apiKey: g.BILLING_API_KEY,
    webhookSecret: g.BILLING_WEBHOOK_SECRET,
    clientToken: g.BILLING_CLIENT_TOKEN,
    priceIds: {
      individual: g.BILLING_INDIVIDUAL_PRICE_ID,
      small_team: g.BILLING_SMALL_TEAM_PRICE_ID,
      large_team: g.BILLING_LARGE_TEAM_PRICE_ID,
      enterprise: g.BILLING_ENTERPRISE_PRICE_ID
    },
    apiUrl: apiUrl ? withoutTrailingSlash(apiUrl) : "https://api.paddle.com"
  };
}
export {
  BILLING_PLANS,
  parseBilling
};
