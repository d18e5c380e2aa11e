import { gunzipSync } from "node:zlib";
import { AppError } from "../errors.js";
import { checkJsonValue, INPUT_LIMITS } from "../shared/limits.js";
const TYPES = {
  json: ["application/json", "application/*+json"],
  text: ["text/csv", "text/plain"],
  form: ["application/x-www-form-urlencoded"]
};
const invalid = (message) => new AppError("validation_failed", "Invalid request body", [{ path: "body", message }]);
async function readRawBody(ctx, limitBytes) {
  const declared = Number(ctx.get("content-length") || "0");
  if (declared > limitBytes) throw new AppError("payload_too_large", `Request body is larger than ${limitBytes} bytes`);
  const chunks = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += chunk.length;
    if (size > limitBytes) throw new AppError("payload_too_large", `Request body is larger than ${limitBytes} bytes`);
    chunks.push(chunk);
  }
  const raw = Buffer.concat(chunks);
  const encoding = ctx.get("content-encoding").toLowerCase();
  if (encoding === "" || encoding === "identity") return raw;
  if (encoding !== "gzip") throw new AppError("unsupported_media_type", `Content-Encoding ${encoding} is not supported (use gzip or none)`);
  try {
    const inflated = gunzipSync(raw, { maxOutputLength: limitBytes });
    return inflated;
  } catch (error) {
    if (error.code === "ERR_BUFFER_TOO_LARGE" || error instanceof RangeError) {
      throw new AppError("payload_too_large", `Decompressed body is larger than ${limitBytes} bytes`);
    }
    throw invalid("Body is not valid gzip");
  }
}
const utf8 = new TextDecoder("utf-8", { fatal: true });
function decodeUtf8(raw) {
  try {
    return utf8.decode(raw);
  } catch {
    throw invalid("Body is not valid UTF-8");
  }
}
async function readBody(ctx, kind, limitBytes) {
  if (kind !== "raw" && !ctx.is(...TYPES[kind])) {
    throw invalid(`Content-Type must be ${TYPES[kind][0]}`);
  }
  const raw = await readRawBody(ctx, limitBytes);
  if (kind === "raw") return raw;
  if (kind === "form") {
    const form = Object.fromEntries(new URLSearchParams(raw.toString("utf8")));
    const details = checkJsonValue(form, 1);
    if (details.length > 0) throw new AppError("validation_failed", "Invalid request body", details);
    return form;
  }
  if (kind === "text") return decodeUtf8(raw);
  return parseJsonBody(raw);
}
function parseJsonBody(raw, message = "Invalid request body") {
  const refuse = (detail) => new AppError("validation_failed", message, [{ path: "body", message: detail }]);
  let text;
  try {
    text = utf8.decode(raw);
  } catch {
    throw refuse("Body is not valid UTF-8");
  }
  if (text.trim() === "") throw refuse("Body is empty; a JSON object is expected");
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw refuse("Body is not valid JSON");
  }
  const details = checkJsonValue(value, INPUT_LIMITS.jsonDepth);
  if (details.length > 0) throw new AppError("validation_failed", message, details);
  return value;
}
export {
  parseJsonBody,
  readBody,
  readRawBody
};
