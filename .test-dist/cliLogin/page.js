import { CLI_APPROVE_PATH, CLI_LOGIN_PATH } from "../oauth/constants.js";
import { page, tenantField } from "../oauth/consentPage.js";
import { html } from "../http/html.js";
function renderCodeEntryPage(problem) {
  const error = problem ? html`<p role="alert"><strong>${problem}</strong></p>` : "";
  return page(
    "CLI login",
    html`<div class="card"><h1>CLI login</h1>${error}
<p>Enter the code that <code>delivery-analytics login</code> shows in your terminal.</p>
<form method="get" action="${CLI_LOGIN_PATH}">
<label for="user_code">Code</label><input id="user_code" name="user_code" autocomplete="off" required>
<button type="submit">Continue</button>
</form></div>`
  );
}
function renderApprovalPage(v) {
  const machine = v.machineName ? html`<strong>${v.machineName}</strong>` : "an unnamed machine";
  return page(
    "Approve CLI login",
    html`<div class="card"><h1>Approve CLI login</h1>
<p>The delivery-analytics CLI on ${machine} asks to sign in as you.</p>
<p>Code: <strong data-testid="user-code">${v.userCode}</strong></p>
<p class="muted">Approve only if your terminal shows this same code and you started this login yourself.</p>
<p>The CLI receives a new API key named after the machine. The key carries your role in the tenant you choose (an owner's key can do what an owner can); revoke it under Settings &gt; API keys or with <code>delivery-analytics logout</code>.</p>
<form method="post" action="${CLI_APPROVE_PATH}">
<input type="hidden" name="user_code" value="${v.userCode}">
<input type="hidden" name="csrf" value="${v.csrfToken}">
${tenantField(v.tenants, true)}
<button type="submit" name="action" value="approve">Approve</button>
<button type="submit" name="action" value="deny">Deny</button>
</form></div>`
  );
}
export {
  renderApprovalPage,
  renderCodeEntryPage
};
