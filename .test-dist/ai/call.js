import { SpanStatusCode, context, trace } from "@opentelemetry/api";
import { APICallError, AISDKError } from "ai";
import { aiCalls } from "../db/schema/index.js";
import { AppError } from "../errors.js";
import { checkBudget } from "./budget.js";
import { languageModel } from "./providers.js";
import { aiTracer, hashedTenant } from "./telemetry.js";
class InvalidAnswerError extends Error {
  name = "InvalidAnswerError";
}
class StreamedFailure extends Error {
  constructor(original) {
    super(original instanceof Error ? original.message : String(original));
    this.original = original;
  }
  original;
}
const INVALID_OUTPUT = /* @__PURE__ */ new Set(["AI_NoObjectGeneratedError", "AI_JSONParseError", "AI_TypeValidationError", "AI_InvalidResponseDataError", "AI_NoContentGeneratedError", "AI_NoOutputGeneratedError", "AI_EmptyResponseBodyError"]);
const STREAM_ERROR_STATUS = {
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
  overloaded_error: 529
};
function streamError(error) {
  if (error instanceof Error) return error;
  const type = typeof error === "object" && error !== null && "type" in error ? String(error.type) : "";
  return new APICallError({
    message: "The model's stream reported an error",
    url: "",
    requestBodyValues: {},
    statusCode: STREAM_ERROR_STATUS[type] ?? 500
  });
}
function verdictOf(error, timedOut) {
  if (timedOut) return { outcome: "timeout", status: null, next: "any" };
  if (error instanceof InvalidAnswerError) return { outcome: "invalid_output", status: null, next: "any" };
  if (APICallError.isInstance(error)) {
    const status = error.statusCode ?? null;
    if (status === null) return { outcome: "network_error", status, next: "any" };
    if (status === 429) return { outcome: "rate_limited", status, next: "any" };
    if (status === 408) return { outcome: "timeout", status, next: "any" };
    if (status >= 500) return { outcome: "server_error", status, next: "any" };
    if ([401, 403, 404].includes(status)) return { outcome: "client_error", status, next: "other-provider" };
    return { outcome: "client_error", status, next: "none" };
  }
  if (AISDKError.isInstance(error) && INVALID_OUTPUT.has(error.name)) {
    const usage = error.usage;
    return { outcome: "invalid_output", status: null, next: "any", tokens: { input: usage?.inputTokens ?? 0, output: usage?.outputTokens ?? 0 } };
  }
  if (error instanceof TypeError && /fetch/i.test(error.message)) return { outcome: "network_error", status: null, next: "any" };
  return null;
}
async function callModels(scope, chain, attempt) {
  const { app, tenantId, feature } = scope;
  if (chain.length === 0) throw new AppError("unavailable", "The AI features are off: no model provider is configured (Settings \u203A AI, or AI_MODELS)");
  const failures = [];
  const reasons = [];
  for (let index = 0; index < chain.length; index++) {
    const candidate = chain[index];
    await checkBudget(app.database.db, tenantId);
    const timeout = AbortSignal.timeout(app.config.ai.timeoutMs);
    const signal = scope.signal ? AbortSignal.any([timeout, scope.signal]) : timeout;
    const span = aiTracer(app.config)?.startSpan("ai.attempt", {
      attributes: { "ai.feature": feature, "ai.model.provider": candidate.provider, "ai.model.id": candidate.model, "ai.tenant": hashedTenant(app.config, tenantId), "ai.attempt": index + 1 }
    });
    const started = performance.now();
    try {
      const result = await withSpan(span, () => attempt(languageModel(candidate), signal, candidate));
      await record(scope, candidate, { outcome: "ok", status: null, next: "none", tokens: { input: result.inputTokens, output: result.outputTokens } }, started, span);
      if (app.config.ai.promptLogging) app.log.info({ ai: { feature, model: candidate.model }, prompt: scope.prompt, response: result.value }, "AI prompt and response (AI_PROMPT_LOGGING)");
      return { value: result.value, candidate, inputTokens: result.inputTokens, outputTokens: result.outputTokens };
    } catch (error) {
      if (scope.signal?.aborted) {
        span?.end();
        throw new AppError("unavailable", "The request was cancelled");
      }
      const streamed = error instanceof StreamedFailure;
      const known = verdictOf(streamed ? error.original : error, timeout.aborted);
      if (!known && !streamed) {
        span?.end();
        throw error;
      }
      const verdict = known ?? { outcome: "network_error", status: null, next: "none" };
      await record(scope, candidate, verdict, started, span, error);
      failures.push(`${candidate.model}: ${verdict.outcome}${verdict.status ? ` ${verdict.status}` : ""}`);
      reasons.push({ path: candidate.model, message: OUTCOME_WORDS[verdict.outcome](verdict.status) });
      const next = chain[index + 1];
      const moveOn = !streamed && next !== void 0 && (verdict.next === "any" || verdict.next === "other-provider" && next.provider !== candidate.provider);
      if (!moveOn) break;
    }
  }
  throw new AppError("unavailable", `No model answered (${failures.join("; ")})`, reasons);
}
const http = (status) => status ? ` (HTTP ${status})` : "";
const OUTCOME_WORDS = {
  ok: () => "answered",
  invalid_output: () => "its answer could not be read (not the expected form)",
  client_error: (status) => `the provider refused the request${http(status)}`,
  rate_limited: (status) => `the provider's rate limit was reached${http(status)}`,
  server_error: (status) => `the provider failed${http(status)}`,
  timeout: () => "no answer in time",
  network_error: () => "the provider could not be reached"
};
function withSpan(span, work) {
  return span ? context.with(trace.setSpan(context.active(), span), work) : work();
}
async function record(scope, candidate, verdict, started, span, error) {
  const ms = Math.round(performance.now() - started);
  const input = verdict.tokens?.input ?? 0;
  const output = verdict.tokens?.output ?? 0;
  if (span) {
    span.setAttributes({ "ai.outcome": verdict.outcome, "ai.duration_ms": ms, "gen_ai.usage.input_tokens": input, "gen_ai.usage.output_tokens": output, ...verdict.status ? { "http.status_code": verdict.status } : {} });
    span.setStatus(verdict.outcome === "ok" ? { code: SpanStatusCode.OK } : { code: SpanStatusCode.ERROR, message: verdict.outcome });
    span.end();
  }
  scope.app.log.info(
    { ai: { feature: scope.feature, tenantId: scope.tenantId, provider: candidate.provider, model: candidate.model, source: candidate.source, outcome: verdict.outcome, status: verdict.status, inputTokens: input, outputTokens: output, ms }, ...error ? { errorName: error.name } : {} },
    "AI model call"
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
    durationMs: ms
  });
}
export {
  InvalidAnswerError,
  StreamedFailure,
  callModels,
  streamError
};
