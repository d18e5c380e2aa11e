import type Koa from 'koa';

/** Markup that is already safe: written by `html` (its interpolations escaped) or marked with `raw`. */
export class Html {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

/** What a template may interpolate: nothing (`null`, `undefined`, `false`) renders as empty text. */
export type HtmlValue = Html | string | number | bigint | null | undefined | false | readonly HtmlValue[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/**
 * The one way to write server-side HTML: every interpolated value is escaped for element content
 * and quoted attribute values, except `Html` (nested `html` templates, `raw`); arrays are joined.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0] as string;
  for (let i = 0; i < values.length; i++) out += render(values[i] as HtmlValue) + (strings[i + 1] as string);
  return new Html(out);
}

/** Marks text written by us (a style sheet, a constant) as markup; never pass a visitor's text. */
export function raw(markup: string): Html {
  return new Html(markup);
}

/** Joins markup with a separator (pages put one part per line). */
export function join(parts: readonly HtmlValue[], separator: string): Html {
  return new Html(parts.map(render).join(separator));
}

/** A hidden form field (CSRF tokens, return paths). */
export function hidden(name: string, value: string): Html {
  return html`<input type="hidden" name="${name}" value="${value}">`;
}

export interface PageOptions {
  /**
   * Omit `form-action 'self'`: the consent and CLI-login pages' approve answer redirects to the
   * client's own URI, which that directive would block.
   */
  formsLeaveSite?: boolean;
}

/**
 * Sends a server-rendered page: no script may run, nothing may frame it (clickjacking), forms may
 * post only to this site (unless `formsLeaveSite`), and nothing is cached (the pages carry CSRF
 * tokens and sign-in state). Referrer `same-origin`, not `no-referrer`: under `no-referrer` a
 * browser sends `Origin: null` with the page's own form post, which the origin checks refuse;
 * other sites still get no referrer (some addresses carry a token or a CLI login's code).
 */
export function sendPage(ctx: Koa.Context, status: number, page: Html, options: PageOptions = {}): void {
  const formAction = options.formsLeaveSite ? '' : " form-action 'self';";
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set({
    'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline';${formAction} frame-ancestors 'none'; base-uri 'none'`,
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  });
  ctx.body = page.value;
}
