import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until as waitUntil } from '../helpers/until.js';
import pg from 'pg';
import type { Env } from '../../src/config/index.js';
import type { Logger } from '../../src/log.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { startFakeAnthropic, startFakeGoogle, startFakeOpenAI, type FakeProvider, type FakeRequest, type Reply } from './fakes/server.js';

export interface Fakes {
  a: FakeProvider;
  b: FakeProvider;
  c: FakeProvider;
  d: FakeProvider;
  close(): Promise<void>;
}

export async function startFakes(): Promise<Fakes> {
  const [a, b, c, d] = await Promise.all([startFakeOpenAI(), startFakeAnthropic(), startFakeGoogle(), startFakeOpenAI()]);
  return { a, b, c, d, close: async () => void (await Promise.all([a, b, c, d].map((f) => f.close()))) };
}

/** Providers A, B and C tried in that order for the session reviews; D (compatible) for the notebook. */
export function aiEnv(fakes: Fakes, extra: Env = {}): Env {
  return {
    LOCAL_OBJECT_STORE_DIR: mkdtempSync(join(tmpdir(), 'ai-objects-')),
    AI_MODELS: 'openai:gpt-a,anthropic:claude-b,google:gemini-c,compatible:local-d',
    LLM_A_API_KEY: 'env-key-a',
    LLM_A_BASE_URL: fakes.a.url,
    LLM_B_API_KEY: 'env-key-b',
    LLM_B_BASE_URL: fakes.b.url,
    LLM_C_API_KEY: 'env-key-c',
    LLM_C_BASE_URL: fakes.c.url,
    LLM_D_API_KEY: 'env-key-d',
    LLM_D_BASE_URL: fakes.d.url,
    // Long enough for a first cube query of a new server on a loaded machine (a notebook's tool
    // runs inside the model's attempt): 3 s failed two notebook tests at load 14. The tests of
    // the timeout itself set their own.
    AI_TIMEOUT_SECONDS: '60',
    JOBS_POLL_INTERVAL_MS: '200',
    ...extra,
  };
}

/**
 * A suite's four fake providers, a server on them (aiEnv) and a pool on its database, started before
 * its tests and closed after them; before each test every fake forgets its requests and answers
 * with `respond()` again. Read `.fakes`, `.api` and `.pool` inside the tests.
 */
export function aiServerSuite(respond: () => (request: FakeRequest) => Reply, options: { logger?: Logger; env?: Env } = {}): { fakes: Fakes; api: TestServer; pool: pg.Pool } {
  const suite = {} as { fakes: Fakes; api: TestServer; pool: pg.Pool };
  before(async () => {
    suite.fakes = await startFakes();
    suite.api = await testServer({ env: aiEnv(suite.fakes, options.env), logger: options.logger });
    suite.pool = new pg.Pool({ connectionString: suite.api.databaseUrl, max: 2 });
  });
  after(async () => {
    await suite.api?.close();
    await suite.pool?.end();
    await suite.fakes?.close();
  });
  beforeEach(() => {
    for (const fake of [suite.fakes.a, suite.fakes.b, suite.fakes.c, suite.fakes.d]) {
      fake.requests.length = 0;
      fake.respond = respond();
    }
  });
  return suite;
}

export const isAssessment = (request: FakeRequest) => JSON.stringify(request.body).includes('assess an AI coding session');

export const GOOD_ASSESSMENT = { taskCompleted: true, testsRun: true, reworkNeeded: false, riskyActions: false, rationale: 'Tests pass.' };

export const SECRET_LINE = 'TRANSCRIPT-SECRET-7f3a: the password is hunter2';

/** A session upload with a transcript that holds a line no trace or log may carry. */
export function sessionBody(extra: Record<string, unknown> = {}) {
  return {
    tool: 'claude-code',
    startedAt: '2026-03-10T09:00:00Z',
    endedAt: '2026-03-10T09:30:00Z',
    transcript: [
      { type: 'user', message: { role: 'user', content: `Fix the failing login test. ${SECRET_LINE}` } },
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'I ran npm test and fixed src/login.ts.' }] } },
    ],
    ...extra,
  };
}

/** test/helpers/until.ts with the AI tests' longer bound (a model call and a job in between). */
export function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
  return waitUntil(what, probe, { timeoutMs, everyMs: 100 }) as Promise<T>;
}
