-- Defined by versioned migrations up to 0061_otlp_intake; since then by this file (docs/sql-source.md).
-- depends-on: ai_vendor_tool
-- A person-day row has no session id (ai_sessions counts ids, which skips it) but a user_key
-- (ai_active_users counts those, so a person active through an upload, telemetry and a vendor
-- report on the same day counts once). Unmatched telemetry is keyed by the e-mail's digest, as
-- cube_commits keys unmatched authors. A vendor person-day (docs/ai-vendor-reports.md) is the
-- third kind of row: its person is the e-mail (Claude Code, Cursor) or the code-host login
-- (Copilot) matched through the register's identities at query time; unmatched, the same digest
-- as telemetry's, so one unmatched e-mail seen by telemetry and a vendor is one user. Rows of no
-- person (a Claude Code API key) are not people and are left out.
CREATE OR REPLACE VIEW "cube_ai_sessions" AS
SELECT s.tenant_id, s.id, s.id::text || ':' || COALESCE(tm.team_id::text, '-') AS row_key, s.user_id, pi.person_id,
       tm.team_id, s.tool, s.model, s.started_at, s.ended_at,
       COALESCE(pi.person_id, s.user_id, md5(COALESCE('email:' || s.person_email, 'account:' || s.person_account))::uuid) AS user_key,
       s.source
FROM "ai_sessions" s
LEFT JOIN "users" u ON u.id = s.user_id
LEFT JOIN "person_identities" pi ON pi.tenant_id = s.tenant_id AND pi.kind = 'email' AND pi.value = lower(COALESCE(u.email, s.person_email))
LEFT JOIN ("team_memberships" tm JOIN "teams" t ON t.id = tm.team_id AND t.enabled)
  ON tm.tenant_id = s.tenant_id AND tm.person_id = pi.person_id
UNION ALL
SELECT d.tenant_id, NULL::uuid AS id, 'day:' || d.id::text || ':' || COALESCE(tm.team_id::text, '-') AS row_key, NULL::uuid AS user_id, pi.person_id,
       tm.team_id, d.tool, NULL::text AS model, (d.day::timestamp AT TIME ZONE 'UTC') AS started_at, NULL::timestamptz AS ended_at,
       COALESCE(pi.person_id, md5(COALESCE('email:' || d.person_email, 'account:' || d.person_account))::uuid) AS user_key,
       'telemetry'::text AS source
FROM "ai_telemetry_days" d
LEFT JOIN "person_identities" pi ON pi.tenant_id = d.tenant_id AND pi.kind = 'email' AND pi.value = d.person_email
LEFT JOIN ("team_memberships" tm JOIN "teams" t ON t.id = tm.team_id AND t.enabled)
  ON tm.tenant_id = d.tenant_id AND tm.person_id = pi.person_id
-- METRICS.md: a telemetry day counts with at least one session, request or accepted edit.
WHERE d.sessions > 0 OR d.api_requests > 0 OR d.prompts > 0 OR d.edits_accepted > 0
UNION ALL
SELECT v.tenant_id, NULL::uuid AS id, 'vendor:' || v.id::text || ':' || COALESCE(tm.team_id::text, '-') AS row_key, NULL::uuid AS user_id, p.person_id,
       tm.team_id, ai_vendor_tool(v.source) AS tool, NULL::text AS model, (v.day::timestamp AT TIME ZONE 'UTC') AS started_at, NULL::timestamptz AS ended_at,
       COALESCE(p.person_id, md5(COALESCE('email:' || v.person_email, 'login:' || v.person_login))::uuid) AS user_key,
       v.source
FROM "ai_vendor_days" v
LEFT JOIN "person_identities" pe ON pe.tenant_id = v.tenant_id AND pe.kind = 'email' AND pe.value = v.person_email
LEFT JOIN "person_identities" pl ON pl.tenant_id = v.tenant_id AND pl.kind = 'codehost_username' AND pl.value = v.person_login
CROSS JOIN LATERAL (SELECT COALESCE(pe.person_id, pl.person_id) AS person_id) p
LEFT JOIN ("team_memberships" tm JOIN "teams" t ON t.id = tm.team_id AND t.enabled)
  ON tm.tenant_id = v.tenant_id AND tm.person_id = p.person_id
WHERE (v.person_email IS NOT NULL OR v.person_login IS NOT NULL)
  AND (v.sessions > 0 OR v.requests > 0 OR v.edits_accepted > 0);
