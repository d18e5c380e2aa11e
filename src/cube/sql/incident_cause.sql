-- Defined by versioned migrations up to 0021_delivery_facts; since then by this file (docs/sql-source.md).
-- An incident's causing deployment: the rule of cube_incidents (migration 0007), for one incident.
-- PL/pgSQL so that its two index lookups are planned once per connection; inside the triggers the
-- view's two LATERAL subqueries were planned again on every write.
CREATE OR REPLACE FUNCTION incident_cause(tenant uuid, project uuid, named text, opened timestamptz) RETURNS uuid LANGUAGE plpgsql STABLE AS $$
DECLARE
  cause uuid;
BEGIN
  IF named IS NOT NULL THEN
    SELECT d.id INTO cause FROM "deployments" d
    WHERE d.tenant_id = tenant AND d.external_id = named
    ORDER BY (d.project_id = project) DESC, d.created_at DESC, d.id
    LIMIT 1;
    IF cause IS NOT NULL THEN RETURN cause; END IF;
  END IF;
  SELECT d.id INTO cause FROM "deployments" d
  WHERE d.project_id = project AND d.status = 'success' AND COALESCE(d.is_production, d.environment = 'production')
    AND d.created_at >= opened - interval '24 hours' AND d.created_at <= opened
  ORDER BY d.created_at DESC, d.id
  LIMIT 1;
  RETURN cause;
END $$;
