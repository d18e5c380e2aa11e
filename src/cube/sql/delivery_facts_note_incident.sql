-- Defined by versioned migrations up to 0055_delivery_facts_deferred; since then by this file (docs/sql-source.md).
-- An incident written (an issue of type incident before or after): its images.
CREATE OR REPLACE FUNCTION delivery_facts_note_incident() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, project_id, created_at, named)
    VALUES (NEW.tenant_id, 'i', NEW.project_id, NEW.created_at, NEW.metadata ->> 'causedByDeployment');
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, project_id, created_at, named)
    VALUES (OLD.tenant_id, 'i', OLD.project_id, OLD.created_at, OLD.metadata ->> 'causedByDeployment'),
           (NEW.tenant_id, 'i', NEW.project_id, NEW.created_at, NEW.metadata ->> 'causedByDeployment');
  ELSIF EXISTS (SELECT 1 FROM "tenants" t WHERE t.id = OLD.tenant_id) THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, project_id, created_at, named)
    VALUES (OLD.tenant_id, 'i', OLD.project_id, OLD.created_at, OLD.metadata ->> 'causedByDeployment');
  END IF;
  RETURN NULL;
END $$;
