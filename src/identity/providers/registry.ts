import type { Config } from '../../config/index.js';
import { githubProvider } from './github.js';
import { gitlabProvider } from './gitlab.js';
import { googleProvider } from './google.js';
import { microsoftProvider } from './microsoft.js';
import type { ProviderId, SignInProvider } from './provider.js';

const registries = new WeakMap<object, Map<ProviderId, SignInProvider>>();

/**
 * The configured providers of this process, in the order of the buttons on /login. Built once per
 * configuration so each provider's discovery is cached with it.
 */
export function signInProviders(config: Readonly<Config>): Map<ProviderId, SignInProvider> {
  let registry = registries.get(config);
  if (!registry) {
    const { codehost, codehost2, idp1, idp2 } = config.signIn;
    const list = [codehost && githubProvider(codehost), codehost2 && gitlabProvider(codehost2), idp1 && googleProvider(idp1), idp2 && microsoftProvider(idp2)];
    registry = new Map(list.filter((p): p is SignInProvider => p !== null).map((p) => [p.id, p]));
    registries.set(config, registry);
  }
  return registry;
}
