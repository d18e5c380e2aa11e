import { mkdtempSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { expect } from 'chai';
import { freePort } from '../../src/dev.js';
import { buildMember, buildTenant, dbFor, type BuiltTenant, type BuiltUser } from '../helpers/factories.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { startS3, type FakeS3 } from './helpers.js';
import { serverWithTwoTenants } from '../helpers/suites.js';

const TRANSCRIPT = [
  { type: 'user', message: { role: 'user', content: 'Add retries to the gateway client' }, timestamp: '2026-11-02T09:00:05Z' },
  { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Reading the client.' }, { type: 'tool_use', id: 't1', name: 'Read', input: { path: 'src/gateway/client.ts' } }], usage: { input_tokens: 1200, output_tokens: 80, cache_read_input_tokens: 900 } } },
  { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '…' }] } },
  { type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'Edit', input: {} }], usage: { input_tokens: 1500, output_tokens: 300, cache_creation_input_tokens: 50 } } },
].map((line) => JSON.stringify(line)).join('\n');

const BASE = { tool: 'claude-code', model: 'claude-sonnet-4-5', startedAt: '2026-11-02T09:00:00Z', endedAt: '2026-11-02T09:42:30Z', projectKey: 'acme-corp/checkout-service', branch: 'feature/card-retry' };
const EMPTY_USAGE = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, messages: 0, toolCalls: 0 };

async function objectText(s3: FakeS3, key: string): Promise<string | null> {
  try {
    const out = await s3.client.send(new GetObjectCommand({ Bucket: 'transcripts', Key: key }));
    return await (out.Body as { transformToString(): Promise<string> }).transformToString();
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return null;
    throw error;
  }
}

describe('AI sessions with transcripts in an S3-speaking store', function () {
  let s3: FakeS3;
  let api: TestServer;
  let a: BuiltTenant;
  let member: BuiltUser;
  let b: BuiltTenant;

  before(async () => {
    s3 = await startS3();
    await s3.createBucket('transcripts');
    ({ api, a, b } = await serverWithTwoTenants({ env: s3.env('transcripts') }));
    member = await buildMember(api.databaseUrl, a.tenantId);
  });
  after(async () => {
    await api.close();
    await s3.close();
  });

  let sessionId: string;

  it('POST stores the transcript under a tenant-prefixed key and derives usage from it', async () => {
    const res = await api.as(a.owner.apiKey).post('/api/sessions', { ...BASE, commitShas: ['4B825DC642'], transcript: TRANSCRIPT });
    expect(res.status).to.equal(201);
    sessionId = res.body.data.id;
    expect(res.body).to.deep.equal({
      data: {
        id: sessionId,
        userId: a.owner.userId,
        source: 'upload',
        externalId: null,
        tool: 'claude-code',
        model: 'claude-sonnet-4-5',
        startedAt: '2026-11-02T09:00:00.000Z',
        endedAt: '2026-11-02T09:42:30.000Z',
        durationSeconds: 2550,
        projectKey: 'acme-corp/checkout-service',
        branch: 'feature/card-retry',
        prNumber: null,
        commitShas: ['4b825dc642'],
        usage: { inputTokens: 2700, outputTokens: 380, cacheReadTokens: 900, cacheWriteTokens: 50, messages: 4, toolCalls: 2 },
        transcript: { stored: true, bytes: Buffer.byteLength(TRANSCRIPT) + 1, lines: 4 },
        createdAt: res.body.data.createdAt,
      },
      meta: {},
    });
    const [row] = (await dbFor(api.databaseUrl).pool.query('select tenant_id, transcript_key from ai_sessions where id = $1', [sessionId])).rows;
    expect(row).to.deep.equal({ tenant_id: a.tenantId, transcript_key: `tenants/${a.tenantId}/sessions/${sessionId}.jsonl` });
    expect(await objectText(s3, row.transcript_key)).to.equal(`${TRANSCRIPT}\n`);
  });

  it('POST accepts a gzip body and an array transcript; explicit usage wins over derived counts', async () => {
    const body = { ...BASE, startedAt: '2026-11-02T08:00:00Z', endedAt: '2026-11-02T08:30:00Z', tool: 'cursor', externalId: 'cursor-1', usage: { inputTokens: 10, messages: 1 }, transcript: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }] };
    const res = await api.as(member.apiKey).post('/api/sessions', new Uint8Array(gzipSync(JSON.stringify(body))), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(res.status).to.equal(201);
    expect(res.body.data.usage).to.deep.equal({ inputTokens: 10, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, messages: 1, toolCalls: 0 });
    expect(res.body.data.transcript).to.deep.equal({ stored: true, bytes: 70, lines: 2 });
    expect(await objectText(s3, `tenants/${a.tenantId}/sessions/${res.body.data.id}.jsonl`)).to.equal('{"role":"user","content":"hi"}\n{"role":"assistant","content":"hello"}\n');
  });

  it('POST without a transcript records the session and says none was sent', async () => {
    const res = await api.as(a.owner.apiKey).post('/api/sessions', { tool: 'aider', startedAt: '2026-10-01T08:00:00Z' });
    expect(res.status).to.equal(201);
    expect(res.body.data).to.include({ endedAt: null, durationSeconds: null, projectKey: null });
    expect(res.body.data.usage).to.deep.equal(EMPTY_USAGE);
    expect(res.body.data.transcript).to.deep.equal({ stored: false, bytes: null, lines: null, reason: 'no transcript was sent' });
  });

  it('POST rejects invalid input with every problem, a non-JSON line by number, and a transcript above 10 MiB with 413', async () => {
    const invalid = await api.as(a.owner.apiKey).post('/api/sessions', { startedAt: 'yesterday', endedAt: '2026-01-01T00:00:00Z', commitShas: ['xyz'], projectKey: 'no-slash' });
    expect(invalid.status).to.equal(400);
    expect(invalid.body.error.code).to.equal('validation_failed');
    expect(invalid.body.error.details.map((d: { path: string }) => d.path).sort()).to.deep.equal(['commitShas.0', 'projectKey', 'startedAt', 'tool']);
    const badLine = await api.as(a.owner.apiKey).post('/api/sessions', { ...BASE, transcript: '{"ok":1}\n{broken\n' });
    expect(badLine.status).to.equal(400);
    expect(badLine.body.error.details).to.deep.equal([{ path: 'transcript', message: 'line 2 is not valid JSON' }]);
    const line = `${JSON.stringify({ type: 'assistant', text: 'x'.repeat(1000) })}\n`;
    const huge = line.repeat(Math.ceil((10 * 1024 * 1024) / line.length) + 1);
    const tooLarge = await api.as(a.owner.apiKey).post('/api/sessions', new Uint8Array(gzipSync(JSON.stringify({ ...BASE, transcript: huge }))), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(tooLarge.status).to.equal(413);
    expect(tooLarge.body.error.code).to.equal('payload_too_large');
  });

  it('a second upload with the same externalId is a conflict and leaves no object behind', async () => {
    const before = await s3.client.send(new ListObjectsV2Command({ Bucket: 'transcripts', Prefix: `tenants/${a.tenantId}/` }));
    const res = await api.as(member.apiKey).post('/api/sessions', { ...BASE, tool: 'cursor', externalId: 'cursor-1', transcript: TRANSCRIPT });
    expect(res.status).to.equal(409);
    expect(res.body).to.deep.equal({ error: { code: 'conflict', message: 'A session with this externalId was already uploaded' } });
    const after = await s3.client.send(new ListObjectsV2Command({ Bucket: 'transcripts', Prefix: `tenants/${a.tenantId}/` }));
    expect(after.KeyCount).to.equal(before.KeyCount);
  });

  it('GET /api/sessions pages and filters by user, project, tool and date range', async () => {
    const all = await api.as(member.apiKey).get('/api/sessions?perPage=2');
    expect(all.status).to.equal(200);
    expect(all.body.meta).to.deep.equal({ page: 1, perPage: 2, total: 3 });
    expect(all.body.data.map((s: { tool: string }) => s.tool)).to.deep.equal(['claude-code', 'cursor']);
    const page2 = await api.as(member.apiKey).get('/api/sessions?perPage=2&page=2');
    expect(page2.body.data.map((s: { tool: string }) => s.tool)).to.deep.equal(['aider']);
    const mine = await api.as(a.owner.apiKey).get(`/api/sessions?userId=${member.userId}`);
    expect(mine.body.data.map((s: { tool: string }) => s.tool)).to.deep.equal(['cursor']);
    const byProject = await api.as(a.owner.apiKey).get('/api/sessions?projectKey=acme-corp/checkout-service&tool=claude-code');
    expect(byProject.body.data.map((s: { id: string }) => s.id)).to.deep.equal([sessionId]);
    const october = await api.as(a.owner.apiKey).get('/api/sessions?from=2026-10-01T00:00:00Z&to=2026-11-01T00:00:00Z');
    expect(october.body.data.map((s: { tool: string }) => s.tool)).to.deep.equal(['aider']);
    const byDate = await api.as(a.owner.apiKey).get('/api/sessions?from=2026-10-01&to=2026-11-01');
    expect(byDate.body.data.map((s: { tool: string }) => s.tool)).to.deep.equal(['aider']);
    const bad = await api.as(a.owner.apiKey).get('/api/sessions?from=october');
    expectRefusal(bad, 400, { error: { code: 'validation_failed', message: 'Validation failed', details: [{ path: 'query.from', message: 'Invalid input' }] } });
  });

  it('GET /api/sessions/:id shows metadata and links; the transcript only to its uploader and owners', async () => {
    const plain = await api.as(member.apiKey).get(`/api/sessions/${sessionId}`);
    expect(plain.status).to.equal(200);
    expect(plain.body.data.transcript).to.deep.equal({ stored: true, bytes: Buffer.byteLength(TRANSCRIPT) + 1, lines: 4 });
    expect(plain.body.data.links).to.deep.equal({ pullRequests: [], commits: [] });
    const withTranscript = await api.as(a.owner.apiKey).get(`/api/sessions/${sessionId}?include=transcript`);
    expect(withTranscript.status).to.equal(200);
    expect(withTranscript.body.data.transcript.content).to.equal(`${TRANSCRIPT}\n`);
    const forbidden = await api.as(member.apiKey).get(`/api/sessions/${sessionId}?include=transcript`);
    expectRefusal(forbidden, 403, apiError('forbidden', 'You do not have permission to do this'));
  });

  it('GET /api/sessions/:id/metrics gives duration, messages, tool calls, tokens and link counts', async () => {
    const res = await api.as(member.apiKey).get(`/api/sessions/${sessionId}/metrics`);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      data: {
        sessionId,
        durationSeconds: 2550,
        messages: 4,
        toolCalls: 2,
        inputTokens: 2700,
        outputTokens: 380,
        cacheReadTokens: 900,
        cacheWriteTokens: 50,
        totalTokens: 4030,
        linkedCommits: 0,
        linkedPullRequests: 0,
        pullRequests: [],
        commits: [],
      },
      meta: {},
    });
  });

  it('another tenant sees none of it: list, details, transcript, metrics and delete', async () => {
    const list = await api.as(b.owner.apiKey).get('/api/sessions');
    expect(list.body).to.deep.equal({ data: [], meta: { page: 1, perPage: 25, total: 0 } });
    for (const path of [`/api/sessions/${sessionId}`, `/api/sessions/${sessionId}?include=transcript`, `/api/sessions/${sessionId}/metrics`]) {
      const res = await api.as(b.owner.apiKey).get(path);
      expect(res.status, path).to.equal(404);
      expect(res.body).to.deep.equal({ error: { code: 'not_found', message: 'Session not found' } });
    }
    expectRefusal(await api.as(b.owner.apiKey).delete(`/api/sessions/${sessionId}`), 404, apiError('not_found', 'Session not found'));
    expectRefusal(await api.get('/api/sessions'), 401, apiError('unauthorized', 'Missing or invalid credentials'));
    expect(await objectText(s3, `tenants/${a.tenantId}/sessions/${sessionId}.jsonl`)).to.equal(`${TRANSCRIPT}\n`);
  });

  it('DELETE: a member cannot delete another user\'s session; the owner deletes the row and the object', async () => {
    expectRefusal(await api.as(member.apiKey).delete(`/api/sessions/${sessionId}`), 403, apiError('forbidden', 'You do not have permission to do this'));
    const res = await api.as(a.owner.apiKey).delete(`/api/sessions/${sessionId}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ data: { id: sessionId, deleted: true, transcriptDeleted: true }, meta: {} });
    expect(await objectText(s3, `tenants/${a.tenantId}/sessions/${sessionId}.jsonl`)).to.equal(null);
    expectRefusal(await api.as(a.owner.apiKey).get(`/api/sessions/${sessionId}`), 404, apiError('not_found', 'Session not found'));
    expectRefusal(await api.as(a.owner.apiKey).get('/api/sessions/not-a-uuid'), 404, apiError('not_found', 'Session not found'));
  });

  it('a member deletes their own session', async () => {
    const [own] = (await api.as(member.apiKey).get(`/api/sessions?userId=${member.userId}`)).body.data;
    expect((await api.as(member.apiKey).delete(`/api/sessions/${own.id}`)).status).to.equal(200);
    expect(await objectText(s3, `tenants/${a.tenantId}/sessions/${own.id}.jsonl`)).to.equal(null);
  });

  it('a transcript object lost from the store reads as 503, not 500', async () => {
    const created = await api.as(a.owner.apiKey).post('/api/sessions', { ...BASE, transcript: TRANSCRIPT });
    const key = `tenants/${a.tenantId}/sessions/${created.body.data.id}.jsonl`;
    const { DeleteObjectCommand } = await import('@aws-sdk/client-s3');
    await s3.client.send(new DeleteObjectCommand({ Bucket: 'transcripts', Key: key }));
    const res = await api.as(a.owner.apiKey).get(`/api/sessions/${created.body.data.id}?include=transcript`);
    expect(res.status).to.equal(503);
    expect(res.body.error.code).to.equal('unavailable');
    expect(res.body.error.message).to.contain('the transcript object is missing from the bucket "transcripts"');
  });
});

describe('AI sessions when the object store is missing or unreachable', function () {
  let s3: FakeS3;
  before(async () => {
    s3 = await startS3();
  });
  after(() => s3.close());

  it('a missing bucket gives 503 naming the bucket and the addressing hint, and records no session', async () => {
    const api = await testServer({ env: s3.env('no-such-bucket') });
    try {
      const tenant = await buildTenant(api.databaseUrl);
      const res = await api.as(tenant.owner.apiKey).post('/api/sessions', { ...BASE, transcript: TRANSCRIPT });
      expect(res.status).to.equal(503);
      expect(res.body).to.deep.equal({
        error: {
          code: 'unavailable',
          message: `Object store unavailable: the bucket "no-such-bucket" at ${s3.endpoint} does not exist. S3_ADDRESSING is path (derived from S3_ENDPOINT); a path/virtual-host mismatch looks like a missing bucket or a permissions error`,
        },
      });
      const rows = (await dbFor(api.databaseUrl).pool.query('select count(*)::int as n from ai_sessions')).rows;
      expect(rows[0].n).to.equal(0);
      // A session without a transcript never touches the store.
      expect((await api.as(tenant.owner.apiKey).post('/api/sessions', BASE)).status).to.equal(201);
    } finally {
      await api.close();
    }
  });

  it('an unreachable store gives 503 naming the endpoint', async () => {
    const port = await freePort();
    const api = await testServer({ env: { ...s3.env('transcripts'), S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_ADDRESSING: 'path' } });
    try {
      const tenant = await buildTenant(api.databaseUrl);
      const res = await api.as(tenant.owner.apiKey).post('/api/sessions', { ...BASE, transcript: TRANSCRIPT });
      expect(res.status).to.equal(503);
      expect(res.body.error.message).to.equal(
        `Object store unavailable: the store at http://127.0.0.1:${port} is unreachable (ECONNREFUSED). S3_ADDRESSING is path (set by S3_ADDRESSING); a path/virtual-host mismatch looks like a missing bucket or a permissions error`,
      );
    } finally {
      await api.close();
    }
  });
});

describe('AI sessions with a local object directory, and with no store', function () {
  it('stores, reads and deletes the transcript as a file under LOCAL_OBJECT_STORE_DIR', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'da-objects-'));
    const api = await testServer({ env: { LOCAL_OBJECT_STORE_DIR: dir } });
    try {
      const tenant = await buildTenant(api.databaseUrl);
      const created = await api.as(tenant.owner.apiKey).post('/api/sessions', { ...BASE, transcript: TRANSCRIPT });
      expect(created.status).to.equal(201);
      const file = join(dir, 'tenants', tenant.tenantId, 'sessions', `${created.body.data.id}.jsonl`);
      expect(readFileSync(file, 'utf8')).to.equal(`${TRANSCRIPT}\n`);
      const read = await api.as(tenant.owner.apiKey).get(`/api/sessions/${created.body.data.id}?include=transcript`);
      expect(read.body.data.transcript.content).to.equal(`${TRANSCRIPT}\n`);
      expect((await api.as(tenant.owner.apiKey).delete(`/api/sessions/${created.body.data.id}`)).status).to.equal(200);
      expect(existsSync(file)).to.equal(false);
    } finally {
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('without any store the upload succeeds without its transcript and says so', async () => {
    const api = await testServer();
    try {
      const tenant = await buildTenant(api.databaseUrl);
      const res = await api.as(tenant.owner.apiKey).post('/api/sessions', { ...BASE, transcript: TRANSCRIPT });
      expect(res.status).to.equal(201);
      expect(res.body.data.transcript).to.deep.equal({
        stored: false,
        bytes: null,
        lines: null,
        reason: 'no object store is configured (S3_BUCKET or LOCAL_OBJECT_STORE_DIR); the session was recorded without its transcript',
      });
      // Usage is still derived from the transcript that was sent.
      expect(res.body.data.usage).to.deep.equal({ inputTokens: 2700, outputTokens: 380, cacheReadTokens: 900, cacheWriteTokens: 50, messages: 4, toolCalls: 2 });
      const read = await api.as(tenant.owner.apiKey).get(`/api/sessions/${res.body.data.id}?include=transcript`);
      expect(read.body.data.transcript).to.deep.equal({ stored: false, bytes: null, lines: null, content: null });
    } finally {
      await api.close();
    }
  });
});
