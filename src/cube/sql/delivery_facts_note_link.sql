-- Defined by versioned migrations up to 0055_delivery_facts_deferred; since then by this file (docs/sql-source.md).
-- A PR's commits linked or unlinked (also when a commit is deleted: the link goes by cascade): the PR.
CREATE OR REPLACE FUNCTION delivery_facts_note_link() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND EXISTS (SELECT 1 FROM "tenants" t WHERE t.id = OLD.tenant_id) THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, id) VALUES (OLD.tenant_id, 'p', OLD.pull_request_id);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, id) VALUES (NEW.tenant_id, 'p', NEW.pull_request_id);
  END IF;
  RETURN NULL;
END $$;
