import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Logger } from './log.js';

/**
 * What every request handler, command and job receives: the parsed configuration and the shared
 * resources of one process. Capabilities add their own members here as they are built.
 */
export interface AppContext {
  config: Readonly<Config>;
  database: Database;
  log: Logger;
}
