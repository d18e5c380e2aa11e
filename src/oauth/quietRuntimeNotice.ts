/**
 * oidc-provider prints "Unsupported runtime" on Node 20 when it is first imported (it wants Node 22
 * LTS; it runs on 20, and the image uses 22). Every CLI command loads the app graph, so the line
 * would land on the stderr of `migrate`, of a failed start's list of configuration problems, and
 * of every export. This module, imported right before oidc-provider (src/oauth/oidc.ts), drops that
 * one line and nothing else; `restoreWarn` puts console.warn back once the import is done.
 */
const original = console.warn;

console.warn = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].includes('oidc-provider WARNING: Unsupported runtime')) return;
  original(...args);
};

export function restoreWarn(): void {
  console.warn = original;
}
