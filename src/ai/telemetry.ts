/**
 * LLM observability (LLMOBS_ENABLED): Langfuse through its OpenTelemetry span processor, on a
 * tracer provider of our own (not the global one), so only model calls are traced. The processor
 * batches and exports in the background: an unreachable endpoint costs a failed export, never a
 * request. Prompts and answers go along only with LLMOBS_RECORD_CONTENT (transcripts hold code and
 * personal data); the tenant travels as an HMAC of its id.
 */
import { createHmac } from 'node:crypto';
import { context, type Tracer } from '@opentelemetry/api';
import type { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import type { Config } from '../config/index.js';
import { derive } from '../auth/crypto.js';
import { trimEnd } from '../shared/text.js';

interface Runtime {
  provider: BasicTracerProvider;
  tracer: Tracer;
}

const runtimes = new WeakMap<object, Runtime>();
let contextManager: AsyncLocalStorageContextManager | null = null;

/**
 * Langfuse's processor and OpenTelemetry's SDK load with the first traced call, and only where
 * LLMOBS_ENABLED: they are 0.4 s of CPU to import on every start otherwise (docs/architecture.md,
 * "Vendor SDKs load when first used").
 */
const sdk = () => Promise.all([import('@langfuse/otel'), import('@opentelemetry/context-async-hooks'), import('@opentelemetry/sdk-trace-base')]);

async function runtimeOf(config: Config): Promise<Runtime | null> {
  const obs = config.llmObservability;
  if (!obs) return null;
  let runtime = runtimes.get(obs);
  if (!runtime) {
    const [{ LangfuseSpanProcessor }, { AsyncLocalStorageContextManager }, { BasicTracerProvider }] = await sdk();
    // Two first calls at once both loaded: the first to get here makes the runtime.
    const made = runtimes.get(obs);
    if (made) return made;
    // Parent and child spans (a call, its attempts, the SDK's own spans) find each other through the active context.
    if (!contextManager) {
      contextManager = new AsyncLocalStorageContextManager().enable();
      context.setGlobalContextManager(contextManager);
    }
    const processor = new LangfuseSpanProcessor({
      publicKey: obs.publicKey,
      secretKey: obs.secretKey,
      ...(obs.baseUrl ? { baseUrl: trimEnd(obs.baseUrl, '/') } : {}),
      environment: config.nodeEnv,
      ...(config.releaseVersion !== 'dev' ? { release: config.releaseVersion } : {}),
      mediaUploadEnabled: false,
      flushInterval: 2,
      // Our own attempt spans and the AI SDK's spans, nothing else.
      shouldExportSpan: ({ otelSpan }) => otelSpan.name.startsWith('ai.'),
    });
    const provider = new BasicTracerProvider({ spanProcessors: [processor] });
    runtime = { provider, tracer: provider.getTracer('delivery-analytics') };
    runtimes.set(obs, runtime);
  }
  return runtime;
}

export async function aiTracer(config: Config): Promise<Tracer | null> {
  return (await runtimeOf(config))?.tracer ?? null;
}

/** The tenant as the traces show it: stable per tenant, not reversible without OAUTH_ENCRYPTION_KEY. */
export function hashedTenant(config: Config, tenantId: string): string {
  return createHmac('sha256', derive(config.oauthEncryptionKey, 'llmobs-tenant')).update(tenantId).digest('hex').slice(0, 32);
}

/** The AI SDK's `experimental_telemetry` for one call. */
export async function telemetrySettings(config: Config, feature: string, tenantId: string) {
  const tracer = await aiTracer(config);
  if (!tracer) return { isEnabled: false };
  const record = config.llmObservability?.recordContent ?? false;
  return {
    isEnabled: true,
    tracer,
    functionId: `ai.${feature}`,
    recordInputs: record,
    recordOutputs: record,
    metadata: { tenant: hashedTenant(config, tenantId), feature },
  };
}

/** Sends what is buffered (tests, and a draining instance); never throws. */
export async function flushTelemetry(config: Config): Promise<void> {
  // Nothing is buffered before the first traced call made the runtime.
  const obs = config.llmObservability;
  await (obs ? runtimes.get(obs) : undefined)?.provider.forceFlush().catch(() => undefined);
}
