/**
 * `sessions:capture` (docs/ai-capture.md): reads an AI tool's session, redacts it, finds its
 * repository, branch and commits, and sends it to the server as an idempotent upsert keyed by the
 * tool's session id. It never fails the tool that runs it: the answer is always 0, nothing is
 * written to stdout, and what goes wrong is written to the capture log (and queued when it may
 * pass). The same code is the CLI command and the standalone capture.mjs the server serves, so
 * it imports no npm package.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { loadCaptureConfig } from '../../config/capture.js';
import type { Env } from '../../config/reader.js';
import { gitFacts } from './git.js';
import { CaptureQueue, logLine, type QueuedUpload } from './queue.js';
import { redactValue } from './redact.js';
import { codexNotification, findCodexSession, fromHookInput, type Source } from './source.js';
import { readTranscript } from './transcripts.js';
import { chooseServer, flushQueue, keyFor, readKeys, send } from './upload.js';

/** The whole upload stage (this session and the queue) stops after this long. */
export const UPLOAD_BUDGET_MS = 5000;
/** The server's transcript limit (src/aiSessions/transcripts.ts): a larger one is sent as metadata only. */
const TRANSCRIPT_MAX_BYTES = 10 * 1024 * 1024;

export interface CaptureArgs {
  codex: string | true | null;
  codexNotify: string | null;
  metadataOnly: boolean;
  url: string | null;
  cwd: string | null;
}

/** Lenient: `--codex <path>`, `--codex=<path>`, `--codex-notify '<json>'`; an unknown argument is ignored (and logged). */
export function parseCaptureArgs(argv: string[]): { args: CaptureArgs; ignored: string[] } {
  const args: CaptureArgs = { codex: null, codexNotify: null, metadataOnly: false, url: null, cwd: null };
  const ignored: string[] = [];
  const last = argv[argv.length - 1];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, null];
    const next = argv[i + 1];
    const value = () => inline ?? (next !== undefined && !next.startsWith('--') && !next.startsWith('{') ? (i += 1, next) : null);
    if (name === '--metadata-only') args.metadataOnly = true;
    else if (name === '--codex') args.codex = value() ?? true;
    else if (name === '--codex-notify') args.codexNotify = inline ?? (last?.startsWith('{') ? last : '');
    else if (name === '--url') args.url = value();
    else if (name === '--cwd') args.cwd = value();
    else if (!(arg === last && arg.startsWith('{'))) ignored.push(arg);
  }
  return { args, ignored };
}

async function findSource(args: CaptureArgs, codexHome: string | null, stdin: () => Promise<string>, workingDir: string): Promise<Source | string> {
  if (args.codexNotify !== null) {
    const note = codexNotification(args.codexNotify);
    if (typeof note === 'string') return note;
    const path = codexHome ? await findCodexSession(codexHome, note.threadId, note.cwd) : null;
    return path ? { transcriptPath: path, sessionId: note.threadId, cwd: note.cwd } : `no Codex session file for thread ${String(note.threadId)} under ${String(codexHome)}/sessions`;
  }
  if (args.codex !== null) {
    if (typeof args.codex === 'string') return { transcriptPath: args.codex, sessionId: null, cwd: args.cwd };
    const cwd = args.cwd ?? workingDir;
    const path = codexHome ? await findCodexSession(codexHome, null, cwd) : null;
    return path ? { transcriptPath: path, sessionId: null, cwd } : `no Codex session of ${cwd} under ${String(codexHome)}/sessions`;
  }
  return fromHookInput(await stdin());
}

/** Builds the upload of one session, or says why there is none. */
async function buildUpload(source: Source, args: CaptureArgs, server: string): Promise<{ upload: QueuedUpload; summary: string } | string> {
  const facts = readTranscript(await readFile(source.transcriptPath, 'utf8'));
  const externalId = source.sessionId ?? facts.externalId;
  if (!externalId || externalId.length > 200) return `${source.transcriptPath} names no session id: nothing sent`;
  if (!facts.startedAt) return `${source.transcriptPath} has no timestamped line yet: nothing sent`;
  const cwd = source.cwd ?? facts.cwd;
  const git = await gitFacts(cwd, facts.startedAt, facts.endedAt);
  const body: Record<string, unknown> = {
    tool: facts.tool,
    startedAt: facts.startedAt,
    endedAt: facts.endedAt,
    commitShas: git.commitShas,
    usage: facts.usage,
  };
  if (facts.model) body.model = facts.model.slice(0, 200);
  if (git.projectKey) body.projectKey = git.projectKey;
  const branch = git.branch ?? facts.branch;
  if (branch && branch !== 'HEAD') body.branch = branch.slice(0, 255);
  let note = '';
  if (!args.metadataOnly) {
    const transcript = facts.entries.map((entry) => JSON.stringify(redactValue(entry))).join('\n');
    if (Buffer.byteLength(transcript) <= TRANSCRIPT_MAX_BYTES) body.transcript = transcript;
    else note = ' (transcript above 10 MiB: metadata only)';
  }
  const path = `/api/sessions/by-external-id/${encodeURIComponent(externalId)}`;
  const upload = { server, path, body: gzipSync(JSON.stringify(body)).toString('base64') };
  return { upload, summary: `${facts.tool} session ${externalId}: ${facts.usage.messages} messages, ${git.commitShas.length} commits${note}` };
}

/** The command itself; resolves with 0 whatever happens. */
export async function runCapture(argv: string[], env: Env, stdin: () => Promise<string>, workingDir: string): Promise<number> {
  const config = loadCaptureConfig(env);
  if (config.configHome === null) return 0;
  const configDir = join(config.configHome, 'delivery-analytics');
  const log = (line: string) => logLine(configDir, line);
  try {
    for (const problem of config.problems) await log(`configuration: ${problem}`);
    const { args, ignored } = parseCaptureArgs(argv);
    if (ignored.length > 0) await log(`ignored arguments: ${ignored.join(' ')}`);
    const keys = await readKeys(configDir, config.managedUrl, config.managedApiKey);
    const queue = new CaptureQueue(configDir);
    const userAgent = `delivery-analytics-capture/${config.releaseVersion}`;
    const server = chooseServer(keys, args.url);
    const source = await findSource(args, config.codexHome, stdin, workingDir);
    const deadline = Date.now() + UPLOAD_BUDGET_MS;
    if (typeof server !== 'string') await log(server.join('; '));
    else if (typeof source === 'string') await log(source);
    else {
      const built = await buildUpload(source, args, server);
      if (typeof built === 'string') await log(built);
      else {
        const outcome = await send(built.upload, keyFor(keys, server), deadline, userAgent);
        if (outcome.kind === 'sent') await log(`sent ${built.summary} (${outcome.status})`);
        else if (outcome.kind === 'refused') await log(`refused ${built.summary}: ${outcome.why}`);
        else {
          await queue.add(built.upload);
          await log(`queued ${built.summary}: ${outcome.why}`);
          return 0;
        }
        // Sent (or refused for good): an older copy of the same session waiting in the queue is obsolete.
        const stale = (await queue.entries()).find((e) => e.upload.server === server && e.upload.path === built.upload.path);
        if (stale) await queue.remove(stale.file);
      }
    }
    await flushQueue(queue, keys, deadline, userAgent, log);
  } catch (error) {
    await log(`failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return 0;
}

/** Standard input as text, or '' when it is a terminal or nothing arrives before `timeoutMs`. */
export function readStdin(stream: NodeJS.ReadStream, timeoutMs: number): Promise<string> {
  if (stream.isTTY) return Promise.resolve('');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      stream.destroy();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(done, timeoutMs);
    timer.unref();
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('end', done);
    stream.once('error', done);
  });
}
