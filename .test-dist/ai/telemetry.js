import { createHmac } from "node:crypto";
import { LangfuseSpanProcessor } from "@langfuse/otel";
import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { derive } from "../oauth/crypto.js";
const runtimes = /* @__PURE__ */ new WeakMap();
let contextManager = null;
function runtimeOf(config) {
  const obs = config.llmObservability;
  if (!obs) return null;
  let runtime = runtimes.get(obs);
  if (!runtime) {
    if (!contextManager) {
      contextManager = new AsyncLocalStorageContextManager().enable();
      context.setGlobalContextManager(contextManager);
    }
    const processor = new LangfuseSpanProcessor({
      publicKey: obs.publicKey,
      secretKey: obs.secretKey,
      ...obs.baseUrl ? { baseUrl: obs.baseUrl.replace(/\/+$/, "") } : {},
      environment: config.nodeEnv,
      ...config.releaseVersion !== "dev" ? { release: config.releaseVersion } : {},
      mediaUploadEnabled: false,
      flushInterval: 2,
      // Our own attempt spans and the AI SDK's spans, nothing else.
      shouldExportSpan: ({ otelSpan }) => otelSpan.name.startsWith("ai.")
    });
    const provider = new BasicTracerProvider({ spanProcessors: [processor] });
    runtime = { provider, tracer: provider.getTracer("delivery-analytics") };
    runtimes.set(obs, runtime);
  }
  return runtime;
}
function aiTracer(config) {
  return runtimeOf(config)?.tracer ?? null;
}
function hashedTenant(config, tenantId) {
  return createHmac("sha256", derive(config.oauthEncryptionKey, "llmobs-tenant")).update(tenantId).digest("hex").slice(0, 32);
}
function telemetrySettings(config, feature, tenantId) {
  const tracer = aiTracer(config);
  if (!tracer) return { isEnabled: false };
  const record = config.llmObservability?.recordContent ?? false;
  return {
    isEnabled: true,
    tracer,
    functionId: `ai.${feature}`,
    recordInputs: record,
    recordOutputs: record,
    metadata: { tenant: hashedTenant(config, tenantId), feature }
  };
}
async function flushTelemetry(config) {
  await runtimeOf(config)?.provider.forceFlush().catch(() => void 0);
}
export {
  aiTracer,
  flushTelemetry,
  hashedTenant,
  telemetrySettings
};
