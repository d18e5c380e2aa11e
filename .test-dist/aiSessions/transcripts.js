import { AppError } from "../errors.js";
const TRANSCRIPT_MAX_BYTES = 10 * 1024 * 1024;
const num = (value) => typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
function count(entry, into) {
  const message = typeof entry.message === "object" && entry.message !== null ? entry.message : {};
  const role = [entry.type, entry.role, message.role].find((r) => r === "user" || r === "assistant");
  if (role) into.messages += 1;
  if (entry.type === "tool_use" || entry.type === "tool_call") into.toolCalls += 1;
  for (const content of [entry.content, message.content]) {
    if (!Array.isArray(content)) continue;
    for (const block of content) {
      const type = block?.type;
      if (type === "tool_use" || type === "tool_call") into.toolCalls += 1;
    }
  }
  if (Array.isArray(message.tool_calls)) into.toolCalls += message.tool_calls.length;
  const usage = message.usage ?? entry.usage;
  if (usage && typeof usage === "object") {
    into.inputTokens += num(usage.input_tokens ?? usage.prompt_tokens);
    into.outputTokens += num(usage.output_tokens ?? usage.completion_tokens);
    into.cacheReadTokens += num(usage.cache_read_input_tokens);
    into.cacheWriteTokens += num(usage.cache_creation_input_tokens);
  }
}
function parseTranscript(input) {
  const derived = { messages: 0, toolCalls: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
  let text;
  let lines = 0;
  if (Array.isArray(input)) {
    text = input.map((entry) => JSON.stringify(entry)).join("\n");
    for (const entry of input) {
      lines += 1;
      if (entry && typeof entry === "object") count(entry, derived);
    }
  } else {
    text = input;
    const raw = input.split("\n");
    for (let i = 0; i < raw.length; i += 1) {
      const line = raw[i].trim();
      if (line === "") continue;
      let entry;
      try {
        entry = JSON.parse(line);
      } catch {
        throw new AppError("validation_failed", "Validation failed", [{ path: "transcript", message: `line ${i + 1} is not valid JSON` }]);
      }
      lines += 1;
      if (entry && typeof entry === "object") count(entry, derived);
    }
  }
  if (text !== "" && !text.endsWith("\n")) text += "\n";
  const buffer = Buffer.from(text, "utf8");
  if (buffer.length > TRANSCRIPT_MAX_BYTES) {
    throw new AppError("payload_too_large", `Transcript is ${buffer.length} bytes; the limit is ${TRANSCRIPT_MAX_BYTES} bytes of JSON lines`);
  }
  return { text: buffer, lines, derived };
}
export {
  TRANSCRIPT_MAX_BYTES,
  parseTranscript
};
