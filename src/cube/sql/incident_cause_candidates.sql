-- Defined by versioned migrations up to 0021_delivery_facts; since then by this file (docs/sql-source.md).
-- The deployments an incident may name as its cause (cube_incidents): those whose externalId its
-- metadata names, and the successful production deployments of its project in the 24 h before it.
-- Its cause before and after a write is among these, taken before and after.
CREATE OR REPLACE FUNCTION incident_cause_candidates(tenant uuid, project uuid, named text, opened timestamptz) RETURNS SETOF uuid LANGUAGE sql STABLE AS $$
  SELECT d.id FROM "deployments" d WHERE named IS NOT NULL AND d.tenant_id = tenant AND d.external_id = named
  UNION
  SELECT d.id FROM "deployments" d
  WHERE d.project_id = project AND d.status = 'success' AND COALESCE(d.is_production, d.environment = 'production')
    AND d.created_at >= opened - interval '24 hours' AND d.created_at <= opened
$$;
