const HSTS = "max-age=31536000; includeSubDomains";
function securityHeaders(appUrl) {
  const https = appUrl.startsWith("https://");
  return async (ctx, next) => {
    ctx.set("X-Content-Type-Options", "nosniff");
    if (https) ctx.set("Strict-Transport-Security", HSTS);
    if (ctx.get("authorization")) ctx.set("Cache-Control", "no-store");
    await next();
    if (!ctx.headerSent && !ctx.response.get("Cache-Control") && ctx.response.is("json")) ctx.set("Cache-Control", "no-store");
  };
}
export {
  HSTS,
  securityHeaders
};
