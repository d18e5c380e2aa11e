/**
 * Which transcript file a run is about: Claude Code's SessionEnd hook JSON on stdin, a Codex
 * rollout file named with --codex, or the one of a Codex `notify` call (its JSON is the last
 * argument), else the newest Codex session of a working directory.
 */
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface Source {
  transcriptPath: string;
  /** The tool's session id when the caller named it (the hook's `session_id`, Codex's `thread-id`). */
  sessionId: string | null;
  cwd: string | null;
}

type Json = Record<string, unknown>;
const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function parseObject(text: string): Json | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

/** Claude Code's hook input: `{session_id, transcript_path, cwd, hook_event_name, reason}`. */
export function fromHookInput(text: string): Source | string {
  const input = parseObject(text.trim());
  if (!input) return 'the hook input on stdin is not a JSON object';
  const transcriptPath = str(input.transcript_path);
  if (!transcriptPath) return `the hook input has no transcript_path (hook_event_name ${String(input.hook_event_name)})`;
  return { transcriptPath, sessionId: str(input.session_id), cwd: str(input.cwd) };
}

/** Codex's `notify` argument: `{type: "agent-turn-complete", "thread-id", "turn-id", cwd, …}`. */
export function codexNotification(text: string): { threadId: string | null; cwd: string | null } | string {
  const input = parseObject(text);
  if (!input) return 'the Codex notification (the last argument) is not a JSON object';
  if (input.type !== 'agent-turn-complete') return `a Codex notification of type ${String(input.type)} is not a turn's end: nothing to do`;
  return { threadId: str(input['thread-id']), cwd: str(input.cwd) };
}

const DAY_DIRS_SEARCHED = 60;

/** `sessions/YYYY/MM/DD` folders, newest first, at most DAY_DIRS_SEARCHED of them. */
async function dayDirs(sessions: string): Promise<string[]> {
  const numeric = async (dir: string) => (await readdir(dir).catch(() => [] as string[])).filter((n) => /^\d+$/.test(n)).sort().reverse();
  const out: string[] = [];
  for (const year of await numeric(sessions)) {
    for (const month of await numeric(join(sessions, year))) {
      for (const day of await numeric(join(sessions, year, month))) {
        out.push(join(sessions, year, month, day));
        if (out.length >= DAY_DIRS_SEARCHED) return out;
      }
    }
  }
  return out;
}

/** The first line of a file, read without loading the whole file. */
async function firstLine(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    const end = text.indexOf('\n');
    return end < 0 ? text : text.slice(0, end);
  } finally {
    await handle.close();
  }
}

/**
 * The Codex rollout file of a thread (its name ends with the thread id), else the newest one whose
 * `session_meta` names `cwd`; null when there is none.
 */
export async function findCodexSession(codexHome: string, threadId: string | null, cwd: string | null): Promise<string | null> {
  let newest: { path: string; mtime: number } | null = null;
  for (const dir of await dayDirs(join(codexHome, 'sessions'))) {
    const files = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.startsWith('rollout-') && n.endsWith('.jsonl'));
    if (threadId) {
      const named = files.find((n) => n.endsWith(`-${threadId}.jsonl`));
      if (named) return join(dir, named);
      continue;
    }
    for (const name of files) {
      const path = join(dir, name);
      const meta = parseObject(await firstLine(path).catch(() => ''));
      const payload = meta?.type === 'session_meta' ? (meta.payload as Json | undefined) : undefined;
      if (cwd !== null && payload?.cwd !== cwd) continue;
      const mtime = (await stat(path).catch(() => null))?.mtimeMs ?? 0;
      if (!newest || mtime > newest.mtime) newest = { path, mtime };
    }
    if (newest) return newest.path;
  }
  return threadId ? findCodexSession(codexHome, null, cwd) : null;
}
