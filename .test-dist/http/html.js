class Html {
  constructor(value) {
    this.value = value;
  }
  value;
  toString() {
    return this.value;
  }
}
const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
function render(value) {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join("");
  if (value === null || value === void 0 || value === false) return "";
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}
function html(strings, ...values) {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}
function raw(markup) {
  return new Html(markup);
}
function join(parts, separator) {
  return new Html(parts.map(render).join(separator));
}
function hidden(name, value) {
  return html`<input type="hidden" name="${name}" value="${value}">`;
}
function sendPage(ctx, status, page, options = {}) {
  const formAction = options.formsLeaveSite ? "" : " form-action 'self';";
  ctx.status = status;
  ctx.type = "text/html; charset=utf-8";
  ctx.set({
    "Content-Security-Policy": `default-src 'none'; style-src 'unsafe-inline';${formAction} frame-ancestors 'none'; base-uri 'none'`,
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store"
  });
  ctx.body = page.value;
}
export {
  Html,
  hidden,
  html,
  join,
  raw,
  sendPage
};
