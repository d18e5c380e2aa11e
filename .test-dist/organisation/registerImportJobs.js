import { asSystem } from "../db/tenancy.js";
import { authorize } from "../auth/policies.js";
import { AppError } from "../errors.js";
import { REGISTER_IMPORT_JOB } from "./jobs.js";
import { checkRegister } from "./registerImport.js";
async function enqueueRegisterImport(app, principal, csvText) {
  authorize(principal, "register.import");
  await checkRegister(app.database.db, principal.tenantId, csvText);
  return app.jobs.send(REGISTER_IMPORT_JOB, { tenantId: principal.tenantId, importedBy: principal.userId, csv: csvText });
}
const STATUS = { created: "queued", retry: "queued", active: "running", completed: "completed", failed: "failed", cancelled: "failed" };
async function getRegisterImportJob(app, tenantId, jobId) {
  const { pool } = app.database;
  const found = await asSystem("schedule", () => pool.query(
    `select state::text from pgboss.job where id = $1 and name = $2 and data->>'tenantId' = $3
     union all
     select state::text from pgboss.archive where id = $1 and name = $2 and data->>'tenantId' = $3
     limit 1`,
    [jobId, REGISTER_IMPORT_JOB, tenantId]
  ));
  const row = found.rows[0];
  if (!row) throw new AppError("not_found", "Job not found");
  const checkpoint = await pool.query("select state from workflow_checkpoints where job_id = $1 and tenant_id = $2", [jobId, tenantId]);
  const state = checkpoint.rows[0]?.state ?? {};
  const status = STATUS[row.state] ?? "queued";
  if (state.errors) return { jobId, status: "failed", errors: state.errors };
  const outcome = { jobId, status };
  if (status === "completed" && state.importId) Object.assign(outcome, { importId: state.importId, rowCount: state.rowCount, recorded: state.recorded });
  return outcome;
}
export {
  enqueueRegisterImport,
  getRegisterImportJob
};
