const DEFAULT_RETURN_URL = "/";
const MAX_LENGTH = 2048;
function safeReturnUrl(value) {
  if (typeof value !== "string" || value === "" || value.length > MAX_LENGTH) return DEFAULT_RETURN_URL;
  if (!value.startsWith("/") || value.startsWith("//")) return DEFAULT_RETURN_URL;
  if (/[\\\s\u0000-\u001f\u007f-\u009f]/.test(value)) return DEFAULT_RETURN_URL;
  try {
    const base = "https://same-origin.invalid";
    const resolved = new URL(value, base);
    if (resolved.origin !== base) return DEFAULT_RETURN_URL;
    const path = resolved.pathname + resolved.search + resolved.hash;
    return path.startsWith("//") ? DEFAULT_RETURN_URL : path;
  } catch {
    return DEFAULT_RETURN_URL;
  }
}
export {
  DEFAULT_RETURN_URL,
  safeReturnUrl
};
