-- BI roles cannot keep a change to themselves (issue 32, docs/bi.md "What a BI role can change").
-- PostgreSQL lets every role change its own password and its own setting defaults (ALTER ROLE
-- current_user PASSWORD / SET / RESET) in a read-write transaction, which any session may open.
-- Nothing in PostgreSQL forbids it, so: the credential keeps the role's SCRAM verifier (the
-- password itself is never stored) and the bi.watchdog job restores the verifier and the settings;
-- meanwhile the views refuse a session whose settings are outside the credential's.
ALTER TABLE "bi_credentials" ADD COLUMN "password_verifier" text;
--> statement-breakpoint
-- Credentials issued before this migration: the verifier is readable where the migration runs as
-- a superuser (the bundled databases); elsewhere it stays null and only the settings are restored.
DO $$
BEGIN
  IF has_table_privilege('pg_catalog.pg_authid', 'SELECT') THEN
    UPDATE bi_credentials c SET password_verifier = a.rolpassword
    FROM pg_catalog.pg_authid a WHERE a.rolname = c.role_name AND a.rolpassword LIKE 'SCRAM-SHA-256$%';
  END IF;
END
$$;
--> statement-breakpoint
-- Tenant work lists its credentials; the verifier is for system work (the grant and the watchdog).
REVOKE ALL ON TABLE "bi_credentials" FROM app_tenant;
--> statement-breakpoint
GRANT SELECT ("id", "tenant_id", "name", "role_name", "statement_timeout_ms", "created_at") ON TABLE "bi_credentials" TO app_tenant;
--> statement-breakpoint
-- The views' check (migration 0037) also holds the session to what the role's defaults set and a
-- session may undo: a read-only transaction, work_mem and hash_mem_multiplier at most the
-- credential's (4 MB, 2: PostgreSQL's defaults, set on every BI role).
CREATE OR REPLACE FUNCTION "public"."bi_session_within_limits"(limit_ms integer) RETURNS boolean
LANGUAGE plpgsql STABLE PARALLEL SAFE SET search_path = pg_catalog AS $$
DECLARE
  setting_name text;
  value bigint;
BEGIN
  FOREACH setting_name IN ARRAY ARRAY['statement_timeout', 'idle_in_transaction_session_timeout'] LOOP
    SELECT s.setting::bigint INTO value FROM pg_settings s WHERE s.name = setting_name;
    IF value = 0 OR value > limit_ms THEN
      RAISE EXCEPTION '% is % ms; this BI credential allows at most % ms', setting_name, value, limit_ms
        USING ERRCODE = 'insufficient_privilege', HINT = format('RESET %s, or set it to %s ms or less.', setting_name, limit_ms);
    END IF;
  END LOOP;
  IF current_setting('transaction_read_only') <> 'on' THEN
    RAISE EXCEPTION 'this BI credential reads in read-only transactions only'
      USING ERRCODE = 'insufficient_privilege', HINT = 'RESET default_transaction_read_only, and do not BEGIN READ WRITE.';
  END IF;
  SELECT s.setting::bigint INTO value FROM pg_settings s WHERE s.name = 'work_mem';
  IF value > 4096 THEN
    RAISE EXCEPTION 'work_mem is % kB; this BI credential allows at most 4096 kB', value
      USING ERRCODE = 'insufficient_privilege', HINT = 'RESET work_mem, or set it to 4MB or less.';
  END IF;
  IF current_setting('hash_mem_multiplier')::float8 > 2 THEN
    RAISE EXCEPTION 'hash_mem_multiplier is %; this BI credential allows at most 2', current_setting('hash_mem_multiplier')
      USING ERRCODE = 'insufficient_privilege', HINT = 'RESET hash_mem_multiplier, or set it to 2 or less.';
  END IF;
  RETURN true;
END
$$;
