-- PR cycle time (METRICS.md "PR cycle time"): opened → merged; empty when not merged. One definition
-- for cube_pull_requests and change_lead_times_refresh (as pr_coding_seconds).
-- A change here must come with a change of change_lead_times_refresh.sql (its rule version), whose
-- application notes every stored merged PR for recomputation.
CREATE OR REPLACE FUNCTION pr_cycle_seconds(merged_at timestamptz, created_at timestamptz)
RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT extract(epoch FROM merged_at - created_at)::double precision
$$;
