-- Defined by versioned migrations up to 0055_delivery_facts_deferred; since then by this file (docs/sql-source.md).
-- Every stored fact from scratch (after a TRUNCATE, or a load with triggers off): the pending notes
-- are dropped first, so that every note dropped is covered by the recomputation's later snapshot.
CREATE OR REPLACE FUNCTION delivery_facts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "delivery_facts_pending";
  DELETE FROM "deployment_facts";
  DELETE FROM "change_lead_times";
  PERFORM deployment_facts_refresh(ARRAY(SELECT id FROM "deployments"), '{}', '{}');
  PERFORM change_lead_times_refresh(ARRAY(SELECT id FROM "pull_requests" WHERE merged_at IS NOT NULL));
  -- The stored AI attribution levels (a TRUNCATE of commits or PR links changes them too).
  PERFORM pull_request_ai_levels_refresh(ARRAY(SELECT id FROM "pull_requests"));
END $$;
