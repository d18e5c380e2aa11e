import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Principal } from './auth/principal.js';
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
  /** What the request framework calls in capabilities; app.ts wires it (see RequestHooks). */
  requestHooks: RequestHooks;
}

/**
 * What route() and the web shell (src/http) and the live socket (src/live) need from capabilities.
 * Infrastructure imports no capability (docs/architecture.md), so the composition root wires these
 * (`requestHooks` in src/app.ts) and they reach the framework through the context.
 */
export interface RequestHooks {
  /**
   * The caller of a request, or null (src/identity/authenticate.ts). When `res` is given and the
   * session id rotates, the new cookie is set on it.
   */
  authenticate(app: AppContext, req: { headers: IncomingHttpHeaders }, res?: ServerResponse): Promise<Principal | null>;
  /** The billing write gate: refuses a change for a read-only tenant (src/billing/entitlements.ts). */
  assertWritable(app: AppContext, tenantId: string): Promise<void>;
  /** Forgets this instance's cached API-key principals of a tenant, or of every tenant (null). */
  forgetKeyPrincipals(app: AppContext, tenantId: string | null): void;
}
