/**
 * Fake model providers on loopback, speaking each vendor's wire format, streaming included: OpenAI
 * chat completions (`stream: true` → `data:` chunks and `[DONE]`), Anthropic messages (`stream: true`
 * → the `message_start`, `content_block_*`, `message_delta`, `message_stop` events) and Google
 * generateContent (`:streamGenerateContent?alt=sse` → `data:` chunks of GenerateContentResponse).
 * A test scripts the answers with `respond` and reads what arrived in `requests`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

export type Reply =
  /** `after`: the answer starts once this promise settles (a slow model, released by the test once it has seen the page mid-run). */
  | { text: string; inputTokens?: number; outputTokens?: number; after?: Promise<unknown> }
  | { toolCalls: { name: string; args: unknown }[]; inputTokens?: number; outputTokens?: number }
  | { status: number; message?: string }
  /** Answers nothing for this long (a timeout). */
  | { hangMs: number }
  /**
   * Anthropic only: a streamed answer that fails in the stream (HTTP 200, then an `error` event, as
   * the API does when overloaded); `afterStart` sends `message_start` first.
   */
  | { streamError: 'overloaded_error' | 'api_error' | 'rate_limit_error'; afterStart?: boolean };

export interface FakeProvider {
  /** The API root the SDK is given (LLM_<X>_BASE_URL). */
  url: string;
  requests: FakeRequest[];
  respond: (request: FakeRequest) => Reply;
  close(): Promise<void>;
}

type Answer = Extract<Reply, { text: string } | { toolCalls: unknown }>;
type Writer = (request: FakeRequest, reply: Answer | Extract<Reply, { streamError: string }>, res: ServerResponse) => void;

async function start(root: string, write: Writer, errorBody: (status: number, message: string) => unknown): Promise<FakeProvider> {
  const sockets = new Set<import('node:net').Socket>();
  const fake: FakeProvider = {
    url: '',
    requests: [],
    respond: () => ({ text: 'ok' }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const request: FakeRequest = { path: req.url ?? '', headers: req.headers, body: text ? JSON.parse(text) : null };
      fake.requests.push(request);
      let reply: Reply;
      try {
        reply = fake.respond(request);
      } catch (error) {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify(errorBody(500, String(error))));
        return;
      }
      if ('hangMs' in reply) {
        setTimeout(() => res.destroyed || res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), reply.hangMs);
        return;
      }
      if ('status' in reply) {
        res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(errorBody(reply.status, reply.message ?? `fake error ${reply.status}`)));
        return;
      }
      const answer = () => {
        try {
          write(request, reply, res);
        } catch (error) {
          res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify(errorBody(500, String(error))));
        }
      };
      if ('after' in reply && reply.after) void reply.after.finally(() => res.destroyed || answer());
      else answer();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${root}`;
  return fake;
}

const usage = (reply: { inputTokens?: number; outputTokens?: number }) => ({ input: reply.inputTokens ?? 11, output: reply.outputTokens ?? 7 });
let counter = 0;

/** OpenAI chat completions (also provider D, the OpenAI-compatible endpoint), streamed when asked. */
export function startFakeOpenAI(): Promise<FakeProvider> {
  return start('/v1', (request, reply, res) => {
    if ('streamError' in reply) throw new Error('streamError is scripted for the Anthropic fake only');
    const { input, output } = usage(reply);
    const id = `chatcmpl-${++counter}`;
    const model = request.body.model;
    const toolCalls = 'toolCalls' in reply ? reply.toolCalls.map((c, i) => ({ id: `call_${counter}_${i}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })) : undefined;
    const content = 'text' in reply ? reply.text : null;
    const finish = toolCalls ? 'tool_calls' : 'stop';
    const usageBody = { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
    if (!request.body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ id, object: 'chat.completion', created: 1, model, choices: [{ index: 0, message: { role: 'assistant', content, ...(toolCalls ? { tool_calls: toolCalls } : {}) }, finish_reason: finish }], usage: usageBody }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (delta: unknown, finishReason: string | null = null) =>
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`);
    send({ role: 'assistant', content: '' });
    if (content !== null) for (const piece of pieces(content)) send({ content: piece });
    toolCalls?.forEach((call, index) => send({ tool_calls: [{ index, ...call }] }));
    send({}, finish);
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model, choices: [], usage: usageBody })}\n\n`);
    res.end('data: [DONE]\n\n');
  }, (status, message) => ({ error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'invalid_request_error', code: null } }));
}

/**
 * Anthropic messages; a structured answer asked through the `json` tool comes back as that tool's
 * input. Streamed (`stream: true`) as the API's server-sent events: text in `text_delta`s, a tool's
 * input in `input_json_delta`s, the stop reason and output tokens in `message_delta`.
 */
export function startFakeAnthropic(): Promise<FakeProvider> {
  return start('/v1', (request, reply, res) => {
    const id = `msg_${++counter}`;
    const model = request.body.model;
    if ('streamError' in reply) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      if (reply.afterStart) res.write(sse('message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 11, output_tokens: 1 } } }));
      res.end(sse('error', { type: 'error', error: { type: reply.streamError, message: reply.streamError === 'overloaded_error' ? 'Overloaded' : 'fake stream error' } }));
      return;
    }
    const { input, output } = usage(reply);
    const jsonTool = (request.body.tools ?? []).some((t: { name: string }) => t.name === 'json');
    type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };
    let content: Block[];
    if ('toolCalls' in reply) content = reply.toolCalls.map((c, i) => ({ type: 'tool_use', id: `toolu_${++counter}_${i}`, name: c.name, input: c.args }));
    else if (jsonTool) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(reply.text);
      } catch {
        parsed = { unparseable: reply.text };
      }
      content = [{ type: 'tool_use', id: `toolu_${++counter}`, name: 'json', input: parsed }];
    } else content = [{ type: 'text', text: reply.text }];
    const stop = content.some((c) => c.type === 'tool_use') ? 'tool_use' : 'end_turn';
    if (!request.body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ id, type: 'message', role: 'assistant', model, content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: input, output_tokens: output } }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(sse('message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: input, output_tokens: 1 } } }));
    res.write(sse('ping', { type: 'ping' }));
    content.forEach((block, index) => {
      if (block.type === 'text') {
        res.write(sse('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
        for (const piece of pieces(block.text)) res.write(sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }));
      } else {
        res.write(sse('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }));
        for (const piece of pieces(JSON.stringify(block.input))) res.write(sse('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } }));
      }
      res.write(sse('content_block_stop', { type: 'content_block_stop', index }));
    });
    res.write(sse('message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: output } }));
    res.end(sse('message_stop', { type: 'message_stop' }));
  }, (status, message) => ({ type: 'error', error: { type: status === 429 ? 'rate_limit_error' : status >= 500 ? 'api_error' : 'invalid_request_error', message } }));
}

/**
 * Google generateContent; `:streamGenerateContent?alt=sse` streams the same response in `data:`
 * chunks (text in pieces, each function call whole, as Gemini sends them), the last one with the
 * finish reason and the usage.
 */
export function startFakeGoogle(): Promise<FakeProvider> {
  return start('/v1beta', (request, reply, res) => {
    if ('streamError' in reply) throw new Error('streamError is scripted for the Anthropic fake only');
    const { input, output } = usage(reply);
    // Gemini 3 signs each function call; the SDK must send the signature back with the call.
    const parts = 'toolCalls' in reply ? reply.toolCalls.map((c) => ({ functionCall: { name: c.name, args: c.args }, thoughtSignature: 'fake-signature' })) : [{ text: reply.text }];
    const usageMetadata = { promptTokenCount: input, candidatesTokenCount: output, totalTokenCount: input + output };
    if (!request.path.includes(':streamGenerateContent')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunks = 'text' in reply ? pieces(reply.text).map((text) => [{ text }]) : parts.map((part) => [part]);
    chunks.forEach((chunkParts, i) => {
      const last = i === chunks.length - 1;
      const candidate = { content: { role: 'model', parts: chunkParts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) };
      res.write(`data: ${JSON.stringify({ candidates: [candidate], ...(last ? { usageMetadata } : {}), modelVersion: request.path.split('/models/')[1]?.split(':')[0] })}\r\n\r\n`);
    });
    res.end();
  }, (status, message) => ({ error: { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : status >= 500 ? 'UNAVAILABLE' : 'INVALID_ARGUMENT' } }));
}

/** A server-sent event as Anthropic names them. */
const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
/** Streamed text arrives in small pieces, so that a test sees more than one delta. */
const pieces = (text: string) => text.match(/.{1,12}/gs) ?? [''];

/** The text of a request's prompt, whichever vendor's shape it has. */
export function promptText(request: FakeRequest): string {
  return JSON.stringify(request.body.messages ?? request.body.contents ?? request.body);
}

/**
 * What the tools answered so far in a conversation, whichever vendor's shape carries it: OpenAI's
 * `tool` messages, Anthropic's `tool_result` blocks, Google's `functionResponse` parts.
 */
export function toolResults(request: FakeRequest): string[] {
  const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  const body = request.body ?? {};
  if (Array.isArray(body.contents)) {
    return body.contents.flatMap((c: { parts?: { functionResponse?: { response?: { content?: unknown } } }[] }) =>
      (c.parts ?? []).flatMap((p) => (p.functionResponse ? [text(p.functionResponse.response?.content)] : [])));
  }
  return (body.messages ?? []).flatMap((m: { role: string; content: unknown }) => {
    if (m.role === 'tool') return [text(m.content)];
    if (m.role === 'user' && Array.isArray(m.content)) return m.content.filter((b: { type?: string }) => b.type === 'tool_result').map((b: { content: unknown }) => text(b.content));
    return [];
  });
}
