/**
 * The asynchronous register import: validate in the request, enqueue the `register.import`
 * workflow (src/organisation/jobs.ts), and read a job's outcome back, tenant-scoped.
 */
import { asSystem } from '../db/tenancy.js';
import type { AppContext } from '../context.js';
import type { TenantPrincipal } from '../auth/principal.js';
import { authorize } from '../auth/policies.js';
import { AppError, type ErrorDetail } from '../errors.js';
import { REGISTER_IMPORT_JOB, type RegisterImportState } from './jobs.js';
import { checkRegister } from './registerImport.js';

export type RegisterJobStatus = 'queued' | 'running' | 'completed' | 'failed';

export interface RegisterJobOutcome {
  jobId: string;
  status: RegisterJobStatus;
  importId?: string;
  rowCount?: number;
  recorded?: boolean;
  errors?: ErrorDetail[];
}

/** Validates the whole file (a bad one is the synchronous 400, nothing enqueued), then enqueues. */
export async function enqueueRegisterImport(app: AppContext, principal: TenantPrincipal, csvText: string): Promise<string> {
  // The job applies the file as system work on the tenant: the rule is checked here, once.
  authorize(principal, 'register.import');
  await checkRegister(app.database.db, principal.tenantId, csvText);
  return app.jobs.send(REGISTER_IMPORT_JOB, { tenantId: principal.tenantId, importedBy: principal.userId, csv: csvText });
}

const STATUS: Record<string, RegisterJobStatus> = { created: 'queued', retry: 'queued', active: 'running', completed: 'completed', failed: 'failed', cancelled: 'failed' };

/** A register import job of the tenant; another tenant's job (or none) is a 404. */
export async function getRegisterImportJob(app: AppContext, tenantId: string, jobId: string): Promise<RegisterJobOutcome> {
  const { pool } = app.database;
  // Finished jobs move to pgboss.archive after an hour; the payload names the tenant. The queue
  // holds every tenant's jobs and is not readable as a tenant: this lookup is the tenant check.
  const found = await asSystem('schedule', () => pool.query<{ state: string }>(
    `select state::text from pgboss.job where id = $1 and name = $2 and data->>'tenantId' = $3
     union all
     select state::text from pgboss.archive where id = $1 and name = $2 and data->>'tenantId' = $3
     limit 1`,
    [jobId, REGISTER_IMPORT_JOB, tenantId],
  ));
  const row = found.rows[0];
  if (!row) throw new AppError('not_found', 'Job not found');
  const checkpoint = await pool.query<{ state: RegisterImportState }>('select state from workflow_checkpoints where job_id = $1 and tenant_id = $2', [jobId, tenantId]);
  const state = checkpoint.rows[0]?.state ?? {};
  const status = STATUS[row.state] ?? 'queued';
  // A rejected file is final even while the job still has retries left.
  if (state.errors) return { jobId, status: 'failed', errors: state.errors };
  const outcome: RegisterJobOutcome = { jobId, status };
  if (status === 'completed' && state.importId) Object.assign(outcome, { importId: state.importId, rowCount: state.rowCount, recorded: state.recorded });
  return outcome;
}
