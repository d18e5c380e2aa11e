/**
 * One language model of the Vercel AI SDK per candidate: providers A–C are OpenAI (chat
 * completions), Anthropic and Google; D is any OpenAI-compatible endpoint (a vendor or a local
 * model server). A base URL replaces the vendor's API root (`…/v1`, `…/v1beta`).
 */
import type { LanguageModel } from 'ai';
import type { AiProvider } from '../config/index.js';

/** A model to try, with the credentials it is called with. */
export interface Candidate {
  provider: AiProvider;
  model: string;
  apiKey: string;
  baseUrl: string | null;
  /** Whose choice it is: the organisation's (Settings › AI) or the environment's. */
  source: 'organisation' | 'environment';
}

/** OpenAI's own API root, where LLM_D_BASE_URL is unset. */
const OPENAI_ROOT = 'https://api.openai.com/v1';

/**
 * Each provider's package loads at its first call, not at start: the four are about a second of
 * CPU to import, and an organisation uses one or two (docs/architecture.md, "Vendor SDKs load when
 * first used").
 */
export async function languageModel(candidate: Candidate): Promise<LanguageModel> {
  const { apiKey, model } = candidate;
  const baseURL = candidate.baseUrl ?? undefined;
  switch (candidate.provider) {
    case 'openai':
      return (await import('@ai-sdk/openai')).createOpenAI({ apiKey, baseURL }).chat(model);
    case 'anthropic':
      return (await import('@ai-sdk/anthropic')).createAnthropic({ apiKey, baseURL })(model);
    case 'google':
      return (await import('@ai-sdk/google')).createGoogleGenerativeAI({ apiKey, baseURL })(model);
    case 'compatible':
      return (await import('@ai-sdk/openai-compatible')).createOpenAICompatible({ name: 'compatible', apiKey, baseURL: baseURL ?? OPENAI_ROOT, includeUsage: true }).chatModel(model);
  }
}
