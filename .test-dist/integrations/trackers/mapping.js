import { z } from "zod";
import { FIELD_LIMITS, ISSUE_STATES, ISSUE_TYPES, IssueWebhook } from "../../webhooks/schemas.js";
const name = z.string().trim().min(1, "Enter a name").max(255, "At most 255 characters");
const projectKey = z.string().trim().max(FIELD_LIMITS.projectKey).regex(/^[^\s/]+(\/[^\s/]+)+$/, "Must have the form <owner>/<repo>");
const TrackerMapping = z.strictObject({
  /** Tracker project key (Jira) or team key (Linear) → our projectKey. */
  projects: z.record(name, projectKey).default({}),
  /** Jira issue type name or Linear label name (case-insensitive) → our type. */
  types: z.record(name, z.enum(ISSUE_TYPES)).default({}),
  /** Tracker status name (case-insensitive) → our state. */
  states: z.record(name, z.enum(ISSUE_STATES)).default({})
});
const TrackerMappingChange = TrackerMapping.superRefine((m, ctx) => {
  for (const field of ["types", "states"]) {
    const seen = /* @__PURE__ */ new Map();
    for (const key of Object.keys(m[field])) {
      const first = seen.get(key.toLowerCase());
      if (first === void 0) seen.set(key.toLowerCase(), key);
      else ctx.addIssue({ code: "custom", path: [field, key], message: `Already mapped as \u201C${first}\u201D: names are compared without case` });
    }
  }
});
const TrackerSettings = z.strictObject({
  mapping: TrackerMapping.default({ projects: {}, types: {}, states: {} }),
  /** How far back the first sync reaches. */
  backfillMonths: z.number().int().min(1).max(36).default(12),
  /** The site's web address, kept at connect for issue links (Jira). */
  siteUrl: z.url().nullable().default(null)
});
function settingsOf(stored) {
  const parsed = TrackerSettings.safeParse(stored ?? {});
  return parsed.success ? parsed.data : TrackerSettings.parse({});
}
const DEFAULT_TYPES = {
  bug: "bug",
  defect: "bug",
  incident: "incident",
  "post-incident review": "incident",
  story: "feature",
  feature: "feature",
  epic: "feature",
  improvement: "feature",
  enhancement: "feature",
  task: "chore",
  "sub-task": "chore",
  subtask: "chore",
  chore: "chore",
  spike: "discovery",
  discovery: "discovery",
  research: "discovery"
};
const lower = (record) => new Map(Object.entries(record).map(([k, v]) => [k.toLowerCase(), v]));
function typeOf(issue, owner) {
  const names = [issue.issueType, ...issue.labels].filter((n) => n !== null).map((n) => n.toLowerCase());
  for (const n of names) {
    const mapped = owner.get(n);
    if (mapped) return mapped;
  }
  for (const n of names) {
    const mapped = DEFAULT_TYPES[n.replace(/^(type|kind)[:/]\s*/, "")];
    if (mapped) return mapped;
  }
  return "other";
}
const defaultProjectKey = (kind, project) => `${kind}/${project.replace(/[\s/]+/g, "-")}`;
const clip = (value, max) => value === null ? void 0 : value.slice(0, max);
function toIssueWebhook(kind, site, issue, settings) {
  const m = settings.mapping;
  const state = lower(m.states).get(issue.status.toLowerCase()) ?? issue.statusCategory;
  const closed = state === "closed";
  return IssueWebhook.parse({
    projectKey: m.projects[issue.project] ?? defaultProjectKey(kind, issue.project),
    externalId: kind === "jira" ? `${site}:${issue.id}` : issue.id,
    title: issue.title.slice(0, FIELD_LIMITS.title) || issue.key,
    type: typeOf(issue, lower(m.types)),
    state,
    body: clip(issue.body, FIELD_LIMITS.body),
    url: clip(issue.url, FIELD_LIMITS.url),
    authorUsername: clip(issue.author, FIELD_LIMITS.username),
    assigneeUsername: clip(issue.assignee, FIELD_LIMITS.username),
    labels: [...new Set(issue.labels.map((l) => l.slice(0, FIELD_LIMITS.label)).filter(Boolean))].slice(0, FIELD_LIMITS.labels),
    createdAt: issue.createdAt,
    // A closed issue closes at its resolution time; one the owner maps to closed without a
    // resolution closes at its last update. An open one has no close time.
    closedAt: closed ? issue.resolvedAt ?? issue.updatedAt : null,
    metadata: { trackerKey: issue.key, trackerProject: issue.project, trackerStatus: issue.status, ...issue.issueType ? { trackerType: issue.issueType } : {} }
  });
}
export {
  TrackerMapping,
  TrackerMappingChange,
  TrackerSettings,
  defaultProjectKey,
  settingsOf,
  toIssueWebhook
};
