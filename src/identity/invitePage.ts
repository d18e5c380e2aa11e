/**
 * The server-rendered page behind an invitation link, one view per situation. Like the sign-in page
 * it runs no script and every form carries the double-submit CSRF token.
 */
import { hidden, html, join, type Html } from '../http/html.js';
import { PAGE_STYLE } from './loginPage.js';
import type { InvitationRow } from '../members/invitations.js';

export type InviteView =
  | { kind: 'unknown' }
  | { kind: 'expired' | 'accepted' | 'revoked'; invitation: InvitationRow }
  | { kind: 'join'; invitation: InvitationRow; action: string; csrfToken: string }
  | { kind: 'wrong_user'; invitation: InvitationRow; signedInAs: string; returnUrl: string; csrfToken: string }
  | { kind: 'sign_in'; invitation: InvitationRow; action: string; csrfToken: string; emailAvailable: boolean; linkInLog: boolean; sent: boolean };

/** The HTTP status of each view: a dead link is 404 (never existed) or 410 (expired, used, revoked). */
export const INVITE_STATUS: Record<InviteView['kind'], number> = {
  unknown: 404, expired: 410, accepted: 410, revoked: 410, join: 200, sign_in: 200, wrong_user: 403,
};

const roleName = (invitation: InvitationRow) => (invitation.role === 'owner' ? 'an owner' : 'a member');

function offer(invitation: InvitationRow): Html {
  const who = html`<strong>${invitation.email}</strong>`;
  const lead = invitation.invitedBy ? html`${invitation.invitedBy.email} invited ${who}` : html`${who} is invited`;
  return html`<p id="offer">${lead} to join <strong>${invitation.tenantName}</strong> as ${roleName(invitation)}.</p>`;
}

function body(view: InviteView): { title: string; parts: Html[] } {
  switch (view.kind) {
    case 'unknown':
      return { title: 'Invitation not found', parts: [html`<p class="error" id="problem">This invitation link is not valid. Check that you opened the whole link from the e-mail, or ask an owner of the tenant for a new invitation.</p>`] };
    case 'expired':
      return { title: 'Invitation expired', parts: [html`<p class="error" id="problem">This invitation to ${view.invitation.tenantName} has expired (invitations are valid for 7 days). Ask an owner of the tenant to invite you again.</p>`] };
    case 'accepted':
      return { title: 'Invitation already used', parts: [html`<p class="error" id="problem">This invitation to ${view.invitation.tenantName} has already been accepted; each link works once. If that was you, <a href="/app/">open Delivery Analytics</a>.</p>`] };
    case 'revoked':
      return { title: 'Invitation withdrawn', parts: [html`<p class="error" id="problem">This invitation to ${view.invitation.tenantName} was withdrawn by an owner of the tenant. Ask them if you should have access.</p>`] };
    case 'join':
      return {
        title: `Join ${view.invitation.tenantName}`,
        parts: [offer(view.invitation), html`<form method="post" action="${view.action}">${hidden('csrf', view.csrfToken)}<button type="submit">Join ${view.invitation.tenantName}</button></form>`],
      };
    case 'wrong_user':
      return {
        title: 'Signed in as someone else',
        parts: [
          offer(view.invitation),
          html`<p class="error" id="problem">You are signed in as ${view.signedInAs}, but this invitation is for ${view.invitation.email}. Sign out, then sign in as ${view.invitation.email} to accept it.</p>`,
          html`<form method="post" action="/auth/logout">${hidden('csrf', view.csrfToken)}${hidden('returnUrl', view.returnUrl)}<button type="submit">Sign out</button></form>`,
        ],
      };
    case 'sign_in': {
      const parts = [offer(view.invitation)];
      if (view.sent) {
        parts.push(html`<p class="note" id="sent">Check your e-mail at ${view.invitation.email}: the sign-in link on its way works once, expires in 15 minutes, and adds you to ${view.invitation.tenantName} when you open it.</p>`);
      } else if (!view.emailAvailable) {
        parts.push(html`<p class="error" id="unavailable">E-mail sign-in is not available on this server: no mailer is configured (MAILER_API_KEY).</p>`);
      } else {
        parts.push(
          html`<p>To accept, sign in as ${view.invitation.email}: we e-mail a sign-in link to that address.</p>`,
          html`<form method="post" action="${view.action}">${hidden('csrf', view.csrfToken)}<button type="submit">E-mail me a sign-in link</button></form>`,
        );
      }
      if (view.linkInLog && view.emailAvailable) parts.push(html`<p id="dev-log">Development mode without a mailer: the sign-in link is written to the server log.</p>`);
      return { title: `Join ${view.invitation.tenantName}`, parts };
    }
  }
}

export function renderInvitePage(view: InviteView): Html {
  const { title, parts } = body(view);
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title} · Delivery Analytics</title><style>${PAGE_STYLE}</style></head><body><h1>${title}</h1>\n${join(parts, '\n')}</body></html>`;
}
