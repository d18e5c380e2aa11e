-- Defined by versioned migrations up to 0003_activity_facts; since then by this file (docs/sql-source.md).
-- The old view keeps its columns for whoever reads it: the session reason now takes every high
-- signal, the rest comes from pull_request_attribution (docs/ai-attribution.md).
-- depends-on: pull_request_attribution
CREATE OR REPLACE VIEW "public"."pull_request_ai_assisted" AS
SELECT a.pull_request_id, a.tenant_id,
       (a.ai_via_session OR a.ai_via_telemetry_commit OR a.ai_via_vendor_commit) AS via_session,
       a.ai_via_trailer AS via_trailer, a.ai_via_label AS via_label, a.ai_assisted
FROM "pull_request_attribution" a;
