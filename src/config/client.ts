/** What the CLI's remote commands (login, whoami, logout, exports with --url) read from the environment. */
import { Reader, type Env } from './reader.js';
import { trimEnd } from '../shared/text.js';

export interface ClientConfig {
  /** This program's release (RELEASE_VERSION); `dev` is unknown. */
  releaseVersion: string;
  /** Where `delivery-analytics/credentials.json` lives: XDG_CONFIG_HOME, else HOME/.config. */
  configHome: string;
}

export function loadClientConfig(env: Env): Readonly<ClientConfig> {
  const r = new Reader(env);
  // The XDG base directory spec: a relative XDG_CONFIG_HOME is invalid and ignored.
  const xdg = r.get('XDG_CONFIG_HOME');
  const home = r.get('HOME');
  let configHome = xdg !== null && xdg.startsWith('/') ? xdg : null;
  if (configHome === null) {
    if (home === null) r.problems.push('HOME (or XDG_CONFIG_HOME) is required to store CLI credentials');
    else configHome = `${trimEnd(home, '/')}/.config`;
  }
  r.check();
  return Object.freeze({ releaseVersion: r.get('RELEASE_VERSION') ?? 'dev', configHome: configHome as string });
}
