import { parseHttpUrl } from "./reader.js";
const AI_PROVIDERS = ["openai", "anthropic", "google", "compatible"];
const AI_PROVIDER_GROUP = { openai: "llmA", anthropic: "llmB", google: "llmC", compatible: "llmD" };
function parseAi(r, production) {
  const promptLogging = r.boolean("AI_PROMPT_LOGGING", false);
  if (promptLogging && production) r.problems.push("AI_PROMPT_LOGGING is refused when NODE_ENV is production");
  const letters = { llmA: "A", llmB: "B", llmC: "C", llmD: "D" };
  const keys = { llmA: null, llmB: null, llmC: null, llmD: null };
  const baseUrls = { llmA: null, llmB: null, llmC: null, llmD: null };
  for (const [group, letter] of Object.entries(letters)) {
    const found = r.group(`LLM_${letter} group (LLM_${letter}_API_KEY)`, [`LLM_${letter}_API_KEY`], [`LLM_${letter}_BASE_URL`]);
    const url = parseHttpUrl(r, `LLM_${letter}_BASE_URL`, r.get(`LLM_${letter}_BASE_URL`));
    if (url && production && url.protocol !== "https:" && !["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) {
      r.problems.push(`LLM_${letter}_BASE_URL must use https when NODE_ENV is production (a model server on loopback may use http)`);
    }
    keys[group] = found ? found[`LLM_${letter}_API_KEY`] : null;
    baseUrls[group] = found && url ? url.href.replace(/\/+$/, "") : null;
  }
  const providerRaw = r.get("AI_PROVIDER");
  const isProvider = (name) => AI_PROVIDERS.includes(name);
  let provider = null;
  if (providerRaw !== null) {
    if (isProvider(providerRaw)) provider = providerRaw;
    else r.problems.push(`AI_PROVIDER must be one of ${AI_PROVIDERS.join(", ")}`);
  }
  const models = [];
  for (const entry of (r.get("AI_MODELS") ?? "").split(",").map((m) => m.trim()).filter(Boolean)) {
    const colon = entry.indexOf(":");
    const prefix = colon > 0 ? entry.slice(0, colon) : "";
    const ref = isProvider(prefix) ? { provider: prefix, model: entry.slice(colon + 1) } : provider ? { provider, model: entry } : null;
    if (!ref || ref.model === "") {
      r.problems.push(`AI_MODELS entry ${entry} names no provider: write ${AI_PROVIDERS.join(":, ")}: before it, or set AI_PROVIDER`);
      continue;
    }
    const group = AI_PROVIDER_GROUP[ref.provider];
    if (providerRaw !== null && provider === null) continue;
    if (keys[group] === null) r.problems.push(`AI_MODELS names ${ref.provider} (${entry}) but LLM_${letters[group]}_API_KEY is not set`);
    models.push(ref);
  }
  if (provider !== null && models.length === 0) r.problems.push("AI_PROVIDER is set but AI_MODELS names no model");
  return { provider, models, keys, baseUrls, promptLogging, timeoutMs: r.integer("AI_TIMEOUT_SECONDS", 60, 1, 3600) * 1e3 };
}
function parseLlmObservability(r) {
  if (!r.boolean("LLMOBS_ENABLED", false)) return null;
  const keys = r.enabledGroup("LLM observability group (LLMOBS_ENABLED)", ["LLMOBS_PUBLIC_KEY", "LLMOBS_SECRET_KEY"]);
  const baseUrl = parseHttpUrl(r, "LLMOBS_BASE_URL", r.get("LLMOBS_BASE_URL"));
  const recordContent = r.boolean("LLMOBS_RECORD_CONTENT", false);
  if (!keys) return null;
  return { publicKey: keys.LLMOBS_PUBLIC_KEY, secretKey: keys.LLMOBS_SECRET_KEY, baseUrl: baseUrl ? baseUrl.toString() : null, recordContent };
}
export {
  AI_PROVIDERS,
  AI_PROVIDER_GROUP,
  parseAi,
  parseLlmObservability
};
