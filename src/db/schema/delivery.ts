import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './identity.js';
import { teams } from './organisation.js';

/** A project's deployment source: the webhook API, or the code host's deployments, workflow runs or releases. */
export const DEPLOYMENT_SOURCES = ['webhook', 'deployments', 'workflow_runs', 'releases'] as const;
export type DeploymentSource = (typeof DEPLOYMENT_SOURCES)[number];

/**
 * A repository, `<owner>/<repo>`; created by the first webhook, tracker or code-host event that
 * names it. One project per repository whatever the source (keys compared case-insensitively);
 * `provider` is `codehost` once the code-host application reports it, else `manual`.
 */
export const projects = pgTable(
  'projects',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    projectKey: text('project_key').notNull(),
    sourceType: text('source_type').notNull(),
    syncIssues: boolean('sync_issues').notNull().default(true),
    syncPullRequests: boolean('sync_pull_requests').notNull().default(true),
    syncDeployments: boolean('sync_deployments').notNull().default(true),
    /** Last issue number handed out when a webhook omits `number`; bumped under the row lock. */
    issueSeq: integer('issue_seq').notNull().default(0),
    /** The team the project's facts count for (METRICS.md "Attribution"); at most one. */
    owningTeamId: uuid('owning_team_id').references(() => teams.id, { onDelete: 'set null' }),
    /**
     * Where its deployments come from, one source at a time (docs/codehost-deployments.md): NULL
     * until the first source that delivers a deployment claims it or an owner chooses one.
     */
    deploymentSource: text('deployment_source').$type<DeploymentSource>(),
    /** The workflow file (`deploy.yml`) whose completed runs are production deployments (source `workflow_runs`). */
    deploymentWorkflow: text('deployment_workflow'),
    /** The branch those runs must be of; NULL: the repository's default branch. */
    deploymentBranch: text('deployment_branch'),
    /** The code host's environment name that is production; NULL: `production`. */
    productionEnvironment: text('production_environment'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('projects_tenant_key').on(t.tenantId, sql`lower(${t.projectKey})`),
    index('projects_owning_team_idx').on(t.owningTeamId),
    check('projects_deployment_source', sql`${t.deploymentSource} in ('webhook', 'deployments', 'workflow_runs', 'releases')`),
  ],
);

/**
 * The organisation-wide workflow pattern (docs/codehost-deployments.md): completed runs of a
 * matching workflow on the branch (NULL: the repository's default branch) are production
 * deployments of projects with no source yet, or with workflow runs but no workflow of their own.
 */
export const deploymentSourceDefaults = pgTable('deployment_source_defaults', {
  tenantId: uuid('tenant_id').primaryKey().references(() => tenants.id, { onDelete: 'cascade' }),
  workflow: text('workflow').notNull(),
  branch: text('branch'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const issues = pgTable(
  'issues',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    externalId: text('external_id').notNull(),
    number: integer('number').notNull(),
    title: text('title').notNull(),
    type: text('type').notNull(),
    state: text('state').notNull(),
    body: text('body'),
    url: text('url'),
    authorUsername: text('author_username'),
    assigneeUsername: text('assignee_username'),
    labels: text('labels').array().notNull().default(sql`'{}'::text[]`),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('issues_tenant_provider_external').on(t.tenantId, t.provider, t.externalId),
    index('issues_project_number_idx').on(t.projectId, t.number),
    // Partial: with (tenant_id) alone as a usable prefix, a plan made while the table was nearly
    // empty could look an issue up by tenant here instead of through the unique index above, and
    // keep doing so as the table grew (measured: 3,000 rows read per webhook; docs/webhooks.md).
    index('issues_tenant_closed_idx').on(t.tenantId, t.closedAt).where(sql`closed_at is not null`),
    // The incidents that may have been caused by one deployment (deployment_facts, migrations 0020
    // and 0021): those naming it, and those of its project opened in the 24 hours after it.
    index('issues_incident_named_idx').on(t.tenantId, sql`(metadata ->> 'causedByDeployment')`).where(sql`type = 'incident'`),
    index('issues_incident_project_created_idx').on(t.projectId, t.createdAt).where(sql`type = 'incident'`),
  ],
);

export const deployments = pgTable(
  'deployments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').notNull().references(() => projects.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    externalId: text('external_id').notNull(),
    ref: text('ref').notNull(),
    sha: text('sha').notNull(),
    environment: text('environment').notNull(),
    status: text('status').notNull(),
    task: text('task').notNull(),
    description: text('description'),
    url: text('url'),
    creatorUsername: text('creator_username'),
    /** As sent: NULL when the sender did not say (production is then decided by environment). */
    isProduction: boolean('is_production'),
    isRollback: boolean('is_rollback').notNull().default(false),
    rollbackFromSha: text('rollback_from_sha'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('deployments_tenant_provider_external').on(t.tenantId, t.provider, t.externalId),
    index('deployments_project_created_idx').on(t.projectId, t.createdAt),
    // The deployments a rollback names (migration 0007; since 0021 the facts trigger's lookup from a
    // written rollback).
    index('deployments_project_sha7_idx').on(t.projectId, sql`left(lower(${t.sha}), 7)`),
    // The later rollbacks that may name one deployment's sha (deployment_facts, migrations 0020 and 0021).
    // A project's rows by source in time: whether its current source has a record at or before a
    // deployment (one source per period, deployment_replaced_by, migration 0064).
    index('deployments_project_source_created_idx').on(t.projectId, sql`deployment_source_of(${t.provider}, ${t.metadata})`, t.createdAt),
    index('deployments_rollback_sha7_idx').on(t.projectId, sql`left(lower(${t.rollbackFromSha}), 7)`).where(sql`is_rollback`),
    // Successful production deployments in order, per project: the deployment that ships a merged
    // pull request and the one before it, an incident's recent cause (change_lead_times and
    // deployment_facts, kept by the triggers of migration 0021).
    index('deployments_project_production_success_idx')
      .on(t.projectId, t.createdAt, t.id)
      .where(sql`status = 'success' AND COALESCE(is_production, environment = 'production')`),
  ],
);
