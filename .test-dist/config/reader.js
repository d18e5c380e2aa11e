class ConfigError extends Error {
  constructor(problems) {
    super(`invalid configuration:
${problems.join("\n")}`);
    this.problems = problems;
  }
  problems;
}
class Reader {
  constructor(env) {
    this.env = env;
  }
  env;
  problems = [];
  /** A set variable's trimmed value; blank counts as unset. */
  get(name) {
    const value = this.env[name];
    if (value === void 0) return null;
    const trimmed = value.trim();
    return trimmed === "" ? null : trimmed;
  }
  required(name) {
    const value = this.get(name);
    if (value === null) this.problems.push(`${name} is required`);
    return value;
  }
  integer(name, fallback, min, max) {
    const raw = this.get(name);
    if (raw === null) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      this.problems.push(`${name} must be a whole number from ${min} to ${max}`);
      return fallback;
    }
    return Number(raw);
  }
  boolean(name, fallback) {
    const raw = this.get(name);
    if (raw === null) return fallback;
    const lower = raw.toLowerCase();
    if (["true", "1", "yes", "on"].includes(lower)) return true;
    if (["false", "0", "no", "off"].includes(lower)) return false;
    this.problems.push(`${name} must be true or false`);
    return fallback;
  }
  /** All-or-nothing group: returns the values when complete, null when absent, null + problem when partial. */
  group(label, names, optional = []) {
    const present = [...names, ...optional].filter((n) => this.get(n) !== null);
    if (present.length === 0) return null;
    const missing = names.filter((n) => this.get(n) === null);
    if (missing.length > 0) {
      this.problems.push(`${label} is partially configured: missing ${missing.join(", ")} (set: ${present.join(", ")})`);
      return null;
    }
    return Object.fromEntries(names.map((n) => [n, this.get(n)]));
  }
  /** A group switched on by a flag: every variable is required once the flag is on. */
  enabledGroup(label, names) {
    const missing = names.filter((n) => this.get(n) === null);
    if (missing.length > 0) {
      this.problems.push(`${label} is partially configured: missing ${missing.join(", ")}`);
      return null;
    }
    return Object.fromEntries(names.map((n) => [n, this.get(n)]));
  }
  /** Throws the collected problems, if any. */
  check() {
    if (this.problems.length > 0) throw new ConfigError(this.problems);
  }
}
function parseHttpUrl(r, name, value) {
  if (value === null) return null;
  try {
    const url = new URL(value);
    if (url.protocol === "http:" || url.protocol === "https:") return url;
  } catch {
  }
  r.problems.push(`${name} must be an http(s) URL`);
  return null;
}
const withoutTrailingSlash = (url) => url.origin + url.pathname.replace(/\/+$/, "");
function endpointOverride(r, name, production, fallback) {
  const parsed = parseHttpUrl(r, name, r.get(name));
  if (parsed && production && parsed.protocol !== "https:") r.problems.push(`${name} must use https when NODE_ENV is production`);
  return parsed ? withoutTrailingSlash(parsed) : fallback;
}
export {
  ConfigError,
  Reader,
  endpointOverride,
  parseHttpUrl,
  withoutTrailingSlash
};
