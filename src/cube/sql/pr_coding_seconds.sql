-- PR phases (METRICS.md "PR phases", docs/pr-phases.md): coding time of a merged PR, first commit →
-- ready for review (created when never a draft), 0 when the first commit is dated after it; empty
-- when not merged or no commit is known. One definition for cube_pull_requests (computed on read)
-- and change_lead_times_refresh (stored per merged PR, read by the AI impact page): an inlined SQL
-- function, so a view that calls it plans as if the expression were written in it.
-- A change here must come with a change of change_lead_times_refresh.sql (its rule version), whose
-- application notes every stored merged PR for recomputation.
CREATE OR REPLACE FUNCTION pr_coding_seconds(merged_at timestamptz, first_commit_known boolean, first_commit_at timestamptz, ready_at timestamptz, created_at timestamptz)
RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN merged_at IS NOT NULL AND first_commit_known THEN greatest(extract(epoch FROM COALESCE(ready_at, created_at) - first_commit_at), 0)::double precision END
$$;
