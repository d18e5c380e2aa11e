/**
 * Text matching that runs in linear time whatever it is given. A pattern an owner typed, a path,
 * a commit message or a header is never turned into a regular expression, and the regular
 * expressions the code does keep are checked by `test/foundation/regexSafety.test.ts` (no
 * super-linear backtracking). docs/input-limits.md "Patterns and regular expressions".
 */

/** The longest `*` pattern accepted (a GitHub workflow file name is at most 255 characters too). */
export const GLOB_MAX_LENGTH = 255;

/**
 * `pattern` against `text`, where `*` is any run of characters (none included) and everything
 * else is itself, without case. Greedy leftmost matching of the pieces between the stars is exact
 * for `*`-only patterns: each piece is searched once, from where the previous one ended, so the
 * work is bounded by the text's length times the pattern's, never exponential. A pattern longer
 * than GLOB_MAX_LENGTH matches nothing.
 */
export function globMatches(pattern: string, text: string): boolean {
  if (pattern.length > GLOB_MAX_LENGTH) return false;
  const pieces = pattern.toLowerCase().split('*');
  const subject = text.toLowerCase();
  if (pieces.length === 1) return subject === pieces[0];
  const first = pieces[0] as string;
  const last = pieces[pieces.length - 1] as string;
  if (subject.length < first.length + last.length || !subject.startsWith(first) || !subject.endsWith(last)) return false;
  let at = first.length;
  const end = subject.length - last.length;
  for (const piece of pieces.slice(1, -1)) {
    if (piece === '') continue;
    const found = subject.indexOf(piece, at);
    if (found === -1 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}

/** `text` without `char` repeated at its end (`/` of a URL path), by a scan, not a backtracking pattern. */
export function trimEnd(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) end--;
  return text.slice(0, end);
}

/** `text` without `char` repeated at either end. */
export function trimBoth(text: string, char: string): string {
  let start = 0;
  while (start < text.length && text[start] === char) start++;
  return trimEnd(text.slice(start), char);
}

/**
 * An e-mail address as the product accepts it: something, `@`, a domain of at least two labels.
 * The labels exclude the dot, so the expression cannot backtrack over where the dots are (the
 * former `[^\s@]+\.[^\s@]+` took minutes on a long run of `a.`).
 */
export const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
