-- A merged PR's values stored beside its lead time (issue 47's bar: the 200-team bench tenant's AI
-- impact page in under 1.5 s; docs/ai-impact.md "Queries"): PR cycle time, the four phases, size and
-- the AI attribution level. Each of the page's queries joined a window's merged PRs (133,000 for the
-- bench organisation's year) to their stored level and delivery facts; with these columns it reads
-- change_lead_times alone (410 ms instead of 5.2 s for one query under the same load). The values are
-- computed by change_lead_times_refresh with the pr_*_seconds functions cube_pull_requests uses, and
-- the level is kept equal to pull_request_ai_levels by pull_request_ai_levels_refresh. Until a PR
-- is recomputed its new columns are empty, and the AI impact page leaves it out.
ALTER TABLE "change_lead_times"
  ADD COLUMN "cycle_time_seconds" double precision,
  ADD COLUMN "coding_time_seconds" double precision,
  ADD COLUMN "pickup_time_seconds" double precision,
  ADD COLUMN "review_time_seconds" double precision,
  ADD COLUMN "deploy_time_seconds" double precision,
  ADD COLUMN "pr_size" integer,
  ADD COLUMN "ai_attribution" text;
--> statement-breakpoint
-- The existing merged PRs are noted for the catch-up by change_lead_times_refresh.sql itself, in the
-- transaction that installs the rule (after this migration): notes written here could be taken by
-- a catch-up with the old rule in between (an instance still running, or a reader), which would
-- leave the new columns empty with no note left.
-- The new values' inputs a merged PR's update may change: when it is ready, its first review, its size.
DROP TRIGGER "delivery_facts_note_update" ON "pull_requests";
--> statement-breakpoint
CREATE TRIGGER "delivery_facts_note_update" AFTER UPDATE ON "pull_requests" FOR EACH ROW
  WHEN ((OLD.project_id, OLD.merged_at, OLD.created_at, OLD.title, OLD.merge_commit_sha) IS DISTINCT FROM (NEW.project_id, NEW.merged_at, NEW.created_at, NEW.title, NEW.merge_commit_sha)
    OR (NEW.merged_at IS NOT NULL AND (OLD.ready_at, OLD.first_review_at, OLD.additions, OLD.deletions) IS DISTINCT FROM (NEW.ready_at, NEW.first_review_at, NEW.additions, NEW.deletions)))
  EXECUTE FUNCTION delivery_facts_note_pull_request();
