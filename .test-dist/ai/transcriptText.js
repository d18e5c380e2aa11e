const CHARS_PER_TOKEN = 4;
const TOOL_TEXT_LIMIT = 400;
const cut = (text, limit) => text.length > limit ? `${text.slice(0, limit)}\u2026` : text;
function blockText(block) {
  if (typeof block === "string") return block;
  if (!block || typeof block !== "object") return "";
  const b = block;
  if (b.type === "text" && typeof b.text === "string") return b.text;
  if (b.type === "tool_use" || b.type === "tool_call") return `[tool ${String(b.name ?? "")}] ${cut(JSON.stringify(b.input ?? b.arguments ?? {}), TOOL_TEXT_LIMIT)}`;
  if (b.type === "tool_result") return `[tool result] ${cut(typeof b.content === "string" ? b.content : JSON.stringify(b.content ?? ""), TOOL_TEXT_LIMIT)}`;
  return "";
}
function lineOf(entry) {
  const message = entry.message && typeof entry.message === "object" ? entry.message : {};
  const role = String(message.role ?? entry.role ?? entry.type ?? "event");
  const content = message.content ?? entry.content ?? entry.text;
  const text = Array.isArray(content) ? content.map(blockText).filter(Boolean).join("\n") : blockText(content);
  return text.trim() === "" ? "" : `${role}: ${text.trim()}`;
}
function transcriptText(jsonLines) {
  const lines = [];
  for (const raw of jsonLines.split("\n")) {
    if (raw.trim() === "") continue;
    try {
      const line = lineOf(JSON.parse(raw));
      if (line) lines.push(line);
    } catch {
    }
  }
  return lines.join("\n");
}
const estimateTokens = (text) => Math.ceil(text.length / CHARS_PER_TOKEN);
function chunkText(text, tokens) {
  const limit = tokens * CHARS_PER_TOKEN;
  const chunks = [];
  let current = "";
  for (const line of text.split("\n")) {
    for (let piece = line; piece.length > 0; piece = piece.slice(limit)) {
      const part = piece.slice(0, limit);
      if (current.length + part.length + 1 > limit && current !== "") {
        chunks.push(current);
        current = "";
      }
      current = current === "" ? part : `${current}
${part}`;
    }
  }
  if (current !== "") chunks.push(current);
  return chunks;
}
function headAndTail(text, tokens) {
  const limit = tokens * CHARS_PER_TOKEN;
  if (text.length <= limit) return text;
  const head = Math.floor(limit * 0.4);
  return `${text.slice(0, head)}
[\u2026 ${text.length - limit} characters left out \u2026]
${text.slice(text.length - (limit - head))}`;
}
export {
  chunkText,
  estimateTokens,
  headAndTail,
  transcriptText
};
