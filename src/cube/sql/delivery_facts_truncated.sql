-- Defined by versioned migrations up to 0021_delivery_facts; since then by this file (docs/sql-source.md).
CREATE OR REPLACE FUNCTION delivery_facts_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM delivery_facts_rebuild();
  RETURN NULL;
END $$;
