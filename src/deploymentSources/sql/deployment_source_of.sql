-- Defined by versioned migrations up to 0064_one_source_per_period; since then by this file (docs/sql-source.md).
-- One source per period (issue 46; METRICS.md "Deployment (DORA)", docs/codehost-deployments.md
-- "Switching"). A project's deployments come from one source at a time: after a switch the new
-- source counts from its earliest stored record on, the other sources' rows only before it. Those
-- rows stay stored; their fact row says which source replaced them (deployment_facts.replaced_by)
-- and they count in no measure: not production_deploys, not change failure rate (neither numerator
-- nor denominator), not recovery (neither as the failed nor as the recovering deployment), not as a
-- rollback, and they ship no PR (lead time). The rule is read from the project's current source and
-- its records, so switching back restores them; nothing is deleted.
--
-- * deployment_source_of(provider, metadata): the webhook API's rows (provider manual) are
--   `webhook`; the code host's rows carry theirs in metadata.source (`deployments`,
--   `workflow_runs`, `releases`).
-- * deployment_replaced_by(project, source, at): the project's current source when it is set,
--   differs from `source`, and has a record (any status, environment or withdrawal) created at or
--   before `at`; else null. An index per (project, source, created_at) makes it one lookup.
-- * Notes (the write-noting of 0055): a change of projects.deployment_source notes every deployment
--   of the project; a record of the project's source, written or deleted, also takes (in the
--   catch-up) the other sources' rows created at or after it.
CREATE OR REPLACE FUNCTION deployment_source_of(provider text, metadata jsonb) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN provider = 'codehost' THEN metadata ->> 'source' ELSE 'webhook' END
$$;
