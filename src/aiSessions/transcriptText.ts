/**
 * A transcript (JSON lines as coding tools write them) as plain text a model reads cheaply: one
 * line per message or tool call, long tool inputs and results cut. Then cut into chunks of a token
 * budget (about four characters a token), so a long session is summarised chunk by chunk.
 */
type Entry = Record<string, unknown>;

const CHARS_PER_TOKEN = 4;
const TOOL_TEXT_LIMIT = 400;

const cut = (text: string, limit: number) => (text.length > limit ? `${text.slice(0, limit)}…` : text);

function blockText(block: unknown): string {
  if (typeof block === 'string') return block;
  if (!block || typeof block !== 'object') return '';
  const b = block as Entry;
  if (b.type === 'text' && typeof b.text === 'string') return b.text;
  if (b.type === 'tool_use' || b.type === 'tool_call') return `[tool ${String(b.name ?? '')}] ${cut(JSON.stringify(b.input ?? b.arguments ?? {}), TOOL_TEXT_LIMIT)}`;
  if (b.type === 'tool_result') return `[tool result] ${cut(typeof b.content === 'string' ? b.content : JSON.stringify(b.content ?? ''), TOOL_TEXT_LIMIT)}`;
  return '';
}

function lineOf(entry: Entry): string {
  const message = (entry.message && typeof entry.message === 'object' ? entry.message : {}) as Entry;
  const role = String(message.role ?? entry.role ?? entry.type ?? 'event');
  const content = message.content ?? entry.content ?? entry.text;
  const text = Array.isArray(content) ? content.map(blockText).filter(Boolean).join('\n') : blockText(content);
  return text.trim() === '' ? '' : `${role}: ${text.trim()}`;
}

export function transcriptText(jsonLines: string): string {
  const lines: string[] = [];
  for (const raw of jsonLines.split('\n')) {
    if (raw.trim() === '') continue;
    try {
      const line = lineOf(JSON.parse(raw) as Entry);
      if (line) lines.push(line);
    } catch {
      /* stored transcripts were validated on upload; a stray line is skipped */
    }
  }
  return lines.join('\n');
}

export const estimateTokens = (text: string) => Math.ceil(text.length / CHARS_PER_TOKEN);

/** Chunks of at most `tokens` each, cut at line ends where a line allows it. */
export function chunkText(text: string, tokens: number): string[] {
  const limit = tokens * CHARS_PER_TOKEN;
  const chunks: string[] = [];
  let current = '';
  for (const line of text.split('\n')) {
    for (let piece = line; piece.length > 0; piece = piece.slice(limit)) {
      const part = piece.slice(0, limit);
      if (current.length + part.length + 1 > limit && current !== '') {
        chunks.push(current);
        current = '';
      }
      current = current === '' ? part : `${current}\n${part}`;
    }
  }
  if (current !== '') chunks.push(current);
  return chunks;
}

/** The start and the end of a long text within `tokens` (what happened first, and how it ended). */
export function headAndTail(text: string, tokens: number): string {
  const limit = tokens * CHARS_PER_TOKEN;
  if (text.length <= limit) return text;
  const head = Math.floor(limit * 0.4);
  return `${text.slice(0, head)}\n[… ${text.length - limit} characters left out …]\n${text.slice(text.length - (limit - head))}`;
}
