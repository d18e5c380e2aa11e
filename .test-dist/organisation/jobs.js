import { z } from "zod";
import { AppError } from "../errors.js";
import { systemActor } from "../auth/principal.js";
import { checkRegister, importRegister } from "./registerImport.js";
import { defineWorkflow } from "../jobs/define.js";
import { Uuid } from "../shared/schemas.js";
const RegisterImportPayload = z.object({
  tenantId: Uuid,
  importedBy: z.string().min(1),
  /** At most the request body limit of the import routes. */
  csv: z.string().max(16 * 1024 * 1024)
});
const REGISTER_IMPORT_JOB = "register.import";
const registerImportWorkflow = defineWorkflow({
  name: REGISTER_IMPORT_JOB,
  summary: "Applies a register file uploaded with ?mode=async (steps parse, apply, record).",
  idempotency: "apply is importRegister: one transaction, so a crash leaves all or nothing; re-applying the same file changes no row and records no new import (it returns the latest one); parse and record only read and publish.",
  payload: RegisterImportPayload,
  tenantOf: (p) => p.tenantId,
  retryDelaySeconds: 5,
  initialState: {},
  steps: [
    {
      name: "parse",
      async run(ctx, payload) {
        try {
          const { rows } = await checkRegister(ctx.app.database.db, payload.tenantId, payload.csv);
          return { rows: rows.length };
        } catch (error) {
          if (error instanceof AppError && error.code === "validation_failed") return { errors: error.details ?? [], message: error.message };
          throw error;
        }
      }
    },
    {
      name: "apply",
      async run(ctx, payload, state) {
        if (state.errors) return state;
        try {
          const result = await importRegister(ctx.app.database.db, systemActor(payload.tenantId, payload.importedBy), payload.csv);
          return { ...state, importId: result.import.id, rowCount: result.import.rowCount, recorded: result.recorded };
        } catch (error) {
          if (error instanceof AppError && error.code === "validation_failed") return { ...state, errors: error.details ?? [], message: error.message };
          throw error;
        }
      }
    },
    {
      name: "record",
      async run(ctx, payload, state) {
        if (state.errors) throw new Error(state.message ?? "Register rejected; nothing was imported");
        await ctx.app.live.publish(payload.tenantId, {
          kind: "job.progress",
          job: { id: ctx.job.id, name: ctx.job.name },
          subject: { type: "register_import", id: state.importId },
          done: state.rowCount,
          total: state.rowCount,
          message: state.recorded ? "recorded" : "unchanged"
        });
      }
    }
  ]
});
export {
  REGISTER_IMPORT_JOB,
  RegisterImportPayload,
  registerImportWorkflow
};
