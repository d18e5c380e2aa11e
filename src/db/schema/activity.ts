import { sql } from 'drizzle-orm';
import { bigint, boolean, check, doublePrecision, index, integer, jsonb, pgTable, pgView, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants, users } from './identity.js';
import { projects } from './delivery.js';

/**
 * An installation of the code-host application on an account. Rows exist before a tenant claims
 * them (the `installation` event or the first event of an unknown installation creates one), but
 * no event data of an unlinked installation is kept anywhere. `unlinked_logged_at` makes "logged
 * once" hold across instances: the instance whose update sets it writes the log line.
 */
export const codehostInstallations = pgTable(
  'codehost_installations',
  {
    installationId: bigint('installation_id', { mode: 'number' }).primaryKey(),
    tenantId: uuid('tenant_id').references(() => tenants.id, { onDelete: 'set null' }),
    accountLogin: text('account_login'),
    accountType: text('account_type'),
    linkedByUserId: uuid('linked_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    linkedAt: timestamp('linked_at', { withTimezone: true }),
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    unlinkedLoggedAt: timestamp('unlinked_logged_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('codehost_installations_tenant_idx').on(t.tenantId)],
);

/**
 * Deliveries already applied, keyed by `X-GitHub-Delivery`; inserted in the transaction that
 * applies the event, so a redelivery is a no-op and a failed one can be retried. Deliveries of
 * unlinked installations are not recorded (they are stored nowhere).
 */
export const codehostDeliveries = pgTable(
  'codehost_deliveries',
  {
    deliveryId: text('delivery_id').primaryKey(),
    /** Null for installation events, which belong to no tenant yet. */
    tenantId: uuid('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    installationId: bigint('installation_id', { mode: 'number' }),
    event: text('event').notNull(),
    action: text('action'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('codehost_deliveries_received_idx').on(t.receivedAt)],
);

/**
 * The 90-day backfill of one project's deployments from the code host's REST API, one row per
 * project and source (docs/codehost-deployments-backfill.md "Backfill"). The cursor is where the walk
 * stands (the page still to read, or the records listed and how many are applied), saved after
 * every page and record, so a restart, a retry or the continuation queued after a rate limit
 * resumes there; a finished walk starts afresh when asked for again.
 */
export const codehostBackfills = pgTable(
  'codehost_backfills',
  {
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    /** `deployments`, `workflow_runs` or `releases`. */
    source: text('source').notNull(),
    installationId: bigint('installation_id', { mode: 'number' }),
    /** Records created before this are not read (90 days before the walk began). */
    since: timestamp('since', { withTimezone: true }).notNull(),
    cursor: jsonb('cursor').$type<Record<string, unknown>>(),
    /** Records applied so far by this walk (stored or acknowledged as not used). */
    applied: integer('applied').notNull().default(0),
    /** The job running the walk, until `leaseUntil`: two walks of one project never run at once. */
    leaseJobId: text('lease_job_id'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** The code host's rate limit stopped the walk; its continuation is queued for this time. */
    waitingUntil: timestamp('waiting_until', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** Why the last run stopped short (no installation, not linked, the code host failed). */
    lastError: text('last_error'),
    /** The job whose request began this walk: its retry (after a continuation finished it) does not walk again. */
    startedByJobId: text('started_by_job_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.source] }), index('codehost_backfills_tenant_idx').on(t.tenantId)],
);

export const pullRequests = pgTable(
  'pull_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull().default('codehost'),
    externalId: text('external_id').notNull(),
    number: integer('number').notNull(),
    title: text('title').notNull(),
    url: text('url'),
    authorUsername: text('author_username'),
    /** open, closed (without merge) or merged. */
    state: text('state', { enum: ['open', 'closed', 'merged'] }).notNull(),
    draft: boolean('draft').notNull().default(false),
    additions: integer('additions').notNull().default(0),
    deletions: integer('deletions').notNull().default(0),
    changedFiles: integer('changed_files').notNull().default(0),
    commitCount: integer('commit_count').notNull().default(0),
    labels: text('labels').array().notNull().default(sql`'{}'::text[]`),
    headBranch: text('head_branch'),
    headSha: text('head_sha'),
    baseBranch: text('base_branch'),
    mergeCommitSha: text('merge_commit_sha'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /**
     * Ready for review (METRICS.md "PR phases"): when it was opened, or, opened as a draft, when it
     * was first marked ready (`ready_for_review`); null while a draft (docs/pr-phases.md).
     */
    readyAt: timestamp('ready_at', { withTimezone: true }),
    /**
     * The earliest review submitted by someone other than its author and not a bot
     * (pull_request_reviews), kept as reviews and the PR arrive in any order.
     */
    firstReviewAt: timestamp('first_review_at', { withTimezone: true }),
    mergedAt: timestamp('merged_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('pull_requests_project_number').on(t.projectId, t.number),
    index('pull_requests_tenant_merged_idx').on(t.tenantId, t.mergedAt),
    index('pull_requests_project_head_branch_idx').on(t.projectId, t.headBranch),
    // The pull requests a deployment ships: merged in a range of time (migration 0019's view; since
    // 0021 the stored change_lead_times has its own index, and this one serves no query we know).
    index('pull_requests_project_merged_idx').on(t.projectId, t.mergedAt).where(sql`merged_at IS NOT NULL`),
    // A revert PR by its title (`Revert "<title>"`, METRICS.md "Rework"): md5, since a title may be
    // longer than a btree entry may be.
    index('pull_requests_project_revert_title_idx').on(t.projectId, sql`md5(${t.title})`).where(sql`title LIKE 'Revert "%'`),
  ],
);

/**
 * Where each reviewer of a pull request stands, as the code host said last (docs/open-work.md):
 * `requested` (asked, not answered), `commented`, `approved`, `changes_requested` or `dismissed`.
 * Keyed by the PR's project and number rather than its row, so a review that arrives before the
 * PR's own event is kept. `at` is the moment the code host gives the change (the review's
 * submission, the PR's update for a request): an older delivery never overwrites a newer state.
 */
export const pullRequestReviewers = pgTable(
  'pull_request_reviewers',
  {
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    pullRequestNumber: integer('pull_request_number').notNull(),
    reviewer: text('reviewer').notNull(),
    state: text('state', { enum: ['requested', 'commented', 'approved', 'changes_requested', 'dismissed'] }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.pullRequestNumber, t.reviewer] }),
    check('pull_request_reviewers_state', sql`${t.state} in ('requested', 'commented', 'approved', 'changes_requested', 'dismissed')`),
  ],
);

/**
 * Every review submitted on a pull request (`pull_request_review` `submitted`, or the backfill's
 * `GET …/pulls/{n}/reviews`), one row per review id: the first review of a PR and the reviews given
 * per reviewer (docs/pr-phases.md). Keyed by the PR's project and number like pull_request_reviewers,
 * so a review that arrives before its PR is kept. `state` is the verdict as submitted; a later
 * dismissal does not remove the review (it was given).
 */
export const pullRequestReviews = pgTable(
  'pull_request_reviews',
  {
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    pullRequestNumber: integer('pull_request_number').notNull(),
    reviewId: bigint('review_id', { mode: 'number' }).notNull(),
    reviewer: text('reviewer').notNull(),
    reviewerIsBot: boolean('reviewer_is_bot').notNull().default(false),
    state: text('state', { enum: ['approved', 'changes_requested', 'commented', 'dismissed'] }).notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.reviewId] }),
    index('pull_request_reviews_pr_idx').on(t.projectId, t.pullRequestNumber, t.submittedAt),
    index('pull_request_reviews_tenant_submitted_idx').on(t.tenantId, t.submittedAt),
    check('pull_request_reviews_state', sql`${t.state} in ('approved', 'changes_requested', 'commented', 'dismissed')`),
  ],
);

/** Commits as pushed; one row per (project, sha), first-seen branch kept. */
export const commits = pgTable(
  'commits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    sha: text('sha').notNull(),
    branch: text('branch'),
    authorUsername: text('author_username'),
    authorName: text('author_name'),
    authorEmail: text('author_email'),
    committedAt: timestamp('committed_at', { withTimezone: true }).notNull(),
    message: text('message').notNull(),
    /** Every `Co-authored-by:` trailer, as written (`Name <email>`). */
    coauthors: text('coauthors').array().notNull().default(sql`'{}'::text[]`),
    /** AI tools recognised among the trailers (src/codehost/aiTrailers.ts), e.g. `claude`. */
    aiCoauthors: text('ai_coauthors').array().notNull().default(sql`'{}'::text[]`),
    /**
     * The AI trailers as written (`Co-authored-by: Claude <noreply@anthropic.com>`, `Made-with: Cursor`,
     * `Claude-Session: …`): the evidence of the medium attribution level (docs/ai-attribution.md).
     */
    aiTrailers: text('ai_trailers').array().notNull().default(sql`'{}'::text[]`),
    url: text('url'),
    /** The sha a revert commit names (`This reverts commit <sha>`, as git writes it): reverted PRs (METRICS.md "Rework"). */
    revertsSha: text('reverts_sha').generatedAlwaysAs(sql`lower(substring(message from 'This reverts commit ([0-9a-fA-F]{7,40})'))`),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('commits_project_sha').on(t.projectId, t.sha),
    index('commits_tenant_sha_idx').on(t.tenantId, t.sha),
    index('commits_tenant_committed_idx').on(t.tenantId, t.committedAt),
    index('commits_project_branch_idx').on(t.projectId, t.branch),
    index('commits_project_reverts_idx').on(t.projectId, sql`left(${t.revertsSha}, 7)`).where(sql`reverts_sha IS NOT NULL`),
  ],
);

/** Which commits belong to which pull request (by the PR's head branch and head sha). */
export const pullRequestCommits = pgTable(
  'pull_request_commits',
  {
    pullRequestId: uuid('pull_request_id').notNull().references(() => pullRequests.id, { onDelete: 'cascade' }),
    commitId: uuid('commit_id').notNull().references(() => commits.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.pullRequestId, t.commitId] }), index('pull_request_commits_commit_idx').on(t.commitId)],
);

/**
 * An AI coding session, uploaded by a user (`source` upload) or built from a tool's OpenTelemetry
 * (`source` telemetry, src/aiTelemetry: one row per tool session, its counters added up at intake).
 * The repository is kept as its `project_key`, not a project id, so a session that arrives before
 * the repository's first event still links once the project appears. The person behind it is found
 * at query time through the uploader's e-mail, or the telemetry's `user.email`, in
 * person_identities (never resolved at write time, so a later register import re-attributes it).
 */
export const aiSessions = pgTable(
  'ai_sessions',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    /** The uploader; none for telemetry, which names a person by e-mail, not a user of ours. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** `upload` (POST /api/sessions) or `telemetry` (OTLP intake). */
    source: text('source').notNull().default('upload'),
    /** Telemetry: the tool's own session id (`session.id`, `conversation.id`), unique per tool. */
    telemetryId: text('telemetry_id'),
    /** Telemetry: `user.email`, lower-cased; matched to a person at query time. */
    personEmail: text('person_email'),
    /** Telemetry: the tool's account id (`user.account_uuid`, `user.account_id`) when no e-mail came. */
    personAccount: text('person_account'),
    /** The client's own id for the session; a second upload with the same one is a conflict. */
    externalId: text('external_id'),
    tool: text('tool').notNull(),
    model: text('model'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    projectKey: text('project_key'),
    branch: text('branch'),
    prNumber: integer('pr_number'),
    commitShas: text('commit_shas').array().notNull().default(sql`'{}'::text[]`),
    inputTokens: bigint('input_tokens', { mode: 'number' }).notNull().default(0),
    outputTokens: bigint('output_tokens', { mode: 'number' }).notNull().default(0),
    cacheReadTokens: bigint('cache_read_tokens', { mode: 'number' }).notNull().default(0),
    cacheWriteTokens: bigint('cache_write_tokens', { mode: 'number' }).notNull().default(0),
    messageCount: integer('message_count').notNull().default(0),
    toolCallCount: integer('tool_call_count').notNull().default(0),
    // Telemetry counters, added to at intake (0 for uploads, whose transcripts say none of this).
    promptCount: integer('prompt_count').notNull().default(0),
    apiRequestCount: integer('api_request_count').notNull().default(0),
    linesAdded: bigint('lines_added', { mode: 'number' }).notNull().default(0),
    linesRemoved: bigint('lines_removed', { mode: 'number' }).notNull().default(0),
    editsAccepted: integer('edits_accepted').notNull().default(0),
    editsRejected: integer('edits_rejected').notNull().default(0),
    commitCount: integer('commit_count').notNull().default(0),
    pullRequestCount: integer('pull_request_count').notNull().default(0),
    activeSeconds: doublePrecision('active_seconds').notNull().default(0),
    /**
     * Digests of the last log batches counted into this row (newest first, at most
     * RECENT_BATCHES): an exporter re-sending a batch after a timeout finds its digest here.
     */
    recentBatches: bigint('recent_batches', { mode: 'bigint' }).array().notNull().default(sql`'{}'::bigint[]`),
    transcriptKey: text('transcript_key'),
    transcriptBytes: integer('transcript_bytes'),
    transcriptLines: integer('transcript_lines'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ai_sessions_tenant_started_idx').on(t.tenantId, t.startedAt),
    index('ai_sessions_tenant_user_idx').on(t.tenantId, t.userId),
    index('ai_sessions_tenant_project_idx').on(t.tenantId, t.projectKey),
    // Linking looks sessions up by PR number and by branch (commit shas: ai_session_shas).
    index('ai_sessions_tenant_project_pr_idx').on(t.tenantId, t.projectKey, t.prNumber),
    index('ai_sessions_tenant_project_branch_idx').on(t.tenantId, t.projectKey, t.branch),
    uniqueIndex('ai_sessions_tenant_external').on(t.tenantId, t.externalId),
    uniqueIndex('ai_sessions_tenant_telemetry').on(t.tenantId, t.tool, t.telemetryId),
    check('ai_sessions_source', sql`${t.source} in ('upload', 'telemetry')`),
    check('ai_sessions_upload_user', sql`${t.source} <> 'upload' or ${t.userId} is not null`),
  ],
);

/**
 * The commit shas (or sha prefixes, 7–40 hex characters) a session names, one row each, so a push
 * finds the sessions naming any prefix of its commits with one index lookup.
 */
export const aiSessionShas = pgTable(
  'ai_session_shas',
  {
    sessionId: uuid('session_id').notNull().references(() => aiSessions.id, { onDelete: 'cascade' }),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    sha: text('sha').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.sha] }), index('ai_session_shas_tenant_sha_idx').on(t.tenantId, t.sha)],
);

/**
 * Session ↔ pull request or commit. Exactly one of pull_request_id and commit_id is set.
 * `linked_by` says which fact joined them: pr_number, branch, commit_sha (the session named the
 * commit) or commit_pr (the PR contains a commit the session named).
 */
export const aiSessionLinks = pgTable(
  'ai_session_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id').notNull().references(() => aiSessions.id, { onDelete: 'cascade' }),
    pullRequestId: uuid('pull_request_id').references(() => pullRequests.id, { onDelete: 'cascade' }),
    commitId: uuid('commit_id').references(() => commits.id, { onDelete: 'cascade' }),
    linkedBy: text('linked_by', { enum: ['pr_number', 'branch', 'commit_sha', 'commit_pr'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ai_session_links_session_pr').on(t.sessionId, t.pullRequestId).where(sql`pull_request_id is not null`),
    uniqueIndex('ai_session_links_session_commit').on(t.sessionId, t.commitId).where(sql`commit_id is not null`),
    index('ai_session_links_pr_idx').on(t.pullRequestId),
    index('ai_session_links_commit_idx').on(t.commitId),
    check('ai_session_links_one_target', sql`(pull_request_id is null) <> (commit_id is null)`),
  ],
);

/**
 * Kept for whoever reads it (src/cube/sql/pull_request_ai_assisted.sql): a PR is AI-assisted when its attribution level is high
 * or medium (METRICS.md "AI attribution"); `via_session` is any high signal, `via_trailer` an AI
 * trailer, `via_label` the label ai-assisted or one the owner configured. The level and its evidence
 * are in the view pull_request_attribution (docs/ai-attribution.md).
 */
export const pullRequestAiAssisted = pgView('pull_request_ai_assisted', {
  pullRequestId: uuid('pull_request_id').notNull(),
  tenantId: uuid('tenant_id').notNull(),
  viaSession: boolean('via_session').notNull(),
  viaTrailer: boolean('via_trailer').notNull(),
  viaLabel: boolean('via_label').notNull(),
  aiAssisted: boolean('ai_assisted').notNull(),
}).existing();
