const AI_TOOLS = [
  { tool: "claude", name: /^claude[ -](code|opus|sonnet|haiku)\b/i, email: /@anthropic\.com$/i },
  { tool: "copilot", name: /\bcopilot\b/i, email: /copilot/i },
  { tool: "cursor", name: /^cursor( agent)?$|^cursor\[bot\]$/i, email: /@cursor\.(com|sh)$/i },
  { tool: "aider", name: /^aider\b/i, email: /@aider\.chat$/i },
  { tool: "codex", name: /^(openai )?codex\b|^chatgpt( codex)?\b/i, email: /@openai\.com$/i },
  { tool: "gemini", name: /^gemini\b|gemini-code-assist/i, email: /gemini/i },
  { tool: "jules", name: /jules\[bot\]|^google-labs-jules/i },
  { tool: "windsurf", name: /^(windsurf|codeium|cascade)\b/i, email: /@(codeium|windsurf)\.com$/i },
  { tool: "devin", name: /^devin-ai-integration\[bot\]$|^devin ai$/i, email: /@(cognition\.ai|cognition-labs\.com)$|devin-ai-integration/i },
  { tool: "amazon-q", name: /^amazon q\b|amazon-q-developer/i },
  { tool: "openhands", name: /^openhands\b/i, email: /@all-hands\.dev$/i },
  { tool: "cline", name: /^cline\b/i, email: /@cline\.bot$/i },
  { tool: "junie", name: /^junie\b/i, email: /junie/i },
  { tool: "tabnine", name: /^tabnine\b/i, email: /@tabnine\.com$/i }
];
const TRAILER = /^co-authored-by:[ \t]*(.+?)[ \t]*$/gim;
function coauthorTrailers(message) {
  return [...message.matchAll(TRAILER)].map((m) => m[1]);
}
function aiToolOf(trailer) {
  const match = /^(.*?)\s*<([^>]*)>\s*$/.exec(trailer);
  const name = (match ? match[1] : trailer)?.trim() ?? "";
  const email = match?.[2]?.trim() ?? "";
  for (const entry of AI_TOOLS) {
    if (entry.email && email !== "" && entry.email.test(email)) return entry.tool;
    if (entry.name && entry.name.test(name)) return entry.tool;
  }
  return null;
}
function readTrailers(message) {
  const coauthors = coauthorTrailers(message);
  const tools = /* @__PURE__ */ new Set();
  for (const trailer of coauthors) {
    const tool = aiToolOf(trailer);
    if (tool) tools.add(tool);
  }
  return { coauthors, aiCoauthors: [...tools] };
}
export {
  AI_TOOLS,
  aiToolOf,
  coauthorTrailers,
  readTrailers
};
