-- The stored AI attribution level of each PR (pull_request_ai_levels, migration 0080; docs/ai-attribution.md
-- "The stored level"): the given PRs' levels taken from pull_request_attribution, which stays the one
-- definition of the rule. Called by delivery_facts_catch_up for the PRs its notes name; only the
-- level column of the view is read, so its evidence subqueries are not evaluated. A PR deleted
-- meanwhile takes its row with it (cascade); one deleted between this read and the insert fails the
-- chunk's foreign key, which the catch-up runs again (src/cube/deliveryFacts.ts).
CREATE OR REPLACE FUNCTION pull_request_ai_levels_refresh(prs uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(prs) = 0 THEN RETURN; END IF;
  INSERT INTO "pull_request_ai_levels" AS l (pull_request_id, tenant_id, ai_attribution)
  SELECT a.pull_request_id, a.tenant_id, a.ai_attribution FROM "pull_request_attribution" a
  WHERE a.pull_request_id IN (SELECT unnest(prs))
  ON CONFLICT (pull_request_id) DO UPDATE SET tenant_id = EXCLUDED.tenant_id, ai_attribution = EXCLUDED.ai_attribution
  WHERE (l.tenant_id, l.ai_attribution) IS DISTINCT FROM (EXCLUDED.tenant_id, EXCLUDED.ai_attribution);
  -- The copy beside a merged PR's stored values (change_lead_times.ai_attribution, migration 0084),
  -- which the AI impact page reads with them: change_lead_times_refresh takes the level as it is when
  -- it writes the row, and this keeps it equal afterwards (both run in the catch-up, under its lock).
  UPDATE "change_lead_times" c SET ai_attribution = l.ai_attribution
  FROM "pull_request_ai_levels" l
  WHERE l.pull_request_id = c.pull_request_id AND c.pull_request_id IN (SELECT unnest(prs))
    AND c.ai_attribution IS DISTINCT FROM l.ai_attribution;
END $$;
