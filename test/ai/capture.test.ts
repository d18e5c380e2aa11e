/**
 * `sessions:capture` end to end (issue 45, point 3; docs/ai-capture.md): the CLI in a child process,
 * fed what Claude Code's SessionEnd hook and Codex's notify give it, over real transcript files
 * (test/fixtures/ai/), a real git repository with commits inside and outside the session, a real
 * server and a real S3-speaking store.
 */
import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { expect } from 'chai';
import { freePort } from '../../src/dev.js';
import { buildMember, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { serverWithTwoTenants } from '../helpers/suites.js';
import { startS3, type FakeS3 } from '../activity/helpers.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'ai');
const SID = '5d9c2c1e-8f1a-4c7e-9b3a-2f6d1e0a7b42';
const THREAD = '0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const CODEX_FILE = `rollout-2026-03-03T14-00-00-${THREAD}.jsonl`;
const SECRETS = [
  'sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0Ed-AbCdEf', 'hunter2-staging', 'sk-proj-4fG7hJ9kL2mN5pQ8rS1tU3vW6xY0zA', 'ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R',
  'xoxb-2048-4096-AbCdEfGhIjKlMnOp', 'AKIAIOSFODNN7EXAMPLE', 'gai_Qx7rT2wP9mK4nB6vC1zL8sD3fG5hJ0aE', 'MIIEowIBAAKCAQEA7bq3Xk1nJ0Q2p9Zr4tYv8s', 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9', 's3cr3t-Value',
];

/** A repository like the developer's: origin on GitHub, branch feature/card-retry, commits around the session. */
function makeRepository(root: string): { dir: string; sha: Record<string, string> } {
  const dir = join(root, 'checkout-service');
  mkdirSync(dir);
  const git = (args: string[], env: Record<string, string> = {}) => execFileSync('git', args, { cwd: dir, env: { PATH: process.env.PATH, HOME: root, GIT_CONFIG_NOSYSTEM: '1', ...env }, encoding: 'utf8' }).trim();
  git(['init', '-q', '-b', 'feature/card-retry']);
  git(['config', 'user.email', 'dev@example.com']);
  git(['config', 'user.name', 'Dev']);
  git(['remote', 'add', 'origin', 'git@github.com:acme-corp/checkout-service.git']);
  const sha: Record<string, string> = {};
  const commits: [name: string, at: string, email: string][] = [
    ['before', '2026-03-02T08:30:00Z', 'dev@example.com'],
    ['during', '2026-03-02T09:10:00Z', 'dev@example.com'],
    ['colleague', '2026-03-02T09:12:00Z', 'other@example.com'],
    ['lookalike', '2026-03-02T09:15:00Z', 'x.dev@example.com'],
    ['later', '2026-03-02T09:35:00Z', 'dev@example.com'],
  ];
  for (const [name, at, email] of commits) {
    writeFileSync(join(dir, `${name}.txt`), name);
    git(['add', '.']);
    git(['commit', '-q', '-m', name], { GIT_AUTHOR_DATE: at, GIT_COMMITTER_DATE: at, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_EMAIL: email, GIT_AUTHOR_NAME: 'Someone', GIT_COMMITTER_NAME: 'Someone' });
    sha[name] = git(['rev-parse', 'HEAD']);
  }
  return { dir, sha };
}

/** A developer's home: config dir, and credentials as `delivery-analytics login` stores them. */
function makeHome(root: string, server?: string, apiKey?: string): { HOME: string; XDG_CONFIG_HOME: string } {
  const home = mkdtempSync(join(root, 'home-'));
  if (server && apiKey) {
    mkdirSync(join(home, '.config', 'delivery-analytics'), { recursive: true });
    writeFileSync(join(home, '.config', 'delivery-analytics', 'credentials.json'), JSON.stringify({ servers: { [server]: { apiKey, keyId: 'k', keyName: 'laptop', tenantId: 't', createdAt: '2026-03-01T00:00:00Z' } } }));
  }
  return { HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
}

const hookInput = (sessionId: string, transcriptPath: string, cwd: string) =>
  JSON.stringify({ session_id: sessionId, transcript_path: transcriptPath, cwd, hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' });

function expectQuiet(result: CliResult): void {
  expect(result.code, result.stderr).to.equal(0);
  expect(result.stdout).to.equal('');
}

describe('sessions:capture: AI sessions from Claude Code and Codex, as the hook sends them', function () {
  this.timeout(120_000);
  let s3: FakeS3;
  let api: TestServer;
  let a: BuiltTenant;
  let b: BuiltTenant;
  let root: string;
  let repo: { dir: string; sha: Record<string, string> };
  let transcript: string;

  async function sessionsOf(apiKey: string, externalId: string) {
    const res = await api.as(apiKey).get('/api/sessions?perPage=100');
    return (res.body.data as { externalId: string }[]).filter((s) => s.externalId === externalId) as any[];
  }
  async function storedTranscript(tenantId: string, sessionId: string): Promise<string> {
    const out = await s3.client.send(new GetObjectCommand({ Bucket: 'transcripts', Key: `tenants/${tenantId}/sessions/${sessionId}.jsonl` }));
    return (out.Body as { transformToString(): Promise<string> }).transformToString();
  }

  before(async () => {
    s3 = await startS3();
    await s3.createBucket('transcripts');
    ({ api, a, b } = await serverWithTwoTenants({ env: s3.env('transcripts') }));
    root = mkdtempSync(join(tmpdir(), 'da-capture-'));
    repo = makeRepository(root);
    transcript = join(root, `${SID}.jsonl`);
    copyFileSync(join(FIXTURES, 'claude-code-session.jsonl'), transcript);
  });
  after(async () => {
    await api.close();
    await s3.close();
  });

  it('a Claude Code SessionEnd hook stores tool, model, times, tokens, counts, commits, branch and project, with secrets redacted', async () => {
    const home = makeHome(root, api.baseUrl, a.owner.apiKey);
    expectQuiet(await runCli(['sessions:capture'], home, hookInput(SID, transcript, repo.dir)));
    const [session, ...others] = await sessionsOf(a.owner.apiKey, SID);
    expect(others).to.deep.equal([]);
    expect(session).to.deep.include({
      userId: a.owner.userId,
      tool: 'claude-code',
      model: 'claude-sonnet-4-5-20250929',
      startedAt: '2026-03-02T09:00:00.000Z',
      endedAt: '2026-03-02T09:20:00.500Z',
      durationSeconds: 1201,
      projectKey: 'acme-corp/checkout-service',
      branch: 'feature/card-retry',
      prNumber: null,
      commitShas: [repo.sha.during],
    });
    // 1 prompt + 4 replies (a reply's blocks are lines of one message id, counted once with its last usage).
    expect(session.usage).to.deep.equal({ inputTokens: 8400, outputTokens: 508, cacheReadTokens: 7500, cacheWriteTokens: 300, messages: 5, toolCalls: 3 });
    expect(session.transcript).to.include({ stored: true, lines: 11 });
    const text = await storedTranscript(a.tenantId, session.id);
    for (const secret of SECRETS) expect(text, secret).not.to.include(secret);
    for (const kind of ['anthropic-key', 'openai-key', 'github-token', 'slack-token', 'aws-access-key', 'delivery-analytics-key', 'private-key', 'credential', 'secret']) {
      expect(text, kind).to.include(`[REDACTED:${kind}]`);
    }
    expect(text).to.include('DATABASE_URL=postgres://app@db:5432/checkout');
    expect(text).to.include('git commit -am \'Retry declined card payments\'');
    expect(text).to.include('Authorization: [REDACTED:credential]` and');
    expect(readFileSync(join(home.XDG_CONFIG_HOME, 'delivery-analytics', 'capture.log'), 'utf8')).to.match(/sent claude-code session 5d9c2c1e-\S+: 5 messages, 1 commits \(201\)/);
  });

  it('a second run with more lines updates the same session: one row, new counts, times and commits', async () => {
    const [before] = await sessionsOf(a.owner.apiKey, SID);
    appendFileSync(transcript, readFileSync(join(FIXTURES, 'claude-code-session.more.jsonl')));
    expectQuiet(await runCli(['sessions:capture'], makeHome(root, api.baseUrl, a.owner.apiKey), hookInput(SID, transcript, repo.dir)));
    const sessions = await sessionsOf(a.owner.apiKey, SID);
    expect(sessions.map((s) => s.id)).to.deep.equal([before.id]);
    expect(sessions[0]).to.deep.include({ endedAt: '2026-03-02T09:40:00.000Z', commitShas: [repo.sha.later, repo.sha.during] });
    expect(sessions[0].usage).to.deep.equal({ inputTokens: 14600, outputTokens: 638, cacheReadTokens: 13300, cacheWriteTokens: 400, messages: 8, toolCalls: 4 });
    expect(sessions[0].transcript).to.include({ stored: true, lines: 16 });
    expect(await storedTranscript(a.tenantId, before.id)).to.include('Committed the logging change.');
    const rows = (await dbFor(api.databaseUrl).pool.query('select count(*)::int as n from ai_sessions where external_id = $1 and tenant_id = $2', [SID, a.tenantId])).rows;
    expect(rows[0].n).to.equal(1);
  });

  it('--metadata-only sends the derived metadata and no transcript', async () => {
    expectQuiet(await runCli(['sessions:capture', '--metadata-only'], makeHome(root, api.baseUrl, a.owner.apiKey), hookInput('metadata-only-1', transcript, repo.dir)));
    const [session] = await sessionsOf(a.owner.apiKey, 'metadata-only-1');
    expect(session.transcript).to.deep.equal({ stored: false, bytes: null, lines: null });
    expect(session.usage).to.deep.equal({ inputTokens: 14600, outputTokens: 638, cacheReadTokens: 13300, cacheWriteTokens: 400, messages: 8, toolCalls: 4 });
    const row = (await dbFor(api.databaseUrl).pool.query('select transcript_key from ai_sessions where id = $1', [session.id])).rows[0];
    expect(row.transcript_key).to.equal(null);
  });

  it('another tenant\'s key cannot update tenant A\'s session: its run makes its own, A\'s row and transcript stay', async () => {
    const [mine] = await sessionsOf(a.owner.apiKey, SID);
    const textBefore = await storedTranscript(a.tenantId, mine.id);
    const managed = { ...makeHome(root), DELIVERY_ANALYTICS_URL: api.baseUrl, DELIVERY_ANALYTICS_API_KEY: b.owner.apiKey };
    const short = join(root, 'short.jsonl');
    copyFileSync(join(FIXTURES, 'claude-code-session.jsonl'), short);
    expectQuiet(await runCli(['sessions:capture'], managed, hookInput(SID, short, repo.dir)));
    const [theirs] = await sessionsOf(b.owner.apiKey, SID);
    expect(theirs.id).not.to.equal(mine.id);
    expect(theirs.userId).to.equal(b.owner.userId);
    expect(await sessionsOf(a.owner.apiKey, SID)).to.deep.equal([mine]);
    expect(await storedTranscript(a.tenantId, mine.id)).to.equal(textBefore);
    // Inside tenant A, a colleague's key meets the session and is refused; nothing of it changes.
    const colleague = await buildMember(api.databaseUrl, a.tenantId);
    const res = await api.as(colleague.apiKey).put(`/api/sessions/by-external-id/${SID}`, { tool: 'claude-code', startedAt: '2026-03-02T09:00:00Z', transcript: '{"type":"user"}\n' });
    expect(res.status).to.equal(409);
    expect(res.body).to.deep.equal({ error: { code: 'conflict', message: 'A session with this externalId was uploaded by another user' } });
    expect(await sessionsOf(a.owner.apiKey, SID)).to.deep.equal([mine]);
    expect(await storedTranscript(a.tenantId, mine.id)).to.equal(textBefore);
  });

  it('the server down: exit 0, the session queued; the next run (a Codex notify) sends it and its own', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const home = makeHome(root);
    const env = { ...home, DELIVERY_ANALYTICS_URL: url, DELIVERY_ANALYTICS_API_KEY: a.owner.apiKey, CODEX_HOME: join(home.HOME, '.codex') };
    expectQuiet(await runCli(['sessions:capture'], env, hookInput('queued-1', transcript, repo.dir)));
    const queueDir = join(home.XDG_CONFIG_HOME, 'delivery-analytics', 'capture-queue');
    expect(readdirSync(queueDir)).to.have.length(1);
    expect(readFileSync(join(home.XDG_CONFIG_HOME, 'delivery-analytics', 'capture.log'), 'utf8')).to.match(/queued claude-code session queued-1: .* did not answer \(ECONNREFUSED\)/);
    expect(await sessionsOf(a.owner.apiKey, 'queued-1')).to.deep.equal([]);

    const day = join(env.CODEX_HOME, 'sessions', '2026', '03', '03');
    mkdirSync(day, { recursive: true });
    copyFileSync(join(FIXTURES, CODEX_FILE), join(day, CODEX_FILE));
    const second = await testServer({ databaseUrl: api.databaseUrl, port, env: s3.env('transcripts') });
    try {
      const notify = JSON.stringify({ type: 'agent-turn-complete', 'thread-id': THREAD, 'turn-id': '12', cwd: repo.dir, 'input-messages': ['Fix the flaky refund test'], 'last-assistant-message': 'The test now waits.' });
      expectQuiet(await runCli(['sessions:capture', '--codex-notify', notify], env));
      expect(readdirSync(queueDir)).to.deep.equal([]);
      const [queued] = await sessionsOf(a.owner.apiKey, 'queued-1');
      expect(queued.usage.messages).to.equal(8);
      const [codex] = await sessionsOf(a.owner.apiKey, THREAD);
      expect(codex).to.deep.include({ tool: 'codex', model: 'gpt-5-codex', startedAt: '2026-03-03T14:00:00.000Z', endedAt: '2026-03-03T14:05:00.200Z', projectKey: 'acme-corp/checkout-service', branch: 'feature/card-retry', commitShas: [] });
      // Codex's input_tokens include the cached ones; the environment context is no prompt.
      expect(codex.usage).to.deep.equal({ inputTokens: 5400, outputTokens: 780, cacheReadTokens: 14200, cacheWriteTokens: 0, messages: 2, toolCalls: 2 });
      const text = await storedTranscript(a.tenantId, codex.id);
      expect(text).not.to.include('ghp_9Z8y7X6w5V4u3T2s1R0q9P8o7N6m5L4k3J2i');
      expect(text).to.include('the sandbox token is [REDACTED:github-token]');
    } finally {
      await second.close();
    }
  });

  it('GET /capture.mjs is one file that plain node runs as the hook, with the same result', async () => {
    const res = await fetch(`${api.baseUrl}/capture.mjs`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
    const source = await res.text();
    expect(source.match(/^import .* from "([^"]+)";$/gm)?.every((line) => line.includes('"node:'))).to.equal(true);
    const file = join(root, 'capture.mjs');
    writeFileSync(file, source);
    const home = makeHome(root, api.baseUrl, a.owner.apiKey);
    const result = await new Promise<CliResult>((resolve, reject) => {
      const child = spawn(process.execPath, [file], { env: { PATH: process.env.PATH, ...home } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(hookInput('standalone-1', transcript, repo.dir));
    });
    expectQuiet(result);
    const [session] = await sessionsOf(a.owner.apiKey, 'standalone-1');
    expect(session).to.deep.include({ tool: 'claude-code', projectKey: 'acme-corp/checkout-service', branch: 'feature/card-retry', commitShas: [repo.sha.later, repo.sha.during] });
    expect(session.usage).to.deep.equal({ inputTokens: 14600, outputTokens: 638, cacheReadTokens: 13300, cacheWriteTokens: 400, messages: 8, toolCalls: 4 });
    const text = await storedTranscript(a.tenantId, session.id);
    for (const secret of SECRETS) expect(text, secret).not.to.include(secret);
  });

  it('nothing to send, not logged in or a broken hook input: still exit 0 and quiet, the reason in the log', async () => {
    const home = makeHome(root);
    expectQuiet(await runCli(['sessions:capture'], home, hookInput('x', transcript, repo.dir)));
    expectQuiet(await runCli(['sessions:capture', '--url=http://127.0.0.1:1'], makeHome(root, api.baseUrl, a.owner.apiKey), 'not json'));
    const log = readFileSync(join(home.XDG_CONFIG_HOME, 'delivery-analytics', 'capture.log'), 'utf8');
    expect(log).to.include('not logged in: run delivery-analytics login');
    expect(existsSync(join(home.XDG_CONFIG_HOME, 'delivery-analytics', 'capture-queue'))).to.equal(false);
  });
});
