import { z } from "zod";
const INPUT_LIMITS = {
  /** Nesting of any JSON body (objects and arrays); deeper bodies are refused before validation. */
  jsonDepth: 32,
  /** Nesting of a free-form object (`metadata`), counted from the object itself. */
  objectDepth: 8,
  /** Keys of a free-form object, at every level together (its size in bytes is the body's limit). */
  objectKeys: 1e3,
  /** PostgreSQL `integer`. */
  int32Max: 2147483647,
  /** Timestamps and dates: 1970-01-01T00:00:00Z up to the end of 9999, UTC offsets within ±15:59. */
  earliest: Date.UTC(1970, 0, 1),
  latest: Date.UTC(1e4, 0, 1) - 1
};
const UNSTORABLE = /[\u0000\uD800-\uDFFF]/u;
function unstorable(value) {
  const match = UNSTORABLE.exec(value);
  if (!match) return null;
  return match[0] === "\0" ? "Must not contain the NUL character (U+0000)" : "Must not contain a lone UTF-16 surrogate (invalid Unicode)";
}
function checkJsonValue(root, maxDepth, prefix = "", maxDetails = 20) {
  const details = [];
  const stack = [[root, prefix, 0]];
  const join = (path, key) => path === "" ? String(key) : `${path}.${key}`;
  while (stack.length > 0 && details.length < maxDetails) {
    const [value, path, depth] = stack.pop();
    if (typeof value === "string") {
      const problem = unstorable(value);
      if (problem) details.push({ path: path || "body", message: problem });
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (depth >= maxDepth) {
      details.push({ path: path || "body", message: `Nested deeper than ${maxDepth} levels` });
      continue;
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i -= 1) stack.push([value[i], join(path, i), depth + 1]);
      continue;
    }
    for (const key of Object.keys(value).reverse()) {
      const problem = unstorable(key);
      if (problem) details.push({ path: join(path, key.replace(UNSTORABLE, "?")), message: `Key: ${problem}` });
      else stack.push([value[key], join(path, key), depth + 1]);
    }
  }
  return details;
}
function inRange(ms) {
  return !Number.isNaN(ms) && ms >= INPUT_LIMITS.earliest && ms <= INPUT_LIMITS.latest;
}
const OFFSET = /([+-])(\d{2}):?(\d{2})$/;
function pgTimestamp(error = "Must be an ISO 8601 timestamp with an offset, e.g. 2024-05-01T12:00:00Z") {
  return z.iso.datetime({ offset: true, error, abort: true }).refine((value) => {
    const offset = OFFSET.exec(value);
    return !offset || Number(offset[2]) <= 15;
  }, { error: "The UTC offset must be within \xB115:59", abort: true }).refine((value) => inRange(Date.parse(value)), "Must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z");
}
function pgDate() {
  return z.iso.date({ abort: true }).refine((value) => inRange(Date.parse(`${value}T00:00:00Z`)), "Must be between 1970-01-01 and 9999-12-31");
}
const int32 = (min) => z.number().int("Must be a whole number").min(min).max(INPUT_LIMITS.int32Max);
function freeObject(description) {
  return z.record(z.string(), z.unknown(), { error: "Must be a JSON object" }).superRefine((value, ctx) => {
    const deep = checkJsonValue(value, INPUT_LIMITS.objectDepth, "", 1);
    if (deep.length > 0) {
      ctx.addIssue({ code: "custom", message: deep[0].message, path: deep[0].path === "body" ? [] : deep[0].path.split(".") });
      return;
    }
    if (countKeys(value) > INPUT_LIMITS.objectKeys) {
      ctx.addIssue({ code: "custom", message: `Must have at most ${INPUT_LIMITS.objectKeys} keys, all levels together` });
    }
  }).meta({ description: `${description}; at most ${INPUT_LIMITS.objectDepth} levels deep and ${INPUT_LIMITS.objectKeys} keys` });
}
function countKeys(value) {
  if (Array.isArray(value)) return value.reduce((n, v) => n + countKeys(v), 0);
  if (value === null || typeof value !== "object") return 0;
  return Object.entries(value).reduce((n, [, v]) => n + 1 + countKeys(v), 0);
}
export {
  INPUT_LIMITS,
  checkJsonValue,
  freeObject,
  int32,
  pgDate,
  pgTimestamp,
  unstorable
};
