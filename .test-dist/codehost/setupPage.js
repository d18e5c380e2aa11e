import { hidden, html, join } from "../http/html.js";
const STYLE = html`body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.4rem}dt{font-weight:600;margin-top:.5rem}dd{margin:0}button{margin-top:1rem;padding:.5rem 1rem;font-size:1rem}
.note{background:#eef4ff;padding:.75rem;border-radius:4px}.error{background:#fdecea;padding:.75rem;border-radius:4px}`;
function renderSetupPage(p) {
  const { preview } = p;
  const parts = [
    html`<h1>Link a code-host installation</h1>`,
    html`<dl>`,
    html`<dt>Installation</dt><dd id="installation">${preview.installationId}</dd>`,
    html`<dt>Account</dt><dd id="account">${preview.accountLogin === null ? html`<em>not yet known (the code host has not sent its installation event)</em>` : preview.accountLogin}</dd>`,
    html`<dt>Tenant</dt><dd id="tenant">${preview.tenantName}</dd>`,
    html`</dl>`
  ];
  if (preview.state === "linked_here") {
    parts.push(html`<p class="note" id="already-linked">This installation already feeds this tenant. <a href="${p.continueUrl}">Continue</a></p>`);
  } else if (preview.state === "unknown") {
    parts.push(html`<p class="error" id="unknown-installation">The code host has not announced this installation to us (its installation event usually arrives within seconds of installing): reload this page in a moment. If it stays unknown, check that the application's webhook reaches this server.</p>`);
  } else {
    parts.push(
      html`<p>Only continue if you have just installed the application yourself. Events of this installation will then be stored in this tenant.</p>`,
      html`<form method="post" action="${p.action}">`,
      hidden("csrf", p.csrfToken),
      hidden("installation_id", String(preview.installationId)),
      html`<button type="submit">Link the installation to this tenant</button>`,
      html`</form>`
    );
  }
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Link installation · Delivery Analytics</title><style>${STYLE}</style></head><body>${join(parts, "\n")}</body></html>`;
}
export {
  renderSetupPage
};
