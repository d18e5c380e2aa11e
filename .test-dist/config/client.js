import { Reader } from "./reader.js";
function loadClientConfig(env) {
  const r = new Reader(env);
  const xdg = r.get("XDG_CONFIG_HOME");
  const home = r.get("HOME");
  let configHome = xdg !== null && xdg.startsWith("/") ? xdg : null;
  if (configHome === null) {
    if (home === null) r.problems.push("HOME (or XDG_CONFIG_HOME) is required to store CLI credentials");
    else configHome = `${home.replace(/\/+$/, "")}/.config`;
  }
  r.check();
  return Object.freeze({ releaseVersion: r.get("RELEASE_VERSION") ?? "dev", configHome });
}
export {
  loadClientConfig
};
