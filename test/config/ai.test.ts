/** The AI group and LLM observability (src/config/ai.ts). */
import { expect } from 'chai';
import { parseAi, parseLlmObservability } from '../../src/config/ai.js';
import { loadConfig } from '../../src/config/index.js';
import { parse, problems, VALID } from './helpers.js';

describe('configuration: AI', () => {
  it('off by default: no provider, no model, no key, a 60 s timeout', () => {
    expect(parse({}, (r) => parseAi(r, false))).to.deep.equal({
      value: {
        provider: null, models: [], keys: { llmA: null, llmB: null, llmC: null, llmD: null }, baseUrls: { llmA: null, llmB: null, llmC: null, llmD: null },
        promptLogging: false, timeoutMs: 60_000,
      },
      problems: [],
    });
  });

  it('AI_MODELS entries name their provider (or AI_PROVIDER\'s), whose key must be set; a base URL belongs to its key', () => {
    expect(problems({ ...VALID, AI_MODELS: 'openai:gpt-a,llama3:8b', LLM_A_BASE_URL: 'http://127.0.0.1:1/v1' })).to.deep.equal([
      'LLM_A group (LLM_A_API_KEY) is partially configured: missing LLM_A_API_KEY (set: LLM_A_BASE_URL)',
      'AI_MODELS names openai (openai:gpt-a) but LLM_A_API_KEY is not set',
      'AI_MODELS entry llama3:8b names no provider: write openai:, anthropic:, google:, compatible: before it, or set AI_PROVIDER',
    ]);
    const config = loadConfig({ ...VALID, AI_PROVIDER: 'compatible', AI_MODELS: 'llama3:8b,anthropic:claude-b', LLM_B_API_KEY: 'b', LLM_D_API_KEY: 'd' });
    expect(config.ai.models).to.deep.equal([{ provider: 'compatible', model: 'llama3:8b' }, { provider: 'anthropic', model: 'claude-b' }]);
    expect(config.ai.timeoutMs).to.equal(60_000);
  });

  it('production: prompt logging is refused, and a plain-http model server only on loopback', () => {
    const env = { AI_PROMPT_LOGGING: 'true', LLM_A_API_KEY: 'a', LLM_A_BASE_URL: 'http://models.internal/v1', LLM_D_API_KEY: 'd', LLM_D_BASE_URL: 'http://127.0.0.1:11434/v1/' };
    const { value, problems: found } = parse(env, (r) => parseAi(r, true));
    expect(found).to.deep.equal([
      'AI_PROMPT_LOGGING is refused when NODE_ENV is production',
      'LLM_A_BASE_URL must use https when NODE_ENV is production (a model server on loopback may use http)',
    ]);
    expect(value.baseUrls.llmD).to.equal('http://127.0.0.1:11434/v1');
    expect(parse({ AI_PROVIDER: 'openai' }, (r) => parseAi(r, false)).problems).to.deep.equal(['AI_PROVIDER is set but AI_MODELS names no model']);
  });

  it('LLM observability: the flag requires both keys; the base URL is optional', () => {
    expect(parse({ LLMOBS_PUBLIC_KEY: 'p', LLMOBS_SECRET_KEY: 's' }, parseLlmObservability)).to.deep.equal({ value: null, problems: [] });
    expect(problems({ ...VALID, LLMOBS_ENABLED: 'true', LLMOBS_PUBLIC_KEY: 'p' })).to.deep.equal([
      'LLM observability group (LLMOBS_ENABLED) is partially configured: missing LLMOBS_SECRET_KEY',
    ]);
    expect(loadConfig({ ...VALID, LLMOBS_ENABLED: 'true', LLMOBS_PUBLIC_KEY: 'p', LLMOBS_SECRET_KEY: 's' }).llmObservability)
      .to.deep.equal({ publicKey: 'p', secretKey: 's', baseUrl: null, recordContent: false });
  });
});
