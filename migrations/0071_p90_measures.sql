-- The 90th percentile beside each median (issue 46 point 4): five new cube measures, no new view column; the bi views' value columns name them in their comments, as tools/bi/generate.ts writes them.
COMMENT ON COLUMN "bi"."change_lead_times"."lead_time_seconds" IS 'Seconds from the first commit (else the PR''s createdAt) to the deploying deployment; the value lead_time_for_changes_p50_seconds takes the median of. Empty when not deployed.
lead_time_for_changes_p50_seconds: DORA lead time for changes. Median seconds from a merged PR''s first commit (its createdAt when no commit is known) to the first successful production deployment of the same project created at or after the merge, over the deployments created in the period; empty when none.
lead_time_for_changes_p90_seconds: 90th percentile of the lead time for changes over the deployments created in the period (the same changes as lead_time_for_changes_p50_seconds); empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."deployments"."recovery_seconds" IS 'Seconds from this failed deployment to its recovery; the value failed_deployment_recovery_time_p50_seconds takes the median of. Empty when not recovered.
failed_deployment_recovery_time_p50_seconds: DORA failed deployment recovery time (since 2023). Median seconds from a failed production deployment created in the period to the next successful, not rolled back, production deployment of the same project.
failed_deployment_recovery_time_p90_seconds: 90th percentile of the failed deployment recovery time over the failed production deployments created in the period that recovered; empty when none.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."incidents"."restore_seconds" IS 'closedAt − createdAt in seconds of a restored incident (else empty); the value mttr_p50_seconds takes the median of.
mttr_p50_seconds: DORA time to restore service. Median of closedAt − createdAt in seconds over incidents closed in the period; empty when none closed.
mttr_p90_seconds: 90th percentile of closedAt − createdAt in seconds over incidents closed in the period; empty when none closed.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."issues"."lead_time_seconds" IS 'closedAt − createdAt in seconds of a closed issue (else empty); the value issue_lead_time_p50_seconds takes the median of.
issue_lead_time_p50_seconds: Median of closedAt − createdAt in seconds over the issues closed in the period; empty when none closed.
issue_lead_time_p90_seconds: 90th percentile of closedAt − createdAt in seconds over the issues closed in the period; empty when none closed.';
--> statement-breakpoint
COMMENT ON COLUMN "bi"."pull_requests"."cycle_time_seconds" IS 'mergedAt − createdAt in seconds (empty when not merged); the value pr_cycle_time_p50_seconds takes the median of.
pr_cycle_time_p50_seconds: Median of mergedAt − createdAt (opened to merged) in seconds over the PRs merged in the period; empty when none merged.
pr_cycle_time_p90_seconds: 90th percentile of mergedAt − createdAt (opened to merged) in seconds over the PRs merged in the period (nine in ten merged sooner or as soon); empty when none merged.';
