/**
 * The capture program's parts that need no server (docs/ai-capture.md): what is redacted and what
 * is left, in linear time; remote URLs to project keys; the queue's bounds.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { redactText, redactValue } from '../../src/aiSessions/capture/redact.js';
import { projectKeyOf } from '../../src/aiSessions/capture/git.js';
import { CaptureQueue, MAX_ENTRIES } from '../../src/aiSessions/capture/queue.js';
import { parseCaptureArgs } from '../../src/aiSessions/capture/capture.js';

describe('capture: redaction, project keys, arguments and the queue', function () {
  it('redacts every known secret kind and names it', () => {
    const cases: [string, string][] = [
      ['key sk-ant-api03-abcdefghijklmnopqrstuvwx here', 'key [REDACTED:anthropic-key] here'],
      ['OPENAI_API_KEY=sk-proj-abcdefghijklmnop1234', 'OPENAI_API_KEY=[REDACTED:openai-key]'],
      ['token ghp_abcdefghijklmnopqrstuvwxyz0123456789.', 'token [REDACTED:github-token]'],
      ['gho_abcdefghijklmnopqrstuv and github_pat_11ABCDEFG0123456789_abcdefghij', '[REDACTED:github-token] and [REDACTED:github-token]'],
      ['slack xoxp-1234-5678-abcdef', 'slack [REDACTED:slack-token]'],
      ['AKIAIOSFODNN7EXAMPLE', '[REDACTED:aws-access-key]'],
      ['gai_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG', '[REDACTED:delivery-analytics-key]'],
      ['jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl ok', 'jwt [REDACTED:jwt] ok'],
      ['a\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----\nb', 'a\n[REDACTED:private-key]\nb'],
      ['-----BEGIN EC PRIVATE KEY-----\ntruncated', '[REDACTED:private-key]'],
      ['password=hunter2 and passwd: "x1"', 'password=[REDACTED:secret] and passwd: "[REDACTED:secret]"'],
      ['{"password": "hunter2", "user": "ann"}', '{"password": "[REDACTED:secret]", "user": "ann"}'],
      ['curl -H "Authorization: Basic dXNlcjpwYXNz" x', 'curl -H "Authorization: [REDACTED:credential]" x'],
      ['fetch with Bearer abcdefgh12345678', 'fetch with Bearer [REDACTED:credential]'],
    ];
    for (const [input, output] of cases) expect(redactText(input), input).to.equal(output);
  });

  it('leaves ordinary text alone: words that only contain a prefix, short values, code', () => {
    const text = 'risk-assessment-for-the-new-module, ask-me-anything, the token expires; const sk = 1; skip-the-tests; a task-sk-1 label';
    expect(redactText(text)).to.equal(text);
  });

  it('replaces the string of a secret-named key whatever it holds, and recurses into arrays and objects', () => {
    expect(redactValue({ input: { api_key: 'plain words', nested: ['ghp_abcdefghijklmnopqrstuvwxyz0123'] }, n: 3, ok: true })).to.deep.equal({
      input: { api_key: '[REDACTED:secret]', nested: ['[REDACTED:github-token]'] },
      n: 3,
      ok: true,
    });
  });

  it('runs in linear time on inputs built to make backtracking patterns explode', () => {
    const n = 200_000;
    const inputs = ['eyJ'.repeat(n), `${'a'.repeat(n)}!`, 'password='.repeat(n / 9), `Authorization: ${'Bearer '.repeat(n / 7)}`, '-----BEGIN '.repeat(n / 11), `sk-${'a-'.repeat(n)}`];
    for (const input of inputs) expect(redactText(input).length).to.be.greaterThan(0);
  });

  it('reads owner/repo from the remote URLs git knows', () => {
    expect(projectKeyOf('git@github.com:acme-corp/checkout-service.git')).to.equal('acme-corp/checkout-service');
    expect(projectKeyOf('https://github.com/acme-corp/checkout-service')).to.equal('acme-corp/checkout-service');
    expect(projectKeyOf('ssh://git@gitlab.example.com:2222/group/sub/web.git/')).to.equal('sub/web');
    expect(projectKeyOf('/srv/repos/local')).to.equal('repos/local');
    expect(projectKeyOf('nothing')).to.equal(null);
  });

  it('takes Codex notify JSON as the last argument, --codex with or without a path, and ignores the unknown', () => {
    const json = '{"type":"agent-turn-complete"}';
    expect(parseCaptureArgs(['--codex-notify', json]).args.codexNotify).to.equal(json);
    expect(parseCaptureArgs(['--codex', '/x/rollout.jsonl', '--metadata-only']).args).to.deep.include({ codex: '/x/rollout.jsonl', metadataOnly: true });
    expect(parseCaptureArgs(['--codex', '--cwd=/w']).args).to.deep.include({ codex: true, cwd: '/w' });
    expect(parseCaptureArgs(['--what', json]).ignored).to.deep.equal(['--what']);
  });

  it('keeps at most MAX_ENTRIES uploads, dropping the oldest, and one entry per session', async () => {
    const queue = new CaptureQueue(mkdtempSync(join(tmpdir(), 'da-queue-')));
    for (let i = 0; i < MAX_ENTRIES + 3; i += 1) await queue.add({ server: 'https://x', path: `/api/sessions/by-external-id/s${i}`, body: 'H4sI' });
    await queue.add({ server: 'https://x', path: '/api/sessions/by-external-id/s10', body: 'newer' });
    const entries = await queue.entries();
    expect(readdirSync(queue.dir)).to.have.length(MAX_ENTRIES);
    expect(entries.map((e) => e.upload.path.split('/').pop())).to.deep.equal([...Array.from({ length: MAX_ENTRIES + 3 }, (_, i) => `s${i}`).slice(3).filter((s) => s !== 's10'), 's10']);
    expect(entries[entries.length - 1]?.upload.body).to.equal('newer');
  });
});
