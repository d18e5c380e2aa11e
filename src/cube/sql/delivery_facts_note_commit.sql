-- Defined by versioned migrations up to 0055_delivery_facts_deferred; since then by this file (docs/sql-source.md).
-- A commit's time changed: the commit (the PRs it is linked to are found when caught up).
CREATE OR REPLACE FUNCTION delivery_facts_note_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "delivery_facts_pending" (tenant_id, kind, id) VALUES (NEW.tenant_id, 'c', NEW.id);
  RETURN NULL;
END $$;
