import { APPROVE_PATH } from "./constants.js";
import { html, raw } from "../http/html.js";
const STYLE = raw(
  "body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}.card{border:1px solid #ddd;border-radius:8px;padding:1.5rem}label,select{display:block;width:100%;margin:.5rem 0}button{padding:.6rem 1.2rem;margin-right:.5rem}.muted{color:#666;font-size:.9rem}"
);
const CONSENT_PAGE = { formsLeaveSite: true };
function page(title, body) {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}
function tenantField(tenants, showRole) {
  const only = tenants.length === 1 ? tenants[0] : null;
  return only ? html`<p>Tenant: <strong>${only.name}</strong>${showRole ? html` (your role: ${only.role})` : ""}</p><input type="hidden" name="tenantId" value="${only.tenantId}">` : html`<label for="tenantId">Tenant</label><select id="tenantId" name="tenantId" required>${tenants.map(
    (t) => html`<option value="${t.tenantId}">${t.name} (${t.role})</option>`
  )}</select>`;
}
function renderConsentPage(v) {
  const description = v.clientDescription ? html`<p>${v.clientDescription}</p>` : "";
  const uri = v.clientUri ? html`<p class="muted">Website: ${v.clientUri}</p>` : "";
  return page(
    "Authorize MCP client",
    html`<div class="card"><h1>Authorize ${v.clientName}</h1>${description}${uri}
<p><strong>${v.clientName}</strong> asks for read access (<code>mcp:read</code>) to the delivery analytics of one tenant: cube metadata, queries and the team baseline. It cannot change anything.</p>
<p class="muted">After you authorize, you are sent back to ${v.redirectTarget}.</p>
<form method="post" action="${APPROVE_PATH}">
<input type="hidden" name="interaction" value="${v.interactionUid}">
<input type="hidden" name="csrf" value="${v.csrfToken}">
${tenantField(v.tenants, false)}
<button type="submit" name="action" value="approve">Authorize</button>
<button type="submit" name="action" value="deny">Cancel</button>
</form></div>`
  );
}
function renderMessagePage(title, message) {
  return page(title, html`<div class="card"><h1>${title}</h1><p>${message}</p></div>`);
}
export {
  CONSENT_PAGE,
  page,
  renderConsentPage,
  renderMessagePage,
  tenantField
};
