-- Defined by versioned migrations up to 0055_delivery_facts_deferred; since then by this file (docs/sql-source.md).
-- Row-level AFTER triggers whose WHEN clauses skip, without calling anything, the writes that change
-- no fact: other issue types, webhook re-posts (no column the rules read changed), PRs not merged.
-- (Statement-level triggers with transition tables cost a function call and a tuplestore on every
-- statement, measured at about a tenth more per single-row upsert.)
-- A deployment written: its before and after images. Rows of a tenant being deleted are skipped.
CREATE OR REPLACE FUNCTION delivery_facts_note_deployment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, id, project_id, external_id, is_rollback, rollback_from_sha, good, created_at)
    VALUES (NEW.tenant_id, 'd', NEW.id, NEW.project_id, NEW.external_id, NEW.is_rollback, NEW.rollback_from_sha,
            NEW.status = 'success' AND COALESCE(NEW.is_production, NEW.environment = 'production'), NEW.created_at);
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, id, project_id, external_id, is_rollback, rollback_from_sha, good, created_at)
    VALUES (OLD.tenant_id, 'd', OLD.id, OLD.project_id, OLD.external_id, OLD.is_rollback, OLD.rollback_from_sha,
            OLD.status = 'success' AND COALESCE(OLD.is_production, OLD.environment = 'production'), OLD.created_at),
           (NEW.tenant_id, 'd', NEW.id, NEW.project_id, NEW.external_id, NEW.is_rollback, NEW.rollback_from_sha,
            NEW.status = 'success' AND COALESCE(NEW.is_production, NEW.environment = 'production'), NEW.created_at);
  ELSIF EXISTS (SELECT 1 FROM "tenants" t WHERE t.id = OLD.tenant_id) THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, id, project_id, external_id, is_rollback, rollback_from_sha, good, created_at)
    VALUES (OLD.tenant_id, 'd', OLD.id, OLD.project_id, OLD.external_id, OLD.is_rollback, OLD.rollback_from_sha,
            OLD.status = 'success' AND COALESCE(OLD.is_production, OLD.environment = 'production'), OLD.created_at);
  END IF;
  RETURN NULL;
END $$;
