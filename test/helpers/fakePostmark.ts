/**
 * A local server speaking Postmark's send API (`POST /email`, header `X-Postmark-Server-Token`),
 * enough to test our mailer end to end: it checks the token and the JSON message, answers like
 * Postmark (200 with ErrorCode 0, 401 for a bad token, 422 for an invalid message) and keeps every
 * accepted message, and every attempt with the status it was answered (so a test can wait for a
 * refused send instead of sleeping).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { until } from './until.js';

export interface PostmarkMessage {
  From: string;
  To: string;
  Subject: string;
  TextBody: string;
  HtmlBody: string;
  MessageStream?: string;
}

/** One `POST /email` as received: its recipient (when the body parsed) and the status answered. */
export interface PostmarkAttempt {
  to: string | null;
  status: number;
}

export interface FakePostmark {
  url: string;
  token: string;
  messages: PostmarkMessage[];
  attempts: PostmarkAttempt[];
  /** Answer every request with this status and Postmark error code instead (null: behave). */
  failWith: { status: number; errorCode: number } | null;
  /** Waits until a message to `to` arrives (the mail is sent after the HTTP answer). */
  waitFor(to: string, timeoutMs?: number): Promise<PostmarkMessage>;
  /** Waits until a send to `to` was attempted, accepted or not. */
  waitForAttempt(to: string, timeoutMs?: number): Promise<PostmarkAttempt>;
  close(): Promise<void>;
}

export async function fakePostmark(token = 'postmark-test-token'): Promise<FakePostmark> {
  const fake = { token, messages: [] as PostmarkMessage[], attempts: [] as PostmarkAttempt[], failWith: null } as unknown as FakePostmark;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const reply = (status: number, body: unknown) => {
        if (req.url === '/email') fake.attempts.push({ to: recipientOf(raw), status });
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || req.url !== '/email') return reply(404, { ErrorCode: 404, Message: 'Not found' });
      if (req.headers['x-postmark-server-token'] !== fake.token) return reply(401, { ErrorCode: 10, Message: 'Bad or missing API token' });
      if (!String(req.headers['content-type']).startsWith('application/json')) return reply(415, { ErrorCode: 409, Message: 'JSON required' });
      if (fake.failWith) return reply(fake.failWith.status, { ErrorCode: fake.failWith.errorCode, Message: 'Simulated failure' });
      let message: PostmarkMessage;
      try {
        message = JSON.parse(raw);
      } catch {
        return reply(422, { ErrorCode: 402, Message: 'Invalid JSON' });
      }
      if (!message.From || !message.To || !message.Subject || !(message.TextBody || message.HtmlBody)) {
        return reply(422, { ErrorCode: 300, Message: 'Invalid email request' });
      }
      fake.messages.push(message);
      reply(200, { To: message.To, SubmittedAt: new Date().toISOString(), MessageID: `fake-${fake.messages.length}`, ErrorCode: 0, Message: 'OK' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const waitUntil = <T>(find: () => T | undefined, what: string, timeoutMs: number): Promise<T> => until(what, find, { timeoutMs, everyMs: 20 }) as Promise<T>;
  fake.waitFor = (to, timeoutMs = 5000) => waitUntil(() => fake.messages.find((m) => m.To === to), `no e-mail to ${to}`, timeoutMs);
  fake.waitForAttempt = (to, timeoutMs = 5000) => waitUntil(() => fake.attempts.find((a) => a.to === to), `no attempt to send to ${to}`, timeoutMs);
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}

function recipientOf(raw: string): string | null {
  try {
    const to = (JSON.parse(raw) as { To?: unknown }).To;
    return typeof to === 'string' ? to : null;
  } catch {
    return null;
  }
}
