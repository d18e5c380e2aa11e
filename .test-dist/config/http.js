import { isIP } from "node:net";
import { parseHttpUrl } from "./reader.js";
function parseAppUrl(r, production) {
  const appUrl = parseHttpUrl(r, "APP_URL", r.required("APP_URL"));
  if (appUrl && production && appUrl.protocol !== "https:") {
    r.problems.push("APP_URL must use https when NODE_ENV is production");
  }
  return appUrl;
}
function parseCidrs(r, name) {
  const raw = r.get(name);
  if (raw === null) return [];
  const cidrs = [];
  for (const entry of raw.split(",").map((e) => e.trim()).filter(Boolean)) {
    const [address = "", prefixRaw, extra] = entry.split("/");
    const family = isIP(address);
    const max = family === 6 ? 128 : 32;
    const prefix = prefixRaw === void 0 ? max : /^\d{1,3}$/.test(prefixRaw) ? Number(prefixRaw) : -1;
    if (family === 0 || extra !== void 0 || prefix < 0 || prefix > max) {
      r.problems.push(`${name} must be a comma-separated list of IP addresses or CIDR networks (e.g. 172.30.0.0/16,::1)`);
      return [];
    }
    cidrs.push({ address, prefix, family });
  }
  return cidrs;
}
function parseListener(r) {
  const port = r.integer("PORT", 3e3, 0, 65535);
  const trustedProxies = parseCidrs(r, "TRUSTED_PROXIES");
  return { port, host: r.get("HOST") ?? "0.0.0.0", trustedProxies };
}
export {
  parseAppUrl,
  parseListener
};
