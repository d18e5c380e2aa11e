/**
 * Where a sign-in may send the browser afterwards: a path of this site and nothing else. Only a
 * value that starts with a single `/` qualifies: `//host` and `/\host` are read by browsers as
 * another host, a scheme (`https:`, `javascript:`) leaves the site, and control characters or
 * whitespace are dropped by URL parsers (`/\t/evil` becomes `//evil`), so all of them fall back to `/`.
 */
export const DEFAULT_RETURN_URL = '/';
const MAX_LENGTH = 2048;

export function safeReturnUrl(value: unknown): string {
  if (typeof value !== 'string' || value === '' || value.length > MAX_LENGTH) return DEFAULT_RETURN_URL;
  if (!value.startsWith('/') || value.startsWith('//')) return DEFAULT_RETURN_URL;
  // Backslashes, whitespace and control characters (C0, DEL, C1) never appear in a path we issue.
  if (/[\\\s\u0000-\u001f\u007f-\u009f]/.test(value)) return DEFAULT_RETURN_URL;
  // The last word: resolved against a placeholder origin, the value must stay on that origin.
  try {
    const base = 'https://same-origin.invalid';
    const resolved = new URL(value, base);
    if (resolved.origin !== base) return DEFAULT_RETURN_URL;
    // Dot segments collapse on resolution (`/.//evil`, `/a/..//evil` become `//evil`): the
    // result itself must still be a path of this site, not a scheme-relative address.
    const path = resolved.pathname + resolved.search + resolved.hash;
    return path.startsWith('//') ? DEFAULT_RETURN_URL : path;
  } catch {
    return DEFAULT_RETURN_URL;
  }
}
