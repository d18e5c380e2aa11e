import type Koa from 'koa';
import { APPROVE_PATH } from './constants.js';
import type { TenantChoice } from './grants.js';
import { htmlEscape as e } from './html.js';

export interface ConsentView {
  clientName: string;
  clientDescription: string | null;
  clientUri: string | null;
  redirectTarget: string;
  tenants: TenantChoice[];
  interactionUid: string;
  csrfToken: string;
}

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}' +
  '.card{border:1px solid #ddd;border-radius:8px;padding:1.5rem}label,select{display:block;width:100%;margin:.5rem 0}' +
  'button{padding:.6rem 1.2rem;margin-right:.5rem}.muted{color:#666;font-size:.9rem}';

/**
 * Consent headers: no framing (clickjacking), no scripts, no caching. No `form-action` here: the
 * approve answer redirects to the client's own URI, which that directive would block. Referrer
 * `same-origin`, not `no-referrer`: under `no-referrer` a browser sends `Origin: null` with the
 * page's own form post, which the approve steps' origin check refuses; other sites still get no
 * referrer (the URL carries an authorization request or a CLI login's code).
 */
export function sendPage(ctx: Koa.Context, status: number, html: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set({
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  });
  ctx.body = html;
}

/** A whole page in the consent pages' look (no script; styles inline, allowed by their CSP). */
export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

export function renderConsentPage(v: ConsentView): string {
  const only = v.tenants.length === 1 ? v.tenants[0] : null;
  const tenantField = only
    ? `<p>Tenant: <strong>${e(only.name)}</strong></p><input type="hidden" name="tenantId" value="${e(only.tenantId)}">`
    : `<label for="tenantId">Tenant</label><select id="tenantId" name="tenantId" required>${v.tenants
        .map((t) => `<option value="${e(t.tenantId)}">${e(t.name)} (${e(t.role)})</option>`)
        .join('')}</select>`;
  const description = v.clientDescription ? `<p>${e(v.clientDescription)}</p>` : '';
  const uri = v.clientUri ? `<p class="muted">Website: ${e(v.clientUri)}</p>` : '';
  return page(
    'Authorize MCP client',
    `<div class="card"><h1>Authorize ${e(v.clientName)}</h1>${description}${uri}
<p><strong>${e(v.clientName)}</strong> asks for read access (<code>mcp:read</code>) to the delivery analytics of one tenant: cube metadata, queries and the team baseline. It cannot change anything.</p>
<p class="muted">After you authorize, you are sent back to ${e(v.redirectTarget)}.</p>
<form method="post" action="${APPROVE_PATH}">
<input type="hidden" name="interaction" value="${e(v.interactionUid)}">
<input type="hidden" name="csrf" value="${e(v.csrfToken)}">
${tenantField}
<button type="submit" name="action" value="approve">Authorize</button>
<button type="submit" name="action" value="deny">Cancel</button>
</form></div>`,
  );
}

export function renderMessagePage(title: string, message: string): string {
  return page(title, `<div class="card"><h1>${e(title)}</h1><p>${e(message)}</p></div>`);
}
