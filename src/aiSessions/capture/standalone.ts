/**
 * capture.mjs, the standalone program the server serves at /capture.mjs (docs/ai-capture.md): the
 * `sessions:capture` command bundled with no npm package, for a laptop that has only Node.js (18+).
 * `node capture.mjs [--codex <file> | --codex-notify <json>] [--metadata-only] [--url=<server>]`.
 */
import { readStdin, runCapture, UPLOAD_BUDGET_MS } from './capture.js';

process.exitCode = await runCapture(process.argv.slice(2), process.env, () => readStdin(process.stdin, UPLOAD_BUDGET_MS), process.cwd());
