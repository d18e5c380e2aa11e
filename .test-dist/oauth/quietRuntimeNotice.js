const original = console.warn;
console.warn = (...args) => {
  if (typeof args[0] === "string" && args[0].includes("oidc-provider WARNING: Unsupported runtime")) return;
  original(...args);
};
function restoreWarn() {
  console.warn = original;
}
export {
  restoreWarn
};
