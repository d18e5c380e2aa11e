import { hidden, html, join, raw, type Html } from '../http/html.js';

export type LoginMode = 'mcp' | null;

export interface LoginPageInput {
  mode: LoginMode;
  returnUrl: string;
  csrfToken: string;
  /** E-mail sign-in can be used (a mailer, or development with links in the log). */
  emailAvailable: boolean;
  /** Development without a mailer: the link goes to the server log. */
  linkInLog: boolean;
  sent: boolean;
  error: string | null;
  signedInAs: string | null;
  /** The configured sign-in providers, in button order. */
  providers: { id: string; label: string }[];
}

const ERRORS: Record<string, string> = {
  invalid_link: 'That sign-in link is invalid, was already used, or has expired. Ask for a new one below.',
  invitation_unavailable: 'That invitation was revoked, already used, or has expired, so you were not signed in or added to the tenant. Ask an owner of the tenant for a new invitation.',
  // Sign-in with a provider (src/auth/providers/flow.ts); nothing was created in any of these cases.
  provider_denied: 'The sign-in was cancelled or refused at the provider, so you were not signed in. Try again, or choose another way below.',
  state_invalid: 'That sign-in attempt has expired, was already used, or was started in another browser, so you were not signed in. Start again below.',
  verification_failed: "The provider's answer could not be verified, so you were not signed in. Start again below.",
  unverified_email: 'Your provider did not confirm that this e-mail address is yours, so it cannot be matched to an account here. Confirm the address with the provider, or sign in another way below.',
  no_account: 'There is no account here for you yet. Ask an owner of your organisation for an invitation, then sign in again.',
  provider_unavailable: 'The sign-in provider could not be reached. Try again in a few minutes, or choose another way below.',
};

export const PAGE_STYLE = raw(`body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.4rem}label{display:block;margin:1rem 0 .3rem}input[type=email]{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
button{margin-top:1rem;padding:.5rem 1rem;font-size:1rem}.providers{display:flex;flex-direction:column;gap:.5rem;margin:1rem 0}
.provider{display:block;padding:.5rem 1rem;border:1px solid #555;border-radius:4px;color:#1a1a1a;text-decoration:none;text-align:center}.provider:hover,.provider:focus{background:#eef4ff}.note{background:#eef4ff;padding:.75rem;border-radius:4px}.error{background:#fdecea;padding:.75rem;border-radius:4px}`);

/**
 * One link per provider, carrying the return path and mode through the flow. Links, not forms: a
 * form's redirect to the provider would be blocked by this page's `form-action 'self'`.
 */
function providerLinks(p: LoginPageInput): Html {
  const links = p.providers.map((provider) => {
    const query = new URLSearchParams();
    if (p.returnUrl !== '/') query.set('returnUrl', p.returnUrl);
    if (p.mode) query.set('mode', p.mode);
    const href = `/auth/${provider.id}${query.size > 0 ? `?${query}` : ''}`;
    return html`<a class="provider" id="provider-${provider.id}" href="${href}">Sign in with ${provider.label}</a>`;
  });
  return html`<nav class="providers" aria-label="Sign-in providers">${links}</nav>`;
}

const DEV_LOG = html`<p id="dev-log">Development mode without a mailer: the link is written to the server log.</p>`;

/** The minimal sign-in page: e-mail form, the MCP notice, and a sign-out form when signed in. */
export function renderLoginPage(p: LoginPageInput): Html {
  const parts: Html[] = [html`<h1>Sign in to Delivery Analytics</h1>`];
  if (p.mode === 'mcp') {
    parts.push(html`<p class="note" id="mcp-notice">An AI assistant is asking for access to your delivery analytics. Sign in to continue to the consent page.</p>`);
  }
  if (p.error && ERRORS[p.error]) parts.push(html`<p class="error" id="error">${ERRORS[p.error]}</p>`);
  if (p.signedInAs !== null) {
    parts.push(
      html`<p id="signed-in">You are signed in as ${p.signedInAs}. <a href="${p.returnUrl}">Continue</a></p>`,
      html`<form method="post" action="/auth/logout">${hidden('csrf', p.csrfToken)}<button type="submit">Sign out</button></form>`,
    );
  } else if (p.sent) {
    parts.push(
      html`<p class="note" id="sent">Check your e-mail. If an account exists for that address, a sign-in link is on its way; it works once and expires in 15 minutes.</p>`,
    );
    if (p.linkInLog) parts.push(DEV_LOG);
  } else if (!p.emailAvailable && p.providers.length === 0) {
    parts.push(html`<p class="error" id="unavailable">E-mail sign-in is not available on this server: no mailer is configured (MAILER_API_KEY).</p>`);
  } else {
    if (p.providers.length > 0) parts.push(providerLinks(p));
    if (p.emailAvailable) parts.push(
      html`<form method="post" action="/auth/email">`,
      hidden('csrf', p.csrfToken),
      hidden('returnUrl', p.returnUrl),
      p.mode ? hidden('mode', p.mode) : html``,
      html`<label for="email">E-mail address</label>`,
      html`<input type="email" id="email" name="email" required autocomplete="email" autofocus>`,
      html`<button type="submit">E-mail me a sign-in link</button>`,
      html`</form>`,
    );
    if (p.linkInLog) parts.push(DEV_LOG);
  }
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Sign in · Delivery Analytics</title><style>${PAGE_STYLE}</style></head><body>${join(parts, '\n')}</body></html>`;
}
