-- Reverted within 30 days, stored per merged PR (issue 47, METRICS.md "Rework"; docs/pr-phases.md
-- "Reverted, stored"): the rule was a subquery per PR in cube_pull_requests, evaluated for every merged
-- PR of a window on each read (about 0.5 s of each AI impact query over the 200-team bench tenant's
-- 133,000 merged PRs of a year). It is now computed by change_lead_times_refresh (src/cube/sql/) for
-- the PRs the delivery facts' notes name, together with the PRs a noted PR may revert or may have
-- reverted (delivery_facts_catch_up), and read from change_lead_times.
-- reverted_because: why the PR counts as reverted (the rule's text), reverted_by: the reverting PR,
-- kept so that a reverting PR changed or deleted later recomputes the PR it had reverted. No foreign
-- key: a deleted reverting PR must leave its id here for that recomputation to find.
ALTER TABLE "change_lead_times" ADD COLUMN "reverted_because" text, ADD COLUMN "reverted_by" uuid;
--> statement-breakpoint
CREATE INDEX "change_lead_times_reverted_by_idx" ON "change_lead_times" ("reverted_by") WHERE "reverted_by" IS NOT NULL;
--> statement-breakpoint
-- Every existing reverted PR, by the rule as the view still computes it before this release's files
-- are applied: noted, so that the catch-up recomputes it with change_lead_times_refresh (the rule's
-- one definition, applied by this same `migrate` after the versioned migrations) and stores its
-- reason and reverting PR. A PR not reverted keeps the columns empty, which is its answer. A fresh
-- database has no rows here.
INSERT INTO "delivery_facts_pending" (tenant_id, kind, id)
SELECT v.tenant_id, 'p', v.id FROM "cube_pull_requests" v WHERE v.is_reverted;
--> statement-breakpoint
-- The inputs of the rule a PR or commit update may change: a PR's title or merge commit, a commit's
-- sha or the sha its message says it reverts (commits.reverts_sha, generated from the message).
DROP TRIGGER "delivery_facts_note_update" ON "pull_requests";
--> statement-breakpoint
CREATE TRIGGER "delivery_facts_note_update" AFTER UPDATE ON "pull_requests" FOR EACH ROW
  WHEN ((OLD.project_id, OLD.merged_at, OLD.created_at, OLD.title, OLD.merge_commit_sha) IS DISTINCT FROM (NEW.project_id, NEW.merged_at, NEW.created_at, NEW.title, NEW.merge_commit_sha))
  EXECUTE FUNCTION delivery_facts_note_pull_request();
--> statement-breakpoint
DROP TRIGGER "delivery_facts_note_update" ON "commits";
--> statement-breakpoint
CREATE TRIGGER "delivery_facts_note_update" AFTER UPDATE ON "commits" FOR EACH ROW
  WHEN ((OLD.committed_at, OLD.sha, OLD.reverts_sha) IS DISTINCT FROM (NEW.committed_at, NEW.sha, NEW.reverts_sha))
  EXECUTE FUNCTION delivery_facts_note_commit();
