import { AppError } from "../errors.js";
async function guarded(body, log) {
  try {
    const value = await body();
    return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }], structuredContent: value };
  } catch (error) {
    if (error instanceof AppError && error.code !== "internal") {
      const details = error.details?.map((d) => `${d.path}: ${d.message}`).join("; ");
      return { isError: true, content: [{ type: "text", text: details && !error.message.includes(details) ? `${error.message}: ${details}` : error.message }] };
    }
    log?.error({ err: error }, "MCP tool failed");
    return { isError: true, content: [{ type: "text", text: "Internal server error" }] };
  }
}
export {
  guarded
};
