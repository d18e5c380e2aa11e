-- PR phases (METRICS.md "PR phases", docs/pr-phases.md): deploy time, merge → the first production
-- deployment holding the PR (change_lead_times.deployed_at); empty when not merged or not deployed.
-- One definition for cube_pull_requests and change_lead_times_refresh (as pr_coding_seconds).
-- A change here must come with a change of change_lead_times_refresh.sql (its rule version), whose
-- application notes every stored merged PR for recomputation.
CREATE OR REPLACE FUNCTION pr_deploy_seconds(merged_at timestamptz, deployed_at timestamptz)
RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN merged_at IS NOT NULL THEN extract(epoch FROM deployed_at - merged_at)::double precision END
$$;
