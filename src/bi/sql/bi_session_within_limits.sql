-- Defined by versioned migrations up to 0041_bi_role_guard; since then by this file (docs/sql-source.md).
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
