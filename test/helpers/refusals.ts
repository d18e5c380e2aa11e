/**
 * Refusals are asserted whole: a test that checks only a 4xx status passes on any error with that
 * status, including the wrong one (a 404 for a typo in the route instead of the tenant floor).
 */
import { expect } from 'chai';

/** The general API's error envelope (spec "Errors"; src/http/errors.ts). */
export function apiError(code: string, message: string): { error: { code: string; message: string } } {
  return { error: { code, message } };
}

/** Status and body compared in one assertion, so a failure shows both. */
export function expectRefusal(res: { status: number; body: unknown }, status: number, body: unknown, what?: string): void {
  expect({ status: res.status, body: res.body }, what).to.deep.equal({ status, body });
}

/**
 * A refusal of the Cube REST protocol (`/cubejs-api/v1`): Cube's `{error: <text>}` with our `code`
 * (and `details`), plus the request's id, which differs per request and is checked for its form.
 */
export function expectCubeRefusal(
  res: { status: number; body: any },
  status: number,
  body: { error: string; code: string; details?: { path: string; message: string }[] },
  what?: string,
): void {
  expect(res.body?.requestId, 'requestId').to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expectRefusal(res, status, { ...body, requestId: res.body.requestId }, what);
}

/**
 * A refusal shown as an HTML page (a browser's form post or link): its status, its title and the
 * sentence that tells the reader what went wrong and what to do.
 */
export function expectRefusalPage(res: { status: number; text: string }, status: number, title: string, explanation: string): void {
  const shownTitle = /<title>([^<]*)<\/title>/.exec(res.text)?.[1];
  const shown = res.text.replace(/<(style|script)\b[\s\S]*?<\/\1>/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
  expect({ status: res.status, title: shownTitle }).to.deep.equal({ status, title });
  expect(shown).to.include(explanation);
}

/** A fetch Response read as the page it shows (for `expectRefusalPage`). */
export async function pageOf(res: globalThis.Response): Promise<{ status: number; text: string }> {
  return { status: res.status, text: await res.text() };
}
