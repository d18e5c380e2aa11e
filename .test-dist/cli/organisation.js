import { readFile, writeFile } from "node:fs/promises";
import { AppError } from "../errors.js";
import { systemActor } from "../auth/principal.js";
import { requireOption, UsageError } from "./args.js";
import { withDatabase } from "./commands.js";
import { exportOverHttp, wantsRemote } from "./remoteExport.js";
import { isUuid, PROJECT_KEY } from "../shared/schemas.js";
const print = (value) => process.stdout.write(`${JSON.stringify(value)}
`);
function tenantOption(options) {
  const tenantId = requireOption(options, "tenant");
  if (!isUuid(tenantId)) throw new UsageError("--tenant must be a tenant id (UUID)");
  return tenantId;
}
async function requireTenant(db, tenantId) {
  const [{ eq }, { tenants }] = await Promise.all([import("drizzle-orm"), import("../db/schema/index.js")]);
  const [found] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId));
  if (!found) throw new Error(`tenant ${tenantId} not found`);
}
async function reportingProblems(run) {
  try {
    await run();
    return 0;
  } catch (error) {
    if (!(error instanceof AppError) || !error.details) throw error;
    process.stderr.write(`${error.message}
${error.details.map((d) => `  ${d.path}: ${d.message}`).join("\n")}
`);
    return 1;
  }
}
async function readInput(options) {
  const file = requireOption(options, "file");
  if (file === "-") {
    const chunks = [];
    for await (const chunk of process.stdin) chunks.push(chunk);
    return Buffer.concat(chunks).toString("utf8");
  }
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    throw new Error(`cannot read ${file}: ${error.code ?? error.message}`);
  }
}
function csvImportCommand(name, summary, importer) {
  return {
    summary,
    usage: `${name} --tenant=<id> --file=<path|->`,
    run: async (options, env) => {
      const tenantId = tenantOption(options);
      const text = await readInput(options);
      return withDatabase(env, async ({ db }) => {
        await requireTenant(db, tenantId);
        const { presentImport: present } = await import("../organisation/presenters.js");
        return reportingProblems(async () => {
          print(present(await importer(db, systemActor(tenantId, "cli"), text)));
        });
      });
    }
  };
}
const organisationCommands = {
  "register:import": csvImportCommand("register:import", "Import an organisation register CSV (all-or-nothing); prints the import record.", async (...args) => (await import("../organisation/registerImport.js")).importRegister(...args)),
  "seats:import": csvImportCommand("seats:import", "Import an AI-seat CSV (all-or-nothing); prints the import record.", async (...args) => (await import("../organisation/seats.js")).importSeats(...args)),
  "project:assign": {
    summary: "Make a team (by slug) the owner of a project, creating the project (provider manual) if needed.",
    usage: "project:assign --tenant=<id> --project=<owner/repo> --team=<team_slug>",
    run: (options, env) => {
      const tenantId = tenantOption(options);
      const project = requireOption(options, "project");
      if (!PROJECT_KEY.test(project)) throw new UsageError("--project must be <owner>/<repo>");
      const team = requireOption(options, "team");
      return withDatabase(env, async ({ db }) => {
        await requireTenant(db, tenantId);
        const { assignProject } = await import("../organisation/teams.js");
        print(await assignProject(db, systemActor(tenantId, "cli"), project, team));
      });
    }
  },
  "export:team-roster": {
    summary: "Write the team roster exactly as GET /api/exports/team-roster does.",
    usage: "export:team-roster (--tenant=<id> | --url=<APP_URL>) [--as-of=YYYY-MM-DD] [--format=csv|json] [--out=<file>]",
    run: async (options, env) => {
      const { exportTeamRoster, RosterQuery } = await import("../exports/teamRoster.js");
      const remote = wantsRemote(options);
      const tenantId = remote ? "" : tenantOption(options);
      const flag = (name) => typeof options[name] === "string" ? options[name] : options[name] === true ? "" : void 0;
      const parsed = RosterQuery.safeParse({ asOf: flag("as-of"), format: flag("format") });
      if (!parsed.success) {
        const names = { asOf: "--as-of", format: "--format" };
        throw new UsageError(parsed.error.issues.map((i) => `${names[String(i.path[0])] ?? i.path.join(".")}: ${i.message}`).join("; "));
      }
      if (remote) return exportOverHttp(options, env, "/api/exports/team-roster", { asOf: flag("as-of"), format: flag("format") });
      return withDatabase(env, async ({ db }) => {
        await requireTenant(db, tenantId);
        const out = await exportTeamRoster(db, tenantId, parsed.data);
        if (typeof options.out === "string" && options.out !== "") await writeFile(options.out, out.body);
        else await new Promise((resolve, reject) => process.stdout.write(out.body, (e) => e ? reject(e) : resolve()));
      });
    }
  }
};
export {
  organisationCommands
};
