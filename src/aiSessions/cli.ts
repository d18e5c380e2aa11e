/** `sessions:capture`: the AI-session hook as a command of this CLI (the same code as capture.mjs). */
import type { Command } from '../cli/commands.js';
import { readStdin, runCapture, UPLOAD_BUDGET_MS } from './capture/capture.js';

export const captureCommands: Record<string, Command> = {
  'sessions:capture': {
    summary: 'Send the AI session that just ended (Claude Code SessionEnd hook on stdin, or Codex) to the server; always exits 0.',
    usage: 'sessions:capture [--codex[=<rollout.jsonl>] | --codex-notify <json>] [--metadata-only] [--url=<APP_URL>] [--cwd=<dir>]',
    rawArguments: true,
    run: (_options, env, argv) => runCapture(argv, env, () => readStdin(process.stdin, UPLOAD_BUDGET_MS), process.cwd()),
  },
};
