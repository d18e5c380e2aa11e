-- Defined by versioned migrations up to 0055_delivery_facts_deferred; since then by this file (docs/sql-source.md).
-- A pull request whose lead time may change (a deleted PR's row goes with it by cascade).
CREATE OR REPLACE FUNCTION delivery_facts_note_pull_request() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "delivery_facts_pending" (tenant_id, kind, id) VALUES (NEW.tenant_id, 'p', NEW.id);
  RETURN NULL;
END $$;
