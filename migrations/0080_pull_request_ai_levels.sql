-- The AI attribution level kept per PR (issue 47, docs/ai-attribution.md "The stored level"): the AI
-- impact page filters every measure on `ai_attribution`, and computing pull_request_attribution for
-- every PR of the table on each read took most of the page's time (11 s of a side's 20 s for the
-- 200-team bench tenant, docs/benchmarks/2026-11-29-ai-impact-large-windows.md). The level is now
-- computed when one of its inputs is written, through the deferred notes of the stored delivery facts
-- (delivery_facts_pending, delivery_facts_catch_up; triggers and function in
-- src/aiAttribution/sql/ai_attribution_note.sql), from pull_request_attribution, which stays the rule.
CREATE TABLE "pull_request_ai_levels" (
  "pull_request_id" uuid PRIMARY KEY REFERENCES "pull_requests" ("id") ON DELETE CASCADE,
  "tenant_id" uuid NOT NULL,
  -- high, medium, low or none (pull_request_attribution.ai_attribution).
  "ai_attribution" text NOT NULL
);
--> statement-breakpoint
SELECT app_tenant_floor('pull_request_ai_levels');
--> statement-breakpoint
-- Every existing PR's level (the view's current rule: only its level column is read).
INSERT INTO "pull_request_ai_levels" (pull_request_id, tenant_id, ai_attribution)
SELECT a.pull_request_id, a.tenant_id, a.ai_attribution FROM "pull_request_attribution" a;
--> statement-breakpoint
-- The planner's statistics now, not at autovacuum's next pass (the AI impact page's plans join it).
ANALYZE "pull_request_ai_levels";
