/**
 * Fake model providers on loopback, speaking each vendor's wire format (OpenAI chat completions
 * with SSE streaming, Anthropic messages, Google generateContent). A test scripts the answers with
 * `respond` and reads what arrived in `requests`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

export type Reply =
  | { text: string; inputTokens?: number; outputTokens?: number }
  | { toolCalls: { name: string; args: unknown }[]; inputTokens?: number; outputTokens?: number }
  | { status: number; message?: string }
  /** Answers nothing for this long (a timeout). */
  | { hangMs: number };

export interface FakeProvider {
  /** The API root the SDK is given (LLM_<X>_BASE_URL). */
  url: string;
  requests: FakeRequest[];
  respond: (request: FakeRequest) => Reply;
  close(): Promise<void>;
}

type Writer = (request: FakeRequest, reply: Exclude<Reply, { status: number } | { hangMs: number }>, res: ServerResponse) => void;

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
      write(request, reply, res);
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
    if (content !== null) for (const piece of content.match(/.{1,12}/gs) ?? []) send({ content: piece });
    toolCalls?.forEach((call, index) => send({ tool_calls: [{ index, ...call }] }));
    send({}, finish);
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model, choices: [], usage: usageBody })}\n\n`);
    res.end('data: [DONE]\n\n');
  }, (status, message) => ({ error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'invalid_request_error', code: null } }));
}

/** Anthropic messages; a structured answer asked through the `json` tool comes back as that tool's input. */
export function startFakeAnthropic(): Promise<FakeProvider> {
  return start('/v1', (request, reply, res) => {
    const { input, output } = usage(reply);
    const jsonTool = (request.body.tools ?? []).some((t: { name: string }) => t.name === 'json');
    let content: unknown[];
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
    const stop = content.some((c) => (c as { type: string }).type === 'tool_use') ? 'tool_use' : 'end_turn';
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({ id: `msg_${++counter}`, type: 'message', role: 'assistant', model: request.body.model, content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: input, output_tokens: output } }),
    );
  }, (status, message) => ({ type: 'error', error: { type: status === 429 ? 'rate_limit_error' : status >= 500 ? 'api_error' : 'invalid_request_error', message } }));
}

/** Google generateContent. */
export function startFakeGoogle(): Promise<FakeProvider> {
  return start('/v1beta', (_request, reply, res) => {
    const { input, output } = usage(reply);
    const parts = 'toolCalls' in reply ? reply.toolCalls.map((c) => ({ functionCall: { name: c.name, args: c.args } })) : [{ text: reply.text }];
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: input, candidatesTokenCount: output, totalTokenCount: input + output } }),
    );
  }, (status, message) => ({ error: { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'INVALID_ARGUMENT' } }));
}

/** The text of a request's prompt, whichever vendor's shape it has. */
export function promptText(request: FakeRequest): string {
  return JSON.stringify(request.body.messages ?? request.body.contents ?? request.body);
}
