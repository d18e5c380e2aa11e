/**
 * Every job kind and every schedule, as data. A capability adds its jobs here (their definitions
 * live in its own folder) and `delivery-analytics migrate` creates a queue for each.
 */
import type pg from 'pg';
import type { Config } from './config/index.js';
import { runMigrations, type SchemaStatus } from './db/migrations.js';
import type { JobDefinition } from './jobs/define.js';
import { loginSessionsCleanup } from './identity/jobs.js';
import { oauthRecordsCleanup } from './oauth/jobs.js';
import { biWatchdog } from './bi/jobs.js';
import { expireJobs, jobRetention } from './jobs/maintenance.js';
import { codehostDeliveriesRetention, integrationsFlagStale } from './codehost/jobs.js';
import { codehostBackfill, codehostBackfillsResume, codehostInstallationBackfill } from './codehost/backfill.js';
import { cubeRollupsRefresh, deliveryFactsCatchUp, ROLLUPS_SWEEP } from './cube/jobs.js';
import { registerImportWorkflow } from './organisation/jobs.js';
import { sendSurveyInvitations, surveysCloseDue } from './surveys/jobs.js';
import type { ScheduleDefinition } from './jobs/scheduler.js';
import { sessionAssessmentJob, sessionSummaryJob } from './aiSessions/jobs.js';
import { testJobs, testSchedules } from './jobs/testHooks.js';
import { aiVendorPull, aiVendorsPullDue } from './aiVendors/jobs.js';
import { aiTelemetryRetention } from './aiTelemetry/jobs.js';
import { trackerSyncWorkflow } from './integrations/trackers/syncJob.js';
import { TRACKERS_SWEEP, trackersSyncDue } from './integrations/trackers/dueJob.js';
import { slashCommandJob } from './integrations/slack/command.js';
import { notionPublish, notionPublishDue } from './integrations/notion/jobs.js';
import { DIGEST_SCHEDULE, slackDigest, slackDigestsDue } from './integrations/slack/digest.js';
import { CORPUS_SCHEDULE, corpusWorkflow } from './benchmarks/workflow.js';
import { loadShippedSnapshotOnMigrate } from './benchmarks/store.js';

export const jobCatalog: readonly JobDefinition[] = [
  expireJobs,
  jobRetention,
  loginSessionsCleanup,
  oauthRecordsCleanup,
  surveysCloseDue,
  integrationsFlagStale,
  codehostDeliveriesRetention,
  codehostBackfill,
  codehostBackfillsResume,
  codehostInstallationBackfill,
  registerImportWorkflow,
  sendSurveyInvitations,
  cubeRollupsRefresh,
  deliveryFactsCatchUp,
  trackerSyncWorkflow,
  trackersSyncDue,
  slashCommandJob,
  slackDigestsDue,
  slackDigest,
  notionPublishDue,
  notionPublish,
  sessionSummaryJob,
  sessionAssessmentJob,
  biWatchdog,
  corpusWorkflow,
  aiVendorPull,
  aiVendorsPullDue,
  aiTelemetryRetention,
];

const MINUTE = 60;
const HOUR = 3600;

export const scheduleCatalog: readonly ScheduleDefinition[] = [
  { name: 'jobs.expire', job: 'jobs.expire', everySeconds: 30, summary: 'Every 30 s: jobs of a dead instance go back to the queue once expired.' },
  { name: 'jobs.retention', job: 'jobs.retention', everySeconds: HOUR, offsetSeconds: 7 * MINUTE, summary: 'Hourly at :07: job-row retention.' },
  { name: 'identity.sessions-cleanup', job: 'identity.sessions-cleanup', everySeconds: HOUR, offsetSeconds: 13 * MINUTE, summary: 'Hourly at :13: expired login sessions and sign-in links.' },
  { name: 'oauth.records-cleanup', job: 'oauth.records-cleanup', everySeconds: HOUR, offsetSeconds: 19 * MINUTE, summary: 'Hourly at :19: expired OAuth records.' },
  { name: 'surveys.close-due', job: 'surveys.close-due', everySeconds: MINUTE, summary: 'Every minute: close surveys past their close date.' },
  { name: 'integrations.flag-stale', job: 'integrations.flag-stale', everySeconds: 24 * HOUR, offsetSeconds: 2 * HOUR + 30 * MINUTE, summary: 'Nightly at 02:30 UTC: flag stale integrations.' },
  { name: 'cube.delivery-facts-catch-up', job: 'cube.delivery-facts-catch-up', everySeconds: 5, summary: 'Every 5 s: stored delivery facts of the writes noted since the last read (reads catch up themselves; this keeps them quick and BI views current).' },
  { name: 'cube.rollups-refresh', job: 'cube.rollups-refresh', everySeconds: MINUTE, offsetSeconds: 30, summary: 'Every minute at :30: rollup months missing or changed since they were computed.' },
  { name: 'trackers.sync-due', job: 'trackers.sync-due', everySeconds: 30 * MINUTE, offsetSeconds: 11 * MINUTE, summary: 'Every 30 minutes at :11 and :41: incremental sync of every issue-tracker connection (the safety net under webhooks).' },
  { name: TRACKERS_SWEEP, job: 'trackers.sync-due', everySeconds: 6 * HOUR, offsetSeconds: 26 * MINUTE, summary: 'Every 6 hours at 00:26, 06:26, 12:26, 18:26 UTC: the incremental sync of every issue-tracker connection plus the id sweep for deletes whose webhook was lost.' },
  { name: ROLLUPS_SWEEP, job: 'cube.rollups-refresh', everySeconds: HOUR, offsetSeconds: 25 * MINUTE, summary: 'Hourly at :25: every tenant’s rollups, whatever the change records say.' },
  DIGEST_SCHEDULE,
  CORPUS_SCHEDULE,
  { name: 'notion.publish-due', job: 'notion.publish-due', everySeconds: 24 * HOUR, offsetSeconds: 4 * HOUR, summary: 'Daily at 04:00 UTC: publish the last closed month to Notion where it is not published yet (in effect monthly, on the 1st).' },
  { name: 'bi.watchdog', job: 'bi.watchdog', everySeconds: 30, offsetSeconds: 15, summary: "Every 30 s at :15/:45: BI sessions past their credential's timeouts are stopped." },
  { name: 'codehost.backfills-resume', job: 'codehost.backfills-resume', everySeconds: 15, offsetSeconds: 10, summary: 'Every 15 s at :10/:25/:40/:55: code-host backfills whose worker died (no heartbeat for 30 s) continue from their cursor.' },
  { name: 'ai-vendors.pull-due', job: 'ai-vendors.pull-due', everySeconds: HOUR, offsetSeconds: 47 * MINUTE, summary: 'Hourly at :47: a pull of every AI tool vendor report source that is due (Cursor hourly, Claude Code Analytics and Copilot daily).' },
  { name: 'ai-telemetry.retention', job: 'ai-telemetry.retention', everySeconds: 24 * HOUR, offsetSeconds: 3 * HOUR + 40 * MINUTE, summary: 'Nightly at 03:40 UTC: AI telemetry metric series whose last point is older than AI_TELEMETRY_RETENTION_DAYS.' },
  { name: 'codehost.deliveries-retention', job: 'codehost.deliveries-retention', everySeconds: 24 * HOUR, offsetSeconds: 3 * HOUR + 10 * MINUTE, summary: 'Nightly at 03:10 UTC: code-host delivery ids older than 30 days.' },
];

/** The jobs this instance runs: the catalog, plus the test kinds under TEST_HOOKS. */
export function jobsFor(config: Pick<Config, 'testHooks'>): readonly JobDefinition[] {
  return config.testHooks ? [...jobCatalog, ...testJobs] : jobCatalog;
}

/** Under TEST_HOOKS the expiry sweep runs every second and the per-second test schedule is added. */
export function schedulesFor(config: Pick<Config, 'testHooks'>): readonly ScheduleDefinition[] {
  if (!config.testHooks) return scheduleCatalog;
  return [...scheduleCatalog.map((s) => (s.name === 'jobs.expire' ? { ...s, everySeconds: 1 } : s)), ...testSchedules];
}

/**
 * `migrate` (the CLI command, `npm start`, the tests' template database): the schema, the `bi`
 * views generated from the models, a queue for each job of this catalog, then the shipped benchmark
 * snapshot. src/db/migrations.ts is handed all three, as infrastructure imports no capability
 * (docs/architecture.md).
 */
export function migrateDatabase(pool: pg.Pool, dir?: string): Promise<SchemaStatus> {
  // Imported when migrating only: it compiles the Cube models.
  const generatedViews = async () => (await import('./bi/generated.js')).generatedBiViews();
  return runMigrations(pool, { jobs: jobCatalog, afterMigrate: loadShippedSnapshotOnMigrate, generatedViews }, dir);
}
