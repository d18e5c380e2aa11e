/**
 * The ordered fallback over a feature's models (the AI SDK has none of its own, and its retries are
 * off so this loop decides): the next model on a 429, a 5xx, a timeout, a network failure or an
 * unparseable answer; never on a 4xx the next model would get too (400, 413, 422: the request
 * itself). A 401, 403 or 404 (this provider's key or model name) moves on only to a model of
 * another provider. Every attempt is logged and stored in `ai_calls` (model, outcome, tokens,
 * milliseconds); prompt and answer only under AI_PROMPT_LOGGING.
 */
import { SpanStatusCode, context, trace, type Span } from '@opentelemetry/api';
import { APICallError, AISDKError, type LanguageModel } from 'ai';
import type { AppContext } from '../context.js';
import { aiCalls } from '../db/schema/index.js';
import { AppError, type ErrorDetail } from '../errors.js';
import { checkBudget } from './budget.js';
import { languageModel, type Candidate } from './providers.js';
import type { AiFeature } from './settings.js';
import { aiTracer, hashedTenant } from './telemetry.js';

export type Outcome = 'ok' | 'rate_limited' | 'server_error' | 'timeout' | 'invalid_output' | 'client_error' | 'network_error';

/** An answer that arrived but is of no use (empty, not the schema): the next model is tried. */
export class InvalidAnswerError extends Error {
  override readonly name = 'InvalidAnswerError';
}

/** Wraps a failure after part of an answer was already streamed to the person: no other model takes over. */
export class StreamedFailure extends Error {
  constructor(readonly original: unknown) {
    super(original instanceof Error ? original.message : String(original));
  }
}

export interface AttemptResult<T> {
  value: T;
  inputTokens: number;
  outputTokens: number;
}

export interface CallScope {
  app: AppContext;
  tenantId: string;
  feature: AiFeature;
  /** Ends the call early (a person left the page); not a model failure. */
  signal?: AbortSignal;
  /** For AI_PROMPT_LOGGING only. */
  prompt?: string;
}

interface Verdict {
  outcome: Outcome;
  status: number | null;
  next: 'any' | 'other-provider' | 'none';
  tokens?: { input: number; output: number };
}

const INVALID_OUTPUT = new Set(['AI_NoObjectGeneratedError', 'AI_JSONParseError', 'AI_TypeValidationError', 'AI_InvalidResponseDataError', 'AI_NoContentGeneratedError', 'AI_NoOutputGeneratedError', 'AI_EmptyResponseBodyError']);

/**
 * The status a provider's error type stands for when it arrives inside a streamed answer (HTTP 200
 * already sent): Anthropic's `error` event (`overloaded_error` is its 529), or an OpenAI-style
 * `{error: {type}}` chunk. The same error as an HTTP status would get the same verdict.
 */
const STREAM_ERROR_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  rate_limit_exceeded: 429,
  api_error: 500,
  server_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

/**
 * An `error` part of a model's stream as a failure `callModels` judges. The SDK hands the vendor's
 * error object through as it came; an unknown one counts as the provider's 500 (it said the answer failed).
 */
export function streamError(error: unknown): unknown {
  if (error instanceof Error) return error;
  const type = typeof error === 'object' && error !== null && 'type' in error ? String((error as { type: unknown }).type) : '';
  return new APICallError({
    message: 'The model\'s stream reported an error',
    url: '',
    requestBodyValues: {},
    statusCode: STREAM_ERROR_STATUS[type] ?? 500,
  });
}

function verdictOf(error: unknown, timedOut: boolean): Verdict | null {
  if (timedOut) return { outcome: 'timeout', status: null, next: 'any' };
  if (error instanceof InvalidAnswerError) return { outcome: 'invalid_output', status: null, next: 'any' };
  if (APICallError.isInstance(error)) {
    const status = error.statusCode ?? null;
    if (status === null) return { outcome: 'network_error', status, next: 'any' };
    if (status === 429) return { outcome: 'rate_limited', status, next: 'any' };
    if (status === 408) return { outcome: 'timeout', status, next: 'any' };
    if (status >= 500) return { outcome: 'server_error', status, next: 'any' };
    // The structured answer failed the provider's own schema check: another model may do better.
    if ([401, 403, 404].includes(status)) return { outcome: 'client_error', status, next: 'other-provider' };
    return { outcome: 'client_error', status, next: 'none' };
  }
  if (AISDKError.isInstance(error) && INVALID_OUTPUT.has(error.name)) {
    const usage = (error as { usage?: { inputTokens?: number; outputTokens?: number } }).usage;
    return { outcome: 'invalid_output', status: null, next: 'any', tokens: { input: usage?.inputTokens ?? 0, output: usage?.outputTokens ?? 0 } };
  }
  if (error instanceof TypeError && /fetch/i.test(error.message)) return { outcome: 'network_error', status: null, next: 'any' };
  return null;
}

/**
 * Runs `attempt` with each model of `chain` in turn until one answers. Throws `unavailable` (503)
 * when no model is configured or none answered, `rate_limited` (429) when the organisation's
 * monthly token budget is spent.
 */
export async function callModels<T>(
  scope: CallScope,
  chain: Candidate[],
  attempt: (model: LanguageModel, signal: AbortSignal, candidate: Candidate) => Promise<AttemptResult<T>>,
): Promise<{ value: T; candidate: Candidate; inputTokens: number; outputTokens: number }> {
  const { app, tenantId, feature } = scope;
  if (chain.length === 0) throw new AppError('unavailable', 'The AI features are off: no model provider is configured (Settings › AI, or AI_MODELS)');
  const failures: string[] = [];
  // Per model, what went wrong in words a person may read (no provider message: it may echo the prompt).
  const reasons: ErrorDetail[] = [];
  for (let index = 0; index < chain.length; index++) {
    const candidate = chain[index] as Candidate;
    await checkBudget(app.database.db, tenantId);
    const timeout = AbortSignal.timeout(app.config.ai.timeoutMs);
    const signal = scope.signal ? AbortSignal.any([timeout, scope.signal]) : timeout;
    const span = (await aiTracer(app.config))?.startSpan('ai.attempt', {
      attributes: { 'ai.feature': feature, 'ai.model.provider': candidate.provider, 'ai.model.id': candidate.model, 'ai.tenant': hashedTenant(app.config, tenantId), 'ai.attempt': index + 1 },
    });
    const started = performance.now();
    try {
      const result = await withSpan(span, async () => attempt(await languageModel(candidate), signal, candidate));
      await record(scope, candidate, { outcome: 'ok', status: null, next: 'none', tokens: { input: result.inputTokens, output: result.outputTokens } }, started, span);
      if (app.config.ai.promptLogging) app.log.info({ ai: { feature, model: candidate.model }, prompt: scope.prompt, response: result.value }, 'AI prompt and response (AI_PROMPT_LOGGING)');
      return { value: result.value, candidate, inputTokens: result.inputTokens, outputTokens: result.outputTokens };
    } catch (error) {
      if (scope.signal?.aborted) {
        span?.end();
        throw new AppError('unavailable', 'The request was cancelled');
      }
      const streamed = error instanceof StreamedFailure;
      const known = verdictOf(streamed ? error.original : error, timeout.aborted);
      if (!known && !streamed) {
        // Not the model's failure (a budget refusal, a bug of ours): no other model would help.
        span?.end();
        throw error;
      }
      const verdict = known ?? { outcome: 'network_error' as const, status: null, next: 'none' as const };
      await record(scope, candidate, verdict, started, span, error);
      failures.push(`${candidate.model}: ${verdict.outcome}${verdict.status ? ` ${verdict.status}` : ''}`);
      reasons.push({ path: candidate.model, message: OUTCOME_WORDS[verdict.outcome](verdict.status) });
      const next = chain[index + 1];
      const moveOn = !streamed && next !== undefined && (verdict.next === 'any' || (verdict.next === 'other-provider' && next.provider !== candidate.provider));
      if (!moveOn) break;
    }
  }
  throw new AppError('unavailable', `No model answered (${failures.join('; ')})`, reasons);
}

const http = (status: number | null) => (status ? ` (HTTP ${status})` : '');

/** A failed attempt's outcome as a clause about the model ("gpt-a: its answer could not be read"). */
const OUTCOME_WORDS: Record<Outcome,  (status: number | null) => string> = {
  ok: () => 'answered',
  invalid_output: () => 'its answer could not be read (not the expected form)',
  client_error: (status) => `the provider refused the request${http(status)}`,
  rate_limited: (status) => `the provider's rate limit was reached${http(status)}`,
  server_error: (status) => `the provider failed${http(status)}`,
  timeout: () => 'no answer in time',
  network_error: () => 'the provider could not be reached',
};

function withSpan<T>(span: Span | undefined, work: () => Promise<T>): Promise<T> {
  return span ? context.with(trace.setSpan(context.active(), span), work) : work();
}

async function record(scope: CallScope, candidate: Candidate, verdict: Verdict, started: number, span: Span | undefined, error?: unknown): Promise<void> {
  const ms = Math.round(performance.now() - started);
  const input = verdict.tokens?.input ?? 0;
  const output = verdict.tokens?.output ?? 0;
  if (span) {
    span.setAttributes({ 'ai.outcome': verdict.outcome, 'ai.duration_ms': ms, 'gen_ai.usage.input_tokens': input, 'gen_ai.usage.output_tokens': output, ...(verdict.status ? { 'http.status_code': verdict.status } : {}) });
    span.setStatus(verdict.outcome === 'ok' ? { code: SpanStatusCode.OK } : { code: SpanStatusCode.ERROR, message: verdict.outcome });
    span.end();
  }
  // Never the error's message: a provider may echo the prompt in it.
  scope.app.log.info(
    { ai: { feature: scope.feature, tenantId: scope.tenantId, provider: candidate.provider, model: candidate.model, source: candidate.source, outcome: verdict.outcome, status: verdict.status, inputTokens: input, outputTokens: output, ms }, ...(error ? { errorName: (error as Error).name } : {}) },
    'AI model call',
  );
  await scope.app.database.db.insert(aiCalls).values({
    tenantId: scope.tenantId,
    feature: scope.feature,
    provider: candidate.provider,
    model: candidate.model,
    outcome: verdict.outcome,
    status: verdict.status,
    inputTokens: input,
    outputTokens: output,
    durationMs: ms,
  });
}
