/** The AI features (docs/ai.md) and LLM observability (Langfuse over OpenTelemetry). */
import { parseHttpUrl, type Reader } from './reader.js';
import { trimEnd } from '../shared/text.js';

export const AI_PROVIDERS = ['openai', 'anthropic', 'google', 'compatible'] as const;
export type AiProvider = (typeof AI_PROVIDERS)[number];
export interface AiModelRef {
  provider: AiProvider;
  model: string;
}
/** Which LLM_<X> group holds each provider's key and base URL. */
export const AI_PROVIDER_GROUP = { openai: 'llmA', anthropic: 'llmB', google: 'llmC', compatible: 'llmD' } as const;

type PerGroup = { llmA: string | null; llmB: string | null; llmC: string | null; llmD: string | null };

/** Providers A–C are openai, anthropic, google; D (compatible) serves the notebook only. */
export interface AiConfig {
  provider: AiProvider | null;
  /** AI_MODELS, in the order they are tried; an entry without a `provider:` prefix is AI_PROVIDER's. */
  models: AiModelRef[];
  keys: PerGroup;
  /** LLM_A_BASE_URL … LLM_D_BASE_URL: gateways, self-hosted model servers, tests. */
  baseUrls: PerGroup;
  promptLogging: boolean;
  /** AI_TIMEOUT_SECONDS: one model call longer than this counts as failed and the next model is tried. */
  timeoutMs: number;
}

/** `recordContent` (LLMOBS_RECORD_CONTENT) lets prompts and answers go along. */
export type LlmObservabilityConfig = { publicKey: string; secretKey: string; baseUrl: string | null; recordContent: boolean } | null;

/**
 * The AI group. Each LLM_<X> key with its optional base URL is one group (a base URL without its
 * key is partial). AI_MODELS entries are `provider:model` or, with AI_PROVIDER set, a bare model
 * name; every provider an entry names must have its key, so a typo stops the boot instead of
 * switching a feature off in silence. AI_PROMPT_LOGGING is refused in production.
 */
export function parseAi(r: Reader, production: boolean): AiConfig {
  const promptLogging = r.boolean('AI_PROMPT_LOGGING', false);
  if (promptLogging && production) r.problems.push('AI_PROMPT_LOGGING is refused when NODE_ENV is production');
  const letters = { llmA: 'A', llmB: 'B', llmC: 'C', llmD: 'D' } as const;
  const keys: PerGroup = { llmA: null, llmB: null, llmC: null, llmD: null };
  const baseUrls: PerGroup = { llmA: null, llmB: null, llmC: null, llmD: null };
  for (const [group, letter] of Object.entries(letters) as [keyof typeof letters, string][]) {
    const found = r.group(`LLM_${letter} group (LLM_${letter}_API_KEY)`, [`LLM_${letter}_API_KEY`], [`LLM_${letter}_BASE_URL`]);
    const url = parseHttpUrl(r, `LLM_${letter}_BASE_URL`, r.get(`LLM_${letter}_BASE_URL`));
    if (url && production && url.protocol !== 'https:' && !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
      r.problems.push(`LLM_${letter}_BASE_URL must use https when NODE_ENV is production (a model server on loopback may use http)`);
    }
    keys[group] = found ? (found[`LLM_${letter}_API_KEY`] as string) : null;
    baseUrls[group] = found && url ? trimEnd(url.href, '/') : null;
  }
  const providerRaw = r.get('AI_PROVIDER');
  const isProvider = (name: string): name is AiProvider => (AI_PROVIDERS as readonly string[]).includes(name);
  let provider: AiProvider | null = null;
  if (providerRaw !== null) {
    if (isProvider(providerRaw)) provider = providerRaw;
    else r.problems.push(`AI_PROVIDER must be one of ${AI_PROVIDERS.join(', ')}`);
  }
  const models: AiModelRef[] = [];
  for (const entry of (r.get('AI_MODELS') ?? '').split(',').map((m) => m.trim()).filter(Boolean)) {
    // A model name may itself hold a colon (llama3:8b): only a known provider counts as a prefix.
    const colon = entry.indexOf(':');
    const prefix = colon > 0 ? entry.slice(0, colon) : '';
    const ref = isProvider(prefix) ? { provider: prefix, model: entry.slice(colon + 1) } : provider ? { provider, model: entry } : null;
    if (!ref || ref.model === '') {
      r.problems.push(`AI_MODELS entry ${entry} names no provider: write ${AI_PROVIDERS.join(':, ')}: before it, or set AI_PROVIDER`);
      continue;
    }
    const group = AI_PROVIDER_GROUP[ref.provider];
    if (providerRaw !== null && provider === null) continue;
    if (keys[group] === null) r.problems.push(`AI_MODELS names ${ref.provider} (${entry}) but LLM_${letters[group]}_API_KEY is not set`);
    models.push(ref);
  }
  if (provider !== null && models.length === 0) r.problems.push('AI_PROVIDER is set but AI_MODELS names no model');
  return { provider, models, keys, baseUrls, promptLogging, timeoutMs: r.integer('AI_TIMEOUT_SECONDS', 60, 1, 3600) * 1000 };
}

/** LLMOBS_ENABLED switches the group on; both keys are then required, the base URL stays optional. */
export function parseLlmObservability(r: Reader): LlmObservabilityConfig {
  if (!r.boolean('LLMOBS_ENABLED', false)) return null;
  const keys = r.enabledGroup('LLM observability group (LLMOBS_ENABLED)', ['LLMOBS_PUBLIC_KEY', 'LLMOBS_SECRET_KEY']);
  const baseUrl = parseHttpUrl(r, 'LLMOBS_BASE_URL', r.get('LLMOBS_BASE_URL'));
  const recordContent = r.boolean('LLMOBS_RECORD_CONTENT', false);
  if (!keys) return null;
  return { publicKey: keys.LLMOBS_PUBLIC_KEY as string, secretKey: keys.LLMOBS_SECRET_KEY as string, baseUrl: baseUrl ? baseUrl.toString() : null, recordContent };
}
