-- A deleted PR that had reverted others (change_lead_times.reverted_by, migration 0083): the PRs it
-- reverted, whose flag and reason must be recomputed (another PR may revert them, or none). One
-- statement per DELETE over its transition table, so a tenant's deletion (whose PRs go by cascade,
-- and whose notes would have no tenant) costs one join on a small partial index. The trigger is
-- created here, after its function: a versioned migration runs before this file exists on a fresh
-- database (docs/sql-source.md, as ai_attribution_note.sql).
CREATE OR REPLACE FUNCTION delivery_facts_note_reverter_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "delivery_facts_pending" (tenant_id, kind, id)
  SELECT l.tenant_id, 'p', l.pull_request_id
  FROM gone g
  JOIN "change_lead_times" l ON l.reverted_by = g.id
  JOIN "tenants" t ON t.id = l.tenant_id;
  RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS delivery_facts_note_reverter_deleted ON "pull_requests";
CREATE TRIGGER delivery_facts_note_reverter_deleted AFTER DELETE ON "pull_requests" REFERENCING OLD TABLE AS gone
  FOR EACH STATEMENT EXECUTE FUNCTION delivery_facts_note_reverter_deleted();
