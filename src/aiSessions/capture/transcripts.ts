/**
 * What a session is, read from the tools' own transcript files (docs/ai-capture.md "What is
 * sent"): Claude Code's JSONL (`~/.claude/projects/<dir>/<session id>.jsonl`) and Codex's rollout
 * JSONL (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`). No npm dependency: this runs
 * in the standalone capture.mjs too.
 */

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  messages: number;
  toolCalls: number;
}

export interface SessionFacts {
  tool: 'claude-code' | 'codex';
  /** The tool's own session id: the session's externalId on the server. */
  externalId: string | null;
  model: string | null;
  startedAt: string | null;
  endedAt: string | null;
  cwd: string | null;
  /** The branch the tool itself recorded (Claude Code `gitBranch`, Codex `session_meta.git.branch`). */
  branch: string | null;
  usage: Usage;
  /** Every line that is a JSON object, in order (what is uploaded, once redacted). */
  entries: Record<string, unknown>[];
}

type Entry = Record<string, unknown>;
const isObject = (value: unknown): value is Entry => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0);

/** The JSON objects of a JSONL text; a line that is not one (a torn last line while the tool writes) is skipped. */
export function jsonLines(text: string): Entry[] {
  const entries: Entry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value: unknown = JSON.parse(line);
      if (isObject(value)) entries.push(value);
    } catch {
      // skipped: see above
    }
  }
  return entries;
}

function timeRange(entries: Entry[]): { startedAt: string | null; endedAt: string | null } {
  let first: number | null = null;
  let last: number | null = null;
  for (const entry of entries) {
    const at = typeof entry.timestamp === 'string' ? Date.parse(entry.timestamp) : Number.NaN;
    if (Number.isNaN(at)) continue;
    if (first === null || at < first) first = at;
    if (last === null || at > last) last = at;
  }
  return { startedAt: first === null ? null : new Date(first).toISOString(), endedAt: last === null ? null : new Date(last).toISOString() };
}

/** The model named most often (ties: the later one), skipping Claude Code's `<synthetic>` messages. */
function mostUsed(models: string[]): string | null {
  const counts = new Map<string, number>();
  let best: string | null = null;
  for (const model of models) {
    if (model.startsWith('<')) continue;
    const n = (counts.get(model) ?? 0) + 1;
    counts.set(model, n);
    if (best === null || n >= (counts.get(best) ?? 0)) best = model;
  }
  return best;
}

/** A Codex file starts with `session_meta`; anything else is read as Claude Code's format. */
export function detectTool(entries: Entry[]): 'claude-code' | 'codex' {
  return entries.some((e) => e.type === 'session_meta' && isObject(e.payload)) ? 'codex' : 'claude-code';
}

export function readTranscript(text: string): SessionFacts {
  const entries = jsonLines(text);
  return detectTool(entries) === 'codex' ? readCodex(entries) : readClaudeCode(entries);
}

/**
 * Claude Code writes one line per content block of an assistant reply, each repeating the reply's
 * `message.id` and its usage so far: a reply counts once, with the last usage seen. Messages are
 * the person's prompts (user lines that are not only tool results, nor `isMeta`) plus the replies;
 * tool calls are the distinct `tool_use` blocks.
 */
export function readClaudeCode(entries: Entry[]): SessionFacts {
  const usageByReply = new Map<string, Entry>();
  const replies = new Set<string>();
  const toolUses = new Set<string>();
  const models: string[] = [];
  let prompts = 0;
  let externalId: string | null = null;
  let cwd: string | null = null;
  let branch: string | null = null;
  for (const [index, entry] of entries.entries()) {
    if (entry.type !== 'user' && entry.type !== 'assistant') continue;
    externalId ??= str(entry.sessionId);
    cwd = str(entry.cwd) ?? cwd;
    branch = str(entry.gitBranch) ?? branch;
    const message = isObject(entry.message) ? entry.message : {};
    const content = Array.isArray(message.content) ? message.content.filter(isObject) : [];
    if (entry.type === 'user') {
      const onlyResults = content.length > 0 && content.every((block) => block.type === 'tool_result');
      if (!onlyResults && entry.isMeta !== true) prompts += 1;
      continue;
    }
    const reply = str(message.id) ?? str(entry.uuid) ?? `line-${index}`;
    replies.add(reply);
    const model = str(message.model);
    if (model) models.push(model);
    if (isObject(message.usage)) usageByReply.set(reply, message.usage);
    for (const block of content) if (block.type === 'tool_use') toolUses.add(str(block.id) ?? `${reply}:${toolUses.size}`);
  }
  const usage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, messages: prompts + replies.size, toolCalls: toolUses.size };
  for (const u of usageByReply.values()) {
    usage.inputTokens += num(u.input_tokens);
    usage.outputTokens += num(u.output_tokens);
    usage.cacheReadTokens += num(u.cache_read_input_tokens);
    usage.cacheWriteTokens += num(u.cache_creation_input_tokens);
  }
  return { tool: 'claude-code', externalId, model: mostUsed(models), ...timeRange(entries), cwd, branch, usage, entries };
}

const CODEX_TOOL_CALLS = new Set(['function_call', 'custom_tool_call', 'local_shell_call', 'web_search_call']);
// Codex sends these as user messages at the start of every session: context, not a person's prompt.
const CODEX_CONTEXT = ['<environment_context>', '<user_instructions>', '# AGENTS.md instructions'];

function codexText(content: unknown): string {
  if (!Array.isArray(content)) return '';
  const first = content.find((block) => isObject(block) && typeof block.text === 'string') as Entry | undefined;
  return typeof first?.text === 'string' ? first.text.trimStart() : '';
}

/**
 * Codex: the id, cwd and git of `session_meta`, the model of the last `turn_context`, messages
 * and tool calls from `response_item`s, tokens from the last `token_count` event (its
 * `total_token_usage` is cumulative; `input_tokens` there includes the cached ones).
 */
export function readCodex(entries: Entry[]): SessionFacts {
  let externalId: string | null = null;
  let cwd: string | null = null;
  let branch: string | null = null;
  let total: Entry | null = null;
  const models: string[] = [];
  let messages = 0;
  let toolCalls = 0;
  for (const entry of entries) {
    const payload = isObject(entry.payload) ? entry.payload : {};
    if (entry.type === 'session_meta') {
      externalId ??= str(payload.id);
      cwd = str(payload.cwd) ?? cwd;
      if (isObject(payload.git)) branch = str(payload.git.branch) ?? branch;
    } else if (entry.type === 'turn_context') {
      cwd = str(payload.cwd) ?? cwd;
      const model = str(payload.model);
      if (model) models.push(model);
    } else if (entry.type === 'response_item') {
      if (payload.type === 'message' && payload.role === 'assistant') messages += 1;
      if (payload.type === 'message' && payload.role === 'user' && !CODEX_CONTEXT.some((c) => codexText(payload.content).startsWith(c))) messages += 1;
      if (typeof payload.type === 'string' && CODEX_TOOL_CALLS.has(payload.type)) toolCalls += 1;
    } else if (entry.type === 'event_msg' && payload.type === 'token_count' && isObject(payload.info) && isObject(payload.info.total_token_usage)) {
      total = payload.info.total_token_usage;
    }
  }
  const cached = num(total?.cached_input_tokens);
  const usage: Usage = {
    inputTokens: Math.max(0, num(total?.input_tokens) - cached),
    outputTokens: num(total?.output_tokens),
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
    messages,
    toolCalls,
  };
  return { tool: 'codex', externalId, model: mostUsed(models), ...timeRange(entries), cwd, branch, usage, entries };
}
