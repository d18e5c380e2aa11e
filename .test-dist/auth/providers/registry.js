import { githubProvider } from "./github.js";
import { gitlabProvider } from "./gitlab.js";
import { googleProvider } from "./google.js";
import { microsoftProvider } from "./microsoft.js";
const registries = /* @__PURE__ */ new WeakMap();
function signInProviders(config) {
  let registry = registries.get(config);
  if (!registry) {
    const { codehost, codehost2, idp1, idp2 } = config.signIn;
    const list = [codehost && githubProvider(codehost), codehost2 && gitlabProvider(codehost2), idp1 && googleProvider(idp1), idp2 && microsoftProvider(idp2)];
    registry = new Map(list.filter((p) => p !== null).map((p) => [p.id, p]));
    registries.set(config, registry);
  }
  return registry;
}
export {
  signInProviders
};
