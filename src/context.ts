import type { Config } from './config/index.js';
import type { Database } from './db/client.js';
import type { JobQueue } from './jobs/index.js';
import type { LivePublisher } from './live/events.js';
import type { Logger } from './log.js';

/**
 * What every request handler, command and job receives: the parsed configuration and the shared
 * resources of one process. Capabilities add their own members here as they are built.
 */
export interface AppContext {
  config: Readonly<Config>;
  database: Database;
  log: Logger;
  /** Enqueue background jobs: `app.jobs.send(job, payload)` (src/jobs, docs/jobs.md). */
  jobs: JobQueue;
  /** Push live progress to a tenant's clients on every instance: `app.live.publish(tenantId, event)` (docs/live.md). */
  live: LivePublisher;
}
