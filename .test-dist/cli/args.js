function parseOptions(argv) {
  const options = {};
  for (const arg of argv) {
    const match = /^--([a-zA-Z][\w-]*)(?:=(.*))?$/s.exec(arg);
    if (!match) throw new UsageError(`unexpected argument "${arg}"`);
    options[match[1]] = match[2] ?? true;
  }
  return options;
}
class UsageError extends Error {
}
function requireOption(options, name) {
  const value = options[name];
  if (typeof value !== "string" || value === "") throw new UsageError(`--${name}=<value> is required`);
  return value;
}
export {
  UsageError,
  parseOptions,
  requireOption
};
