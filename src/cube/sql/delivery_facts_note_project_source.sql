-- Defined by versioned migrations up to 0064_one_source_per_period; since then by this file (docs/sql-source.md).
-- A project's source changed: every deployment of it may now count, or no longer.
CREATE OR REPLACE FUNCTION delivery_facts_note_project_source() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "delivery_facts_pending" (tenant_id, kind, id, project_id, external_id, is_rollback, rollback_from_sha, good, created_at)
  SELECT d.tenant_id, 'd', d.id, d.project_id, d.external_id, d.is_rollback, d.rollback_from_sha,
         d.status = 'success' AND COALESCE(d.is_production, d.environment = 'production'), d.created_at
  FROM "deployments" d WHERE d.project_id = NEW.id;
  RETURN NULL;
END $$;
