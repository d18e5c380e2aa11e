-- Defined by versioned migrations up to 0064_one_source_per_period; since then by this file (docs/sql-source.md).
-- depends-on: deployment_source_of
CREATE OR REPLACE FUNCTION deployment_replaced_by(project uuid, source text, at timestamptz) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT p.deployment_source FROM "projects" p
  WHERE p.id = project AND p.deployment_source IS NOT NULL AND p.deployment_source IS DISTINCT FROM source
    AND EXISTS (SELECT 1 FROM "deployments" y
                WHERE y.project_id = project AND deployment_source_of(y.provider, y.metadata) = p.deployment_source AND y.created_at <= at)
$$;
