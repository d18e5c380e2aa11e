-- The tool a vendor report's source is, named as the other sources name it (telemetry: claude-code),
-- for the ai_sessions and ai_commits cubes (docs/ai-vendor-reports.md).
CREATE OR REPLACE FUNCTION ai_vendor_tool(source text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE source WHEN 'claude_code_analytics' THEN 'claude-code' ELSE source END
$$;
