/**
 * The owner's mapping of a tracker onto our records: which of our projects (`projectKey`) a tracker
 * project or team counts for, and which of our issue types and states a tracker's types, labels
 * and statuses are. Stored in the connection's settings (`settings.mapping`); anything not mapped
 * takes the defaults below.
 */
import { z } from 'zod';
import { FIELD_LIMITS, ISSUE_STATES, ISSUE_TYPES, IssueWebhook } from '../../webhooks/schemas.js';
import type { TrackerIssue, TrackerKind } from './types.js';

const name = z.string().trim().min(1, 'Enter a name').max(255, 'At most 255 characters');
const projectKey = z.string().trim().max(FIELD_LIMITS.projectKey).regex(/^[^\s/]+(\/[^\s/]+)+$/, 'Must have the form <owner>/<repo>');

export const TrackerMapping = z.strictObject({
  /** Tracker project key (Jira) or team key (Linear) → our projectKey. */
  projects: z.record(name, projectKey).default({}),
  /** Jira issue type name or Linear label name (case-insensitive) → our type. */
  types: z.record(name, z.enum(ISSUE_TYPES)).default({}),
  /** Tracker status name (case-insensitive) → our state. */
  states: z.record(name, z.enum(ISSUE_STATES)).default({}),
});
export type TrackerMapping = z.infer<typeof TrackerMapping>;

/**
 * The mapping as an owner sends it: type and status names are looked up without case, so two
 * names differing only in case ("Bug", "bug") would contend; the second is refused where it is.
 */
export const TrackerMappingChange = TrackerMapping.superRefine((m, ctx) => {
  for (const field of ['types', 'states'] as const) {
    const seen = new Map<string, string>();
    for (const key of Object.keys(m[field])) {
      const first = seen.get(key.toLowerCase());
      if (first === undefined) seen.set(key.toLowerCase(), key);
      else ctx.addIssue({ code: 'custom', path: [field, key], message: `Already mapped as “${first}”: names are compared without case` });
    }
  }
});

export const TrackerSettings = z.strictObject({
  mapping: TrackerMapping.default({ projects: {}, types: {}, states: {} }),
  /** How far back the first sync reaches. */
  backfillMonths: z.number().int().min(1).max(36).default(12),
  /** The site's web address, kept at connect for issue links (Jira). */
  siteUrl: z.url().nullable().default(null),
});
export type TrackerSettings = z.infer<typeof TrackerSettings>;

/** The stored settings, with defaults for anything missing or unreadable. */
export function settingsOf(stored: unknown): TrackerSettings {
  const parsed = TrackerSettings.safeParse(stored ?? {});
  return parsed.success ? parsed.data : TrackerSettings.parse({});
}

/** Jira's standard issue types; Linear's labels go through the code host's label rules plus these. */
const DEFAULT_TYPES: Record<string, (typeof ISSUE_TYPES)[number]> = {
  bug: 'bug',
  defect: 'bug',
  incident: 'incident',
  'post-incident review': 'incident',
  story: 'feature',
  feature: 'feature',
  epic: 'feature',
  improvement: 'feature',
  enhancement: 'feature',
  task: 'chore',
  'sub-task': 'chore',
  subtask: 'chore',
  chore: 'chore',
  spike: 'discovery',
  discovery: 'discovery',
  research: 'discovery',
};

const lower = (record: Record<string, string>) => new Map(Object.entries(record).map(([k, v]) => [k.toLowerCase(), v]));

function typeOf(issue: TrackerIssue, owner: Map<string, string>): (typeof ISSUE_TYPES)[number] {
  // The owner's choice first, for the type and then each label; then the defaults in the same order.
  const names = [issue.issueType, ...issue.labels].filter((n): n is string => n !== null).map((n) => n.toLowerCase());
  for (const n of names) {
    const mapped = owner.get(n);
    if (mapped) return mapped as (typeof ISSUE_TYPES)[number];
  }
  for (const n of names) {
    const mapped = DEFAULT_TYPES[n.replace(/^(type|kind)[:/]\s*/, '')];
    if (mapped) return mapped;
  }
  return 'other';
}

/** The default projectKey of an unmapped tracker project: `jira/ENG`, `linear/ENG`. */
export const defaultProjectKey = (kind: TrackerKind, project: string) => `${kind}/${project.replace(/[\s/]+/g, '-')}`;

const clip = (value: string | null, max: number) => (value === null ? undefined : value.slice(0, max));

/**
 * One tracker issue as the webhook API's issue, so it goes through the same validation and the
 * same statement. `externalId` is prefixed with the site for Jira (issue ids repeat across sites).
 */
export function toIssueWebhook(kind: TrackerKind, site: string, issue: TrackerIssue, settings: TrackerSettings): IssueWebhook {
  const m = settings.mapping;
  const state = (lower(m.states).get(issue.status.toLowerCase()) as (typeof ISSUE_STATES)[number] | undefined) ?? issue.statusCategory;
  const closed = state === 'closed';
  return IssueWebhook.parse({
    projectKey: m.projects[issue.project] ?? defaultProjectKey(kind, issue.project),
    externalId: kind === 'jira' ? `${site}:${issue.id}` : issue.id,
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
    closedAt: closed ? (issue.resolvedAt ?? issue.updatedAt) : null,
    metadata: { trackerKey: issue.key, trackerProject: issue.project, trackerStatus: issue.status, ...(issue.issueType ? { trackerType: issue.issueType } : {}) },
  });
}
