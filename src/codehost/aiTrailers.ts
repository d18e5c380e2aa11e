/**
 * AI co-author trailers. A commit is AI co-authored when one of its `Co-authored-by:` trailers
 * names an AI coding tool. A tool is recognised by its e-mail address or by a name no person
 * carries; first names that people do carry (Claude, Devin) count only with the tool's own
 * address, so `Co-authored-by: Claude Dupont <claude@example.fr>` is a person.
 * The list is documented in docs/activity.md; keep the two in step.
 */
export interface AiTool {
  tool: string;
  name?: RegExp;
  email?: RegExp;
}

export const AI_TOOLS: AiTool[] = [
  { tool: 'claude', name: /^claude[ -](code|opus|sonnet|haiku)\b/i, email: /@anthropic\.com$/i },
  { tool: 'copilot', name: /\bcopilot\b/i, email: /copilot/i },
  { tool: 'cursor', name: /^cursor( agent)?$|^cursor\[bot\]$/i, email: /@cursor\.(com|sh)$/i },
  { tool: 'aider', name: /^aider\b/i, email: /@aider\.chat$/i },
  { tool: 'codex', name: /^(openai )?codex\b|^chatgpt( codex)?\b/i, email: /@openai\.com$/i },
  { tool: 'gemini', name: /^gemini\b|gemini-code-assist/i, email: /gemini/i },
  { tool: 'jules', name: /jules\[bot\]|^google-labs-jules/i },
  { tool: 'windsurf', name: /^(windsurf|codeium|cascade)\b/i, email: /@(codeium|windsurf)\.com$/i },
  { tool: 'devin', name: /^devin-ai-integration\[bot\]$|^devin ai$/i, email: /@(cognition\.ai|cognition-labs\.com)$|devin-ai-integration/i },
  { tool: 'amazon-q', name: /^amazon q\b|amazon-q-developer/i },
  { tool: 'openhands', name: /^openhands\b/i, email: /@all-hands\.dev$/i },
  { tool: 'cline', name: /^cline\b/i, email: /@cline\.bot$/i },
  { tool: 'junie', name: /^junie\b/i, email: /junie/i },
  { tool: 'tabnine', name: /^tabnine\b/i, email: /@tabnine\.com$/i },
];

const TRAILER_KEY = 'co-authored-by:';
/** Trailers that say a tool made the commit whatever their value (METRICS.md "AI attribution": medium). */
const AI_TRAILER_KEYS = ['Made-with', 'Claude-Session'];

/** Every `Key: value` line of a message whose key is one of `keys` (any case), as `Key: value` with the key spelled as given. */
function trailersOf(message: string, keys: string[]): string[] {
  const found: string[] = [];
  for (const line of message.split(/\r?\n|\r/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = keys.find((k) => k.toLowerCase() === line.slice(0, colon).trim().toLowerCase());
    const value = line.slice(colon + 1).trim();
    if (key && value !== '') found.push(`${key}: ${value}`);
  }
  return found;
}

/**
 * Every `Co-authored-by:` value of a commit message, as written. Read line by line, not with a
 * multi-line pattern: a commit message is the pusher's text, and `(.+?)[ \t]*$` backtracked
 * quadratically over a long run of spaces (docs/input-limits.md).
 */
export function coauthorTrailers(message: string): string[] {
  const values: string[] = [];
  for (const line of message.split(/\r?\n|\r/)) {
    if (line.slice(0, TRAILER_KEY.length).toLowerCase() !== TRAILER_KEY) continue;
    const value = line.slice(TRAILER_KEY.length).trim();
    if (value !== '') values.push(value);
  }
  return values;
}

/** `Name <email>` split at its last `<…>` (null when it does not end with one). */
function nameAndEmail(trailer: string): { name: string; email: string } | null {
  const value = trailer.trimEnd();
  const open = value.lastIndexOf('<');
  if (!value.endsWith('>') || open === -1 || value.indexOf('>', open) !== value.length - 1) return null;
  return { name: value.slice(0, open), email: value.slice(open + 1, -1) };
}

/** The AI tool a trailer value (`Name <email>`) names, or null for a person. */
export function aiToolOf(trailer: string): string | null {
  const parts = nameAndEmail(trailer);
  const name = (parts ? parts.name : trailer).trim();
  const email = parts?.email.trim() ?? '';
  for (const entry of AI_TOOLS) {
    if (entry.email && email !== '' && entry.email.test(email)) return entry.tool;
    if (entry.name && entry.name.test(name)) return entry.tool;
  }
  return null;
}

/**
 * Trailers, the distinct AI tools among the co-authors, and every AI trailer as written (an AI
 * co-author, `Made-with:`, `Claude-Session:`), the attribution's evidence.
 */
export function readTrailers(message: string): { coauthors: string[]; aiCoauthors: string[]; aiTrailers: string[] } {
  const coauthors = coauthorTrailers(message);
  const tools = new Set<string>();
  const aiTrailers: string[] = [];
  for (const trailer of coauthors) {
    const tool = aiToolOf(trailer);
    if (tool) {
      tools.add(tool);
      aiTrailers.push(`Co-authored-by: ${trailer}`);
    }
  }
  return { coauthors, aiCoauthors: [...tools], aiTrailers: [...new Set([...aiTrailers, ...trailersOf(message, AI_TRAILER_KEYS)])] };
}
