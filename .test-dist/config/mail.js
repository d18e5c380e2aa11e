import { parseHttpUrl, withoutTrailingSlash } from "./reader.js";
function parseMail(r, appUrl) {
  const apiUrl = parseHttpUrl(r, "MAILER_API_URL", r.get("MAILER_API_URL"));
  return {
    mailerApiKey: r.get("MAILER_API_KEY"),
    mailerApiUrl: apiUrl ? withoutTrailingSlash(apiUrl) : "https://api.postmarkapp.com",
    mailerFrom: r.get("MAILER_FROM") ?? `Delivery Analytics <no-reply@${appUrl?.hostname ?? ""}>`
  };
}
export {
  parseMail
};
