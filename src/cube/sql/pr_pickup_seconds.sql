-- PR phases (METRICS.md "PR phases", docs/pr-phases.md): pickup time, ready for review (created when
-- never a draft) → first review by someone else, 0 for a review before ready (on a draft); empty
-- unless that review came at or before the merge. One definition for cube_pull_requests and
-- change_lead_times_refresh (as pr_coding_seconds).
-- A change here must come with a change of change_lead_times_refresh.sql (its rule version), whose
-- application notes every stored merged PR for recomputation.
CREATE OR REPLACE FUNCTION pr_pickup_seconds(first_review_at timestamptz, merged_at timestamptz, ready_at timestamptz, created_at timestamptz)
RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN first_review_at <= merged_at THEN greatest(extract(epoch FROM first_review_at - COALESCE(ready_at, created_at)), 0)::double precision END
$$;
