import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
const OPENAI_ROOT = "https://api.openai.com/v1";
function languageModel(candidate) {
  const { apiKey, model } = candidate;
  const baseURL = candidate.baseUrl ?? void 0;
  switch (candidate.provider) {
    case "openai":
      return createOpenAI({ apiKey, baseURL }).chat(model);
    case "anthropic":
      return createAnthropic({ apiKey, baseURL })(model);
    case "google":
      return createGoogleGenerativeAI({ apiKey, baseURL })(model);
    case "compatible":
      return createOpenAICompatible({ name: "compatible", apiKey, baseURL: baseURL ?? OPENAI_ROOT, includeUsage: true }).chatModel(model);
  }
}
export {
  languageModel
};
