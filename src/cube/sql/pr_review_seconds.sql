-- PR phases (METRICS.md "PR phases", docs/pr-phases.md): review time, first review by someone else →
-- merge; empty unless that review came at or before the merge (so also the mark of a reviewed PR).
-- One definition for cube_pull_requests and change_lead_times_refresh (as pr_coding_seconds).
-- A change here must come with a change of change_lead_times_refresh.sql (its rule version), whose
-- application notes every stored merged PR for recomputation.
CREATE OR REPLACE FUNCTION pr_review_seconds(first_review_at timestamptz, merged_at timestamptz)
RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN first_review_at <= merged_at THEN extract(epoch FROM merged_at - first_review_at)::double precision END
$$;
