import { and, eq, inArray } from "drizzle-orm";
import { sessionAssessments, users } from "../db/schema/index.js";
import { asSystem } from "../db/tenancy.js";
import { ASSESSMENT_JOB, SUMMARY_JOB } from "./jobs.js";
const SAFE_CODES = /* @__PURE__ */ new Set(["rate_limited", "unavailable"]);
function reasonOf(output) {
  if (output?.details?.length) return `No model answered: ${output.details.map((d) => `${d.path}: ${d.message}`).join("; ")}`;
  if (output?.code && SAFE_CODES.has(output.code) && output.message) return output.message;
  return "An unexpected error (the server log has the details)";
}
async function reviewFailures(app, tenantId, sessionIds) {
  const found = /* @__PURE__ */ new Map();
  if (sessionIds.length === 0) return found;
  const { rows } = await asSystem(
    "schedule",
    () => app.database.pool.query(
      `select distinct on (name, session_id) name, session_id, state, output, at from (
         select name, data->>'sessionId' as session_id, state::text, output, coalesce(completed_on, created_on) as at, created_on
           from pgboss.job where name = any($1) and data->>'tenantId' = $2 and data->>'sessionId' = any($3)
         union all
         select name, data->>'sessionId', state::text, output, coalesce(completed_on, created_on), created_on
           from pgboss.archive where name = any($1) and data->>'tenantId' = $2 and data->>'sessionId' = any($3)
       ) jobs order by name, session_id, created_on desc`,
      [[SUMMARY_JOB, ASSESSMENT_JOB], tenantId, sessionIds]
    )
  );
  for (const row of rows) {
    if (row.state !== "failed" && row.state !== "retry") continue;
    const kind = row.name === SUMMARY_JOB ? "summary" : "assessment";
    const entry = found.get(row.session_id) ?? {};
    entry[kind] = { failedAt: row.at.toISOString(), retrying: row.state === "retry", reason: reasonOf(row.output) };
    found.set(row.session_id, entry);
  }
  return found;
}
async function sessionListExtras(app, tenantId, rows) {
  const { db } = app.database;
  const ids = rows.map((r) => r.id);
  const userIds = [...new Set(rows.map((r) => r.userId))];
  const [assessed, failures, people] = await Promise.all([
    ids.length ? db.select({ sessionId: sessionAssessments.sessionId, score: sessionAssessments.score }).from(sessionAssessments).where(and(eq(sessionAssessments.tenantId, tenantId), inArray(sessionAssessments.sessionId, ids))) : [],
    reviewFailures(app, tenantId, ids),
    // Users are not tenant rows; these are the uploaders of this tenant's sessions.
    userIds.length ? asSystem("tenant-directory", () => db.select({ id: users.id, email: users.email, displayName: users.displayName }).from(users).where(inArray(users.id, userIds))) : []
  ]);
  const scores = new Map(assessed.map((a) => [a.sessionId, a.score]));
  const names = new Map(people.map((p) => [p.id, p.displayName ?? p.email]));
  return (row) => {
    const score = scores.get(row.id) ?? null;
    const failed = failures.get(row.id);
    const state = !row.transcriptKey ? "no_transcript" : score !== null ? "assessed" : failed ? "failed" : "pending";
    return { uploader: { id: row.userId, name: names.get(row.userId) ?? null }, review: { state, score } };
  };
}
export {
  reviewFailures,
  sessionListExtras
};
