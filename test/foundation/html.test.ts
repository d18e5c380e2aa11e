/**
 * The one HTML helper (src/http/html.ts) and every server-rendered page built on it: a visitor's
 * text (a tenant name, an invitation's address, a client's name, a machine name, a survey title)
 * is shown as text, never as markup.
 */
import { expect } from 'chai';
import { hidden, html, join, raw } from '../../src/http/html.js';
import { renderLoginPage } from '../../src/identity/loginPage.js';
import { renderSetupPage } from '../../src/codehost/setupPage.js';
import { renderConsentPage, renderMessagePage } from '../../src/oauth/consentPage.js';
import { renderApprovalPage, renderCodeEntryPage } from '../../src/cliLogin/page.js';
import { renderLinkProblem, renderSurveyForm, renderThankYou } from '../../src/surveys/page.js';
import { renderInvitePage } from '../../src/identity/invitePage.js';
import type { InvitationRow } from '../../src/members/invitations.js';

const HOSTILE = `<script>alert(1)</script>"><img src=x onerror=alert(1)>'&`;
const ESCAPED = '&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&#39;&amp;';

describe('html: the tagged template escapes by default', () => {
  it('escapes & < > " and \' in every interpolated string', () => {
    expect(html`<p title="${`a"b'c`}">${'<b>&amp;</b>'}</p>`.value).to.equal('<p title="a&quot;b&#39;c">&lt;b&gt;&amp;amp;&lt;/b&gt;</p>');
  });

  it('leaves the template\'s own text alone, newlines included', () => {
    expect(html`<p class="x">a & b</p>\n<br>`.value).to.equal('<p class="x">a & b</p>\n<br>');
  });

  it('does not escape nested html or raw markup a second time', () => {
    const inner = html`<em>${'<i>'}</em>`;
    expect(html`<p>${inner}</p>`.value).to.equal('<p><em>&lt;i&gt;</em></p>');
    expect(html`<p>${html`<b>${inner}</b>`}</p>`.value).to.equal('<p><b><em>&lt;i&gt;</em></b></p>');
    expect(html`<style>${raw('a>b{color:red}')}</style>`.value).to.equal('<style>a>b{color:red}</style>');
  });

  it('joins arrays without a separator, escaping strings and keeping markup; join() takes one', () => {
    expect(html`<ul>${['<a>', html`<li>${'&'}</li>`, ['x', html`<br>`]]}</ul>`.value).to.equal('<ul>&lt;a&gt;<li>&amp;</li>x<br></ul>');
    expect(join([html`<p>1</p>`, '<2>', html`<p>3</p>`], '\n').value).to.equal('<p>1</p>\n&lt;2&gt;\n<p>3</p>');
    expect(html`<ul>${[]}</ul>`.value).to.equal('<ul></ul>');
  });

  it('renders null, undefined and false as nothing, numbers and bigints as text', () => {
    expect(html`[${null}|${undefined}|${false}]`.value).to.equal('[||]');
    expect(html`${0} ${7001} ${-1.5} ${12n}`.value).to.equal('0 7001 -1.5 12');
  });

  it('converts to its markup as a string; hidden() writes an escaped hidden field', () => {
    expect(`${html`<b>${'<'}</b>`}`).to.equal('<b>&lt;</b>');
    expect(hidden('csrf', HOSTILE).value).to.equal(`<input type="hidden" name="csrf" value="${ESCAPED}">`);
  });
});

describe('server-rendered pages show hostile text escaped', () => {
  const invitation: InvitationRow = {
    id: 'i', tenantId: 't', tenantName: HOSTILE, email: HOSTILE, role: 'member', invitedBy: { userId: 'u', email: HOSTILE },
    createdAt: new Date(0), expiresAt: new Date(0), status: 'pending',
  };
  const tenants = [{ tenantId: HOSTILE, name: HOSTILE, role: 'owner' as const }];
  const pages: [string, string, number][] = [
    // [page, markup, how many times the hostile text must appear escaped]
    ['login, signed in', renderLoginPage({ mode: 'mcp', returnUrl: HOSTILE, csrfToken: HOSTILE, emailAvailable: true, linkInLog: false, sent: false, error: null, signedInAs: HOSTILE, providers: [] }).value, 3],
    ['login, providers', renderLoginPage({ mode: null, returnUrl: '/', csrfToken: HOSTILE, emailAvailable: true, linkInLog: false, sent: false, error: null, signedInAs: null, providers: [{ id: 'github', label: HOSTILE }] }).value, 2],
    ['code-host setup', renderSetupPage({ preview: { installationId: 7, tenantName: HOSTILE, accountLogin: HOSTILE, state: 'unlinked' }, action: HOSTILE, csrfToken: HOSTILE, continueUrl: '/' }).value, 4],
    ['consent', renderConsentPage({ clientName: HOSTILE, clientDescription: HOSTILE, clientUri: HOSTILE, redirectTarget: HOSTILE, tenants, interactionUid: HOSTILE, csrfToken: HOSTILE }).value, 9],
    ['consent, two tenants', renderConsentPage({ clientName: 'c', clientDescription: null, clientUri: null, redirectTarget: 'r', tenants: [...tenants, ...tenants], interactionUid: 'i', csrfToken: 'c' }).value, 4],
    ['message', renderMessagePage(HOSTILE, HOSTILE).value, 3],
    ['CLI code entry', renderCodeEntryPage(HOSTILE).value, 1],
    ['CLI approval', renderApprovalPage({ userCode: HOSTILE, machineName: HOSTILE, tenants, csrfToken: HOSTILE }).value, 6],
    ['survey form', renderSurveyForm({ title: HOSTILE, teamName: HOSTILE, closesOn: HOSTILE, action: HOSTILE, csrfToken: HOSTILE, previous: { comment: HOSTILE }, errors: [HOSTILE] }).value, 8],
    ['survey thanks', renderThankYou(HOSTILE, HOSTILE, true).value, 2],
    ['survey not open', renderLinkProblem('not_open', HOSTILE).value, 1],
    ['invitation, join', renderInvitePage({ kind: 'join', invitation, action: HOSTILE, csrfToken: HOSTILE }).value, 8],
    ['invitation, wrong user', renderInvitePage({ kind: 'wrong_user', invitation, signedInAs: HOSTILE, returnUrl: HOSTILE, csrfToken: HOSTILE }).value, 8],
    ['invitation, sent', renderInvitePage({ kind: 'sign_in', invitation, action: 'a', csrfToken: 'c', emailAvailable: true, linkInLog: false, sent: true }).value, 7],
    ['invitation, revoked', renderInvitePage({ kind: 'revoked', invitation }).value, 1],
  ];
  for (const [name, page, times] of pages) {
    it(`${name}: no markup from the text, ${times} escaped copies`, () => {
      expect(page).not.to.match(/<script|<img/);
      expect(page.split(ESCAPED).length - 1).to.equal(times);
    });
  }
});
