-- The stored AI attribution level (pull_request_ai_levels, migration 0080; docs/ai-attribution.md
-- "The stored level") is kept like the stored delivery facts (docs/write-path.md): a write to any
-- input of the level only notes, in delivery_facts_pending, what it may change, and
-- delivery_facts_catch_up recomputes the named PRs' levels from pull_request_attribution before the
-- next cube read of the level (or the 5-second schedule). Kinds noted here:
--   a: a PR (id) whose own columns (labels, head branch, author) or session links changed, or a new PR;
--   b: a commit (id) whose trailers, co-authors, sha, author or time changed (its PRs when caught up);
--   v: vendor commit data for the sha `named` (the PRs of the tenant's commits with that sha);
--   t: the tenant's own AI labels (ai_attribution_settings): its PRs that carry any label;
--   w: a person of the register (id) whose identities changed, `named` the code-host login removed
--      or replaced (the PRs of the person's logins, the low level's author);
--   y: AI activity on a day (created_at, UTC midnight) for some person: the PRs with a commit that day.
-- A PR's commits linked or unlinked are noted by delivery_facts_note_link already (kind p), and the
-- catch-up takes every p note for the level too.
-- Triggers are created here, next to the one function they call, because a versioned migration
-- after 0065 cannot create a filed function and CREATE TRIGGER needs it to exist (docs/sql-source.md).
CREATE OR REPLACE FUNCTION ai_attribution_note() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A tenant's cascading delete notes nothing (as delivery_facts_note_link). Nested: PL/pgSQL
  -- prepares a condition's whole expression, and `users` (UPDATE only) has no tenant_id.
  IF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM "tenants" t WHERE t.id = OLD.tenant_id) THEN RETURN NULL; END IF;
  END IF;
  IF TG_TABLE_NAME = 'pull_requests' THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, id) VALUES (NEW.tenant_id, 'a', NEW.id);
  ELSIF TG_TABLE_NAME = 'ai_session_links' THEN
    IF TG_OP <> 'INSERT' AND OLD.pull_request_id IS NOT NULL THEN
      INSERT INTO "delivery_facts_pending" (tenant_id, kind, id) VALUES (OLD.tenant_id, 'a', OLD.pull_request_id);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.pull_request_id IS NOT NULL THEN
      INSERT INTO "delivery_facts_pending" (tenant_id, kind, id) VALUES (NEW.tenant_id, 'a', NEW.pull_request_id);
    END IF;
  ELSIF TG_TABLE_NAME = 'commits' THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, id) VALUES (NEW.tenant_id, 'b', NEW.id);
  ELSIF TG_TABLE_NAME = 'ai_vendor_commits' THEN
    IF TG_OP <> 'INSERT' THEN
      INSERT INTO "delivery_facts_pending" (tenant_id, kind, named) VALUES (OLD.tenant_id, 'v', OLD.sha);
    END IF;
    IF TG_OP <> 'DELETE' THEN
      INSERT INTO "delivery_facts_pending" (tenant_id, kind, named) VALUES (NEW.tenant_id, 'v', NEW.sha);
    END IF;
  ELSIF TG_TABLE_NAME = 'ai_attribution_settings' THEN
    INSERT INTO "delivery_facts_pending" (tenant_id, kind) VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.tenant_id ELSE NEW.tenant_id END, 't');
  ELSIF TG_TABLE_NAME = 'person_identities' THEN
    IF TG_OP <> 'INSERT' THEN
      INSERT INTO "delivery_facts_pending" (tenant_id, kind, id, named)
      VALUES (OLD.tenant_id, 'w', OLD.person_id, CASE WHEN OLD.kind = 'codehost_username' THEN OLD.value END);
    END IF;
    IF TG_OP <> 'DELETE' THEN
      INSERT INTO "delivery_facts_pending" (tenant_id, kind, id, named)
      VALUES (NEW.tenant_id, 'w', NEW.person_id, CASE WHEN NEW.kind = 'codehost_username' THEN NEW.value END);
    END IF;
  ELSIF TG_TABLE_NAME = 'ai_sessions' THEN
    -- An upload's day (ai_activity_days' upload branch).
    IF TG_OP <> 'INSERT' AND OLD.source = 'upload' THEN
      INSERT INTO "delivery_facts_pending" (tenant_id, kind, created_at)
      VALUES (OLD.tenant_id, 'y', ((OLD.started_at AT TIME ZONE 'UTC')::date)::timestamp AT TIME ZONE 'UTC');
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.source = 'upload' THEN
      INSERT INTO "delivery_facts_pending" (tenant_id, kind, created_at)
      VALUES (NEW.tenant_id, 'y', ((NEW.started_at AT TIME ZONE 'UTC')::date)::timestamp AT TIME ZONE 'UTC');
    END IF;
  ELSIF TG_TABLE_NAME = 'users' THEN
    -- A user's e-mail is the person key of their uploads' days.
    INSERT INTO "delivery_facts_pending" (tenant_id, kind, created_at)
    SELECT DISTINCT s.tenant_id, 'y', ((s.started_at AT TIME ZONE 'UTC')::date)::timestamp AT TIME ZONE 'UTC'
    FROM "ai_sessions" s WHERE s.user_id = NEW.id AND s.source = 'upload';
  ELSE
    -- ai_telemetry_days, ai_vendor_days: a person-day (the triggers' conditions keep only those that
    -- start or stop counting as activity, or move).
    IF TG_OP <> 'INSERT' THEN
      INSERT INTO "delivery_facts_pending" (tenant_id, kind, created_at) VALUES (OLD.tenant_id, 'y', OLD.day::timestamp AT TIME ZONE 'UTC');
    END IF;
    IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR OLD.day IS DISTINCT FROM NEW.day OR OLD.tenant_id IS DISTINCT FROM NEW.tenant_id) THEN
      INSERT INTO "delivery_facts_pending" (tenant_id, kind, created_at) VALUES (NEW.tenant_id, 'y', NEW.day::timestamp AT TIME ZONE 'UTC');
    END IF;
  END IF;
  RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS ai_attribution_note ON "pull_requests";
CREATE TRIGGER ai_attribution_note AFTER INSERT ON "pull_requests" FOR EACH ROW EXECUTE FUNCTION ai_attribution_note();
DROP TRIGGER IF EXISTS ai_attribution_note_update ON "pull_requests";
CREATE TRIGGER ai_attribution_note_update AFTER UPDATE ON "pull_requests" FOR EACH ROW
  WHEN ((OLD.tenant_id, OLD.labels, OLD.head_branch, OLD.author_username) IS DISTINCT FROM (NEW.tenant_id, NEW.labels, NEW.head_branch, NEW.author_username))
  EXECUTE FUNCTION ai_attribution_note();
DROP TRIGGER IF EXISTS ai_attribution_note ON "ai_session_links";
CREATE TRIGGER ai_attribution_note AFTER INSERT OR UPDATE OR DELETE ON "ai_session_links" FOR EACH ROW EXECUTE FUNCTION ai_attribution_note();
DROP TRIGGER IF EXISTS ai_attribution_note_update ON "commits";
CREATE TRIGGER ai_attribution_note_update AFTER UPDATE ON "commits" FOR EACH ROW
  WHEN ((OLD.ai_trailers, OLD.ai_coauthors, OLD.sha, OLD.author_username, OLD.author_email, OLD.committed_at)
    IS DISTINCT FROM (NEW.ai_trailers, NEW.ai_coauthors, NEW.sha, NEW.author_username, NEW.author_email, NEW.committed_at))
  EXECUTE FUNCTION ai_attribution_note();
DROP TRIGGER IF EXISTS ai_attribution_note ON "ai_vendor_commits";
CREATE TRIGGER ai_attribution_note AFTER INSERT OR UPDATE OR DELETE ON "ai_vendor_commits" FOR EACH ROW EXECUTE FUNCTION ai_attribution_note();
DROP TRIGGER IF EXISTS ai_attribution_note ON "ai_attribution_settings";
CREATE TRIGGER ai_attribution_note AFTER INSERT OR UPDATE OR DELETE ON "ai_attribution_settings" FOR EACH ROW EXECUTE FUNCTION ai_attribution_note();
DROP TRIGGER IF EXISTS ai_attribution_note ON "person_identities";
CREATE TRIGGER ai_attribution_note AFTER INSERT OR UPDATE OR DELETE ON "person_identities" FOR EACH ROW EXECUTE FUNCTION ai_attribution_note();
DROP TRIGGER IF EXISTS ai_attribution_note ON "ai_sessions";
CREATE TRIGGER ai_attribution_note AFTER INSERT OR DELETE ON "ai_sessions" FOR EACH ROW EXECUTE FUNCTION ai_attribution_note();
DROP TRIGGER IF EXISTS ai_attribution_note_update ON "ai_sessions";
CREATE TRIGGER ai_attribution_note_update AFTER UPDATE ON "ai_sessions" FOR EACH ROW
  WHEN ((OLD.tenant_id, OLD.source, OLD.started_at, OLD.user_id, OLD.tool) IS DISTINCT FROM (NEW.tenant_id, NEW.source, NEW.started_at, NEW.user_id, NEW.tool))
  EXECUTE FUNCTION ai_attribution_note();
DROP TRIGGER IF EXISTS ai_attribution_note_email ON "users";
CREATE TRIGGER ai_attribution_note_email AFTER UPDATE OF email ON "users" FOR EACH ROW WHEN (OLD.email IS DISTINCT FROM NEW.email) EXECUTE FUNCTION ai_attribution_note();
DROP TRIGGER IF EXISTS ai_attribution_note ON "ai_telemetry_days";
CREATE TRIGGER ai_attribution_note AFTER INSERT ON "ai_telemetry_days" FOR EACH ROW
  WHEN (NEW.person_email IS NOT NULL AND (NEW.sessions > 0 OR NEW.api_requests > 0 OR NEW.prompts > 0 OR NEW.edits_accepted > 0))
  EXECUTE FUNCTION ai_attribution_note();
DROP TRIGGER IF EXISTS ai_attribution_note_update ON "ai_telemetry_days";
CREATE TRIGGER ai_attribution_note_update AFTER UPDATE ON "ai_telemetry_days" FOR EACH ROW
  WHEN ((OLD.tenant_id, OLD.day, OLD.person_key, OLD.person_email IS NOT NULL AND (OLD.sessions > 0 OR OLD.api_requests > 0 OR OLD.prompts > 0 OR OLD.edits_accepted > 0))
    IS DISTINCT FROM (NEW.tenant_id, NEW.day, NEW.person_key, NEW.person_email IS NOT NULL AND (NEW.sessions > 0 OR NEW.api_requests > 0 OR NEW.prompts > 0 OR NEW.edits_accepted > 0)))
  EXECUTE FUNCTION ai_attribution_note();
DROP TRIGGER IF EXISTS ai_attribution_note_delete ON "ai_telemetry_days";
CREATE TRIGGER ai_attribution_note_delete AFTER DELETE ON "ai_telemetry_days" FOR EACH ROW EXECUTE FUNCTION ai_attribution_note();
DROP TRIGGER IF EXISTS ai_attribution_note ON "ai_vendor_days";
CREATE TRIGGER ai_attribution_note AFTER INSERT ON "ai_vendor_days" FOR EACH ROW
  WHEN (NEW.sessions > 0 OR NEW.requests > 0 OR NEW.lines_added > 0 OR NEW.lines_suggested > 0 OR NEW.edits_accepted > 0 OR NEW.commits > 0)
  EXECUTE FUNCTION ai_attribution_note();
DROP TRIGGER IF EXISTS ai_attribution_note_update ON "ai_vendor_days";
CREATE TRIGGER ai_attribution_note_update AFTER UPDATE ON "ai_vendor_days" FOR EACH ROW
  WHEN ((OLD.tenant_id, OLD.day, OLD.person_key, OLD.source, OLD.sessions > 0 OR OLD.requests > 0 OR OLD.lines_added > 0 OR OLD.lines_suggested > 0 OR OLD.edits_accepted > 0 OR OLD.commits > 0)
    IS DISTINCT FROM (NEW.tenant_id, NEW.day, NEW.person_key, NEW.source, NEW.sessions > 0 OR NEW.requests > 0 OR NEW.lines_added > 0 OR NEW.lines_suggested > 0 OR NEW.edits_accepted > 0 OR NEW.commits > 0))
  EXECUTE FUNCTION ai_attribution_note();
DROP TRIGGER IF EXISTS ai_attribution_note_delete ON "ai_vendor_days";
CREATE TRIGGER ai_attribution_note_delete AFTER DELETE ON "ai_vendor_days" FOR EACH ROW EXECUTE FUNCTION ai_attribution_note();
-- A TRUNCATE fires no row trigger: every stored fact, the levels with them, from scratch (as for the delivery facts' tables).
-- One loop over the tables, the same trigger on each (constant names, quoted by format's %I).
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['ai_session_links', 'ai_vendor_commits', 'ai_attribution_settings', 'person_identities', 'ai_sessions', 'ai_telemetry_days', 'ai_vendor_days'] LOOP
    EXECUTE format('DROP TRIGGER IF EXISTS ai_attribution_truncate ON %I', t);
    EXECUTE format('CREATE TRIGGER ai_attribution_truncate AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION delivery_facts_truncated()', t);
  END LOOP;
END $$;
