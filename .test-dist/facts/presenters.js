const text = (v) => v === null || v === void 0 ? null : String(v);
const num = (v) => v === null || v === void 0 ? null : Number(v);
const bool = (v) => v === true || v === "true";
const time = (v) => v === null || v === void 0 ? null : `${String(v)}Z`;
const day = (v) => v === null || v === void 0 ? "?" : String(v).slice(0, 10);
function hours(seconds) {
  return seconds === null ? "?" : `${Number((seconds / 3600).toFixed(1))} h`;
}
function deploymentReason(r) {
  const reasons = [];
  if (r.failed) {
    if (r.status === "failure" || r.status === "error") reasons.push(`failed: status ${r.status}`);
    if (r.rolledBack) reasons.push(`failed: rolled back by ${r.rolledBackBy ?? "?"} on ${day(r.rolledBackAt)}`);
    if (r.causedIncident) reasons.push(`failed: caused incident ${r.causedIncidentKey ?? "?"}`);
  }
  if (r.recoveredBy !== null) reasons.push(`recovered by ${r.recoveredBy} after ${hours(r.recoverySeconds)}`);
  return reasons.length > 0 ? reasons.join("; ") : null;
}
const CAUSE_RULES = {
  named: "named by the incident (causedByDeployment)",
  recent: "latest successful production deployment in the 24 h before"
};
const PR_COLUMNS = [
  { key: "repository", title: "Repository", type: "text" },
  { key: "number", title: "Number", type: "number" },
  { key: "title", title: "Title", type: "text" },
  { key: "author", title: "Author", type: "text" },
  { key: "openedAt", title: "Opened", type: "time" },
  { key: "mergedAt", title: "Merged", type: "time" }
];
const ISSUE_COLUMNS = [
  { key: "key", title: "Key", type: "text" },
  { key: "title", title: "Title", type: "text" },
  { key: "type", title: "Type", type: "text" },
  { key: "project", title: "Project", type: "text" },
  { key: "openedAt", title: "Opened", type: "time" },
  { key: "closedAt", title: "Closed", type: "time" }
];
const issueFields = (get) => ({
  id: String(get("id")),
  key: text(get("external_id")),
  title: text(get("title")),
  project: text(get("project_key")),
  openedAt: time(get("created_at")),
  closedAt: time(get("closed_at"))
});
const KINDS = {
  deployments: {
    dimensions: ["id", "project_key", "environment", "external_id", "sha", "status", "created_at", "is_failed", "rolled_back", "rolled_back_by", "rolled_back_at", "caused_incident", "caused_incident_key", "recovered_by", "recovery_seconds"],
    columns: [
      { key: "project", title: "Project", type: "text" },
      { key: "environment", title: "Environment", type: "text" },
      { key: "externalId", title: "External id", type: "text" },
      { key: "sha", title: "Sha", type: "text" },
      { key: "status", title: "Status", type: "text" },
      { key: "createdAt", title: "Created", type: "time" },
      { key: "failed", title: "Failed", type: "boolean" },
      { key: "reason", title: "Why it counts", type: "text" },
      { key: "recoveredBy", title: "Recovered by", type: "text" },
      { key: "recoverySeconds", title: "Recovery time", type: "seconds" }
    ],
    markedColumn: { "deployments.is_failed": "failed" },
    present: (get) => {
      const failed = bool(get("is_failed"));
      return {
        id: String(get("id")),
        project: text(get("project_key")),
        environment: text(get("environment")),
        externalId: text(get("external_id")),
        sha: text(get("sha")),
        status: text(get("status")),
        createdAt: time(get("created_at")),
        failed,
        reason: deploymentReason({
          failed,
          status: text(get("status")),
          rolledBack: bool(get("rolled_back")),
          rolledBackBy: text(get("rolled_back_by")),
          rolledBackAt: get("rolled_back_at"),
          causedIncident: bool(get("caused_incident")),
          causedIncidentKey: text(get("caused_incident_key")),
          recoveredBy: text(get("recovered_by")),
          recoverySeconds: num(get("recovery_seconds"))
        }),
        recoveredBy: text(get("recovered_by")),
        recoverySeconds: num(get("recovery_seconds"))
      };
    }
  },
  pull_requests: {
    dimensions: ["id", "project_key", "number", "title", "author_username", "created_at", "merged_at", "cycle_time_seconds", "ai_assisted", "ai_via_session", "ai_via_trailer", "ai_via_label"],
    columns: [
      ...PR_COLUMNS,
      { key: "cycleTimeSeconds", title: "Cycle time", type: "seconds" },
      { key: "aiAssisted", title: "AI-assisted", type: "boolean" },
      { key: "aiAssistedBecause", title: "AI-assisted because", type: "text" }
    ],
    markedColumn: { "pull_requests.ai_assisted": "aiAssisted" },
    present: (get) => {
      const because = [get("ai_via_session") && "linked session", get("ai_via_trailer") && "co-author trailer", get("ai_via_label") && "label ai-assisted"].filter(Boolean);
      return {
        id: String(get("id")),
        repository: text(get("project_key")),
        number: num(get("number")),
        title: text(get("title")),
        author: text(get("author_username")),
        openedAt: time(get("created_at")),
        mergedAt: time(get("merged_at")),
        cycleTimeSeconds: num(get("cycle_time_seconds")),
        aiAssisted: bool(get("ai_assisted")),
        aiAssistedBecause: because.length > 0 ? because.join(", ") : null
      };
    }
  },
  change_lead_times: {
    dimensions: ["id", "project_key", "number", "title", "author_username", "opened_at", "merged_at", "first_commit_at", "first_commit_known", "deployment_external_id", "deployed_at", "lead_time_seconds"],
    columns: [
      ...PR_COLUMNS,
      { key: "firstCommitAt", title: "First commit", type: "time" },
      { key: "firstCommitKnown", title: "First commit known", type: "boolean" },
      { key: "deployment", title: "Shipped by", type: "text" },
      { key: "deployedAt", title: "Deployed", type: "time" },
      { key: "leadTimeSeconds", title: "Lead time", type: "seconds" }
    ],
    present: (get) => ({
      id: String(get("id")),
      repository: text(get("project_key")),
      number: num(get("number")),
      title: text(get("title")),
      author: text(get("author_username")),
      openedAt: time(get("opened_at")),
      mergedAt: time(get("merged_at")),
      firstCommitAt: time(get("first_commit_at")),
      firstCommitKnown: bool(get("first_commit_known")),
      deployment: text(get("deployment_external_id")),
      deployedAt: time(get("deployed_at")),
      leadTimeSeconds: num(get("lead_time_seconds"))
    })
  },
  issues: {
    dimensions: ["id", "external_id", "title", "type", "project_key", "created_at", "closed_at", "lead_time_seconds"],
    columns: [
      ...ISSUE_COLUMNS,
      { key: "leadTimeSeconds", title: "Lead time", type: "seconds" }
    ],
    present: (get) => ({
      ...issueFields(get),
      type: text(get("type")),
      leadTimeSeconds: num(get("lead_time_seconds"))
    })
  },
  incidents: {
    dimensions: ["id", "external_id", "title", "project_key", "created_at", "closed_at", "restore_seconds", "caused_by_external_id", "cause_rule"],
    columns: [
      ...ISSUE_COLUMNS,
      { key: "timeToRestoreSeconds", title: "Time to restore", type: "seconds" },
      { key: "causedBy", title: "Caused by deployment", type: "text" },
      { key: "causeDecidedBy", title: "Cause decided by", type: "text" }
    ],
    present: (get) => ({
      ...issueFields(get),
      type: "incident",
      timeToRestoreSeconds: num(get("restore_seconds")),
      causedBy: text(get("caused_by_external_id")),
      causeDecidedBy: CAUSE_RULES[String(get("cause_rule"))] ?? null
    })
  }
};
function presentFact(kind, row) {
  return KINDS[kind].present((d) => row[`${kind}.${d}`]);
}
function csvCells(kind, fact) {
  const record = fact;
  return ["id", ...KINDS[kind].columns.map((c) => c.key)].map((key) => {
    const v = record[key];
    return v === null || v === void 0 ? "" : typeof v === "boolean" ? String(v) : v;
  });
}
export {
  KINDS,
  csvCells,
  deploymentReason,
  hours,
  presentFact
};
