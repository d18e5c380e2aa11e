/**
 * Secrets out of a transcript before it leaves the machine (docs/ai-capture.md "What is
 * redacted"). Every string value of every line is redacted, then the line is written again, so a
 * replacement never breaks the JSON. Linear time whatever the text (test/foundation/patterns.test.ts):
 * the text is cut into runs of token characters by one expression that never backtracks, and each
 * run is matched by expressions anchored at its start; key/value pairs and private-key blocks are
 * found with bounded expressions and `indexOf`.
 */

const TOKEN_RUN = /[A-Za-z0-9_.-]+/g;

/** Secrets known by their prefix, matched at the start of a run of token characters. */
const PREFIXED: [kind: string, pattern: RegExp][] = [
  ['anthropic-key', /^sk-ant-[A-Za-z0-9_-]{16}/],
  ['openai-key', /^sk-[A-Za-z0-9_-]{16}/],
  ['github-token', /^gh[pousr]_[A-Za-z0-9]{20}/],
  ['github-token', /^github_pat_[A-Za-z0-9_]{20}/],
  ['slack-token', /^xox[abposr]-[A-Za-z0-9-]{8}/],
  ['aws-access-key', /^(?:AKIA|ASIA)[0-9A-Z]{16}/],
  ['delivery-analytics-key', /^gai_[A-Za-z0-9_-]{16}/],
  ['jwt', /^eyJ[A-Za-z0-9_-]{4,2000}\.[A-Za-z0-9_-]{4,4000}\./],
];

/** `password=…`, `"password": "…"`, `api_key: …` in text: the value after the separator. */
const SECRET_NAME = /passw(?:or)?d|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret/gi;
const VALUE_STOP = new Set([' ', '\t', '\n', '\r', '\f', '\v', '"', "'", '\\', ',', ';', '&']);

/**
 * Each `name<separator>value` of a secret's name: the separator is an optional backslash and quote,
 * up to five blanks, `:` or `=`, up to five blanks, an optional backslash and quote; the value runs
 * to a blank, quote, backslash, `,`, `;` or `&` (at most 500 characters). Scanned by hand after the
 * name: one regular expression for the whole had a polynomial worst case (recheck).
 */
/** The index after `chars`' one character at `i`, if it is there. */
const skipOne = (text: string, i: number, chars: string) => (i < text.length && chars.includes(text[i]!) ? i + 1 : i);
/** The index after up to five blanks from `i`. */
function skipBlanks(text: string, i: number): number {
  for (let n = 0; n < 5 && (text[i] === ' ' || text[i] === '\t'); n++) i++;
  return i;
}

function redactAssigned(text: string): string {
  let out = '';
  let from = 0;
  for (const m of text.matchAll(SECRET_NAME)) {
    if (m.index < from) continue;
    let i = skipBlanks(text, skipOne(text, skipOne(text, m.index + m[0].length, '\\'), '"\''));
    if (text[i] !== ':' && text[i] !== '=') continue;
    const valueStart = skipOne(text, skipOne(text, skipBlanks(text, i + 1), '\\'), '"\'');
    i = valueStart;
    while (i < text.length && i - valueStart < 500 && !VALUE_STOP.has(text[i]!)) i++;
    if (i === valueStart || text.startsWith('[REDACTED', valueStart)) continue;
    out += text.slice(from, valueStart) + mark('secret');
    from = i;
  }
  return out + text.slice(from);
}
/**
 * `Bearer …` anywhere, and the credential after `Authorization:` (with its scheme, if any). Found by
 * a linear search for the word and scanned by hand after it: the single regular expressions they
 * once were (bounded runs that can overlap) drew a polynomial verdict from recheck on some runs.
 */
const BEARER = /\bbearer/gi;
const AUTHORIZATION = /authorization/gi;
/** The credential's characters (RFC 6750's b64token). */
const isTokenChar = (c: number) =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 46 || c === 95 || c === 126 || c === 43 || c === 47 || c === 61 || c === 45;
const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isBlank = (c: number) => c === 32 || c === 9;
/** The end of the run from `start` of characters `is` accepts, at most `max` long. */
function runEnd(text: string, start: number, is: (c: number) => boolean, max: number): number {
  let i = start;
  while (i < text.length && i - start < max && is(text.charCodeAt(i))) i++;
  return i;
}
/** `start` plus one when the character there is one of `chars`. */
const optional = (text: string, start: number, chars: string) => (start < text.length && chars.includes(text[start]!) ? start + 1 : start);

/** `Bearer`, 1–5 blanks, then 8–2,000 token characters: the token becomes the mark. */
function redactBearer(text: string): string {
  let out = '';
  let from = 0;
  for (const m of text.matchAll(BEARER)) {
    if (m.index < from) continue;
    const blanksStart = m.index + m[0].length;
    const tokenStart = runEnd(text, blanksStart, isBlank, 6);
    if (tokenStart === blanksStart || tokenStart - blanksStart > 5) continue;
    const tokenEnd = runEnd(text, tokenStart, isTokenChar, 2000);
    if (tokenEnd - tokenStart < 8) continue;
    out += text.slice(from, tokenStart) + mark('credential');
    from = tokenEnd;
  }
  return out + text.slice(from);
}

/** `authorization`, a separator (`:` or `=`, quotes, escapes, blanks), then the scheme if any and the credential. */
function redactAuthorization(text: string): string {
  let out = '';
  let from = 0;
  for (const m of text.matchAll(AUTHORIZATION)) {
    if (m.index < from) continue;
    let i = optional(text, optional(text, m.index + m[0].length, '\\'), '"\'');
    let blanksEnd = runEnd(text, i, isBlank, 6);
    if (blanksEnd - i > 5 || blanksEnd >= text.length || !':='.includes(text[blanksEnd]!)) continue;
    i = blanksEnd + 1;
    blanksEnd = runEnd(text, i, isBlank, 6);
    if (blanksEnd - i > 5) continue;
    const valueStart = optional(text, optional(text, blanksEnd, '\\'), '"\'');
    // A scheme: 1–20 letters, 1–5 blanks, then the credential; else the credential alone.
    let credentialStart = valueStart;
    const lettersEnd = runEnd(text, valueStart, isLetter, 21);
    if (lettersEnd > valueStart && lettersEnd - valueStart <= 20) {
      const afterBlanks = runEnd(text, lettersEnd, isBlank, 6);
      if (afterBlanks > lettersEnd && afterBlanks - lettersEnd <= 5 && afterBlanks < text.length && isTokenChar(text.charCodeAt(afterBlanks))) credentialStart = afterBlanks;
    }
    const end = runEnd(text, credentialStart, isTokenChar, 2000);
    if (end === credentialStart) continue;
    out += text.slice(from, valueStart) + mark('credential');
    from = end;
  }
  return out + text.slice(from);
}
/** Object keys whose string value is a secret whatever it looks like. */
const SECRET_KEY = /^(?:passw(?:or)?d|pwd|secret|api[_-]?key|access[_-]?token|refresh[_-]?token|auth[_-]?token|client[_-]?secret|authorization|private[_-]?key)$/i;

const PEM_BEGIN = '-----BEGIN ';
const PEM_HEADER = /^-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----/;
const PEM_END = '-----END ';

const mark = (kind: string) => `[REDACTED:${kind}]`;

/** `-----BEGIN … PRIVATE KEY-----` to the end of its `-----END …-----` line (or of the text). */
function redactPrivateKeys(text: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const begin = text.indexOf(PEM_BEGIN, from);
    if (begin < 0) break;
    if (!PEM_HEADER.test(text.slice(begin, begin + 80))) {
      out += text.slice(from, begin + PEM_BEGIN.length);
      from = begin + PEM_BEGIN.length;
      continue;
    }
    const end = text.indexOf(PEM_END, begin + PEM_BEGIN.length);
    const close = end < 0 ? -1 : text.indexOf('-----', end + PEM_END.length);
    out += text.slice(from, begin) + mark('private-key');
    if (close < 0) return out;
    from = close + 5;
  }
  return out + text.slice(from);
}

/** The text with every secret this module knows replaced by `[REDACTED:<kind>]`. */
export function redactText(text: string): string {
  let result = text.includes(PEM_BEGIN) ? redactPrivateKeys(text) : text;
  // A header's whole credential first (scheme and token), then tokens by prefix, then `key=value`
  // pairs (after the prefixes, so a known kind keeps its name: `OPENAI_API_KEY=sk-…` is an openai-key).
  result = redactBearer(redactAuthorization(result));
  result = result.replace(TOKEN_RUN, (run) => {
    for (const [kind, pattern] of PREFIXED) if (pattern.test(run)) return mark(kind);
    return run;
  });
  return redactAssigned(result);
}

/** Every string in a JSON value redacted; the string value of a secret-named key replaced whole. */
export function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(redactValue);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = typeof inner === 'string' && inner !== '' && SECRET_KEY.test(key) ? mark('secret') : redactValue(inner);
  }
  return out;
}
