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
/** `Bearer …` anywhere, and the credential after `Authorization:` (with its scheme, if any). */
const SCHEME = /\b(Bearer)([ \t]{1,5})([A-Za-z0-9._~+/=-]{8,2000})/gi;
const AUTHORIZATION = /(authorization)(\\?["']?[ \t]{0,5}[:=][ \t]{0,5}\\?["']?)((?:[A-Za-z]{1,20}[ \t]{1,5})?[A-Za-z0-9._~+/=-]{1,2000})/gi;
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
  result = result.replace(AUTHORIZATION, (_whole, key: string, separator: string) => `${key}${separator}${mark('credential')}`);
  result = result.replace(SCHEME, (whole, scheme: string, space: string, value: string) => (value.startsWith('[REDACTED') ? whole : `${scheme}${space}${mark('credential')}`));
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
