-- Defined by versioned migrations up to 0061_otlp_intake; since then by this file (docs/sql-source.md).
-- Telemetry sessions have no user: their commits still count, keyed as cube_ai_sessions keys them.
CREATE OR REPLACE VIEW "cube_ai_commits" AS
SELECT c.tenant_id, c.id, l.id AS link_id, l.id::text || ':' || COALESCE(tm.team_id::text, '-') AS row_key, c.project_id, c.committed_at,
       l.session_id, pi.person_id, tm.team_id,
       c.sha,
       (SELECT p.project_key FROM "projects" p WHERE p.id = c.project_id) AS project_key,
       (SELECT string_agg(DISTINCT a.tool, ', ' ORDER BY a.tool)
        FROM "ai_session_links" al JOIN "ai_sessions" a ON a.id = al.session_id
        WHERE al.commit_id = c.id AND al.tenant_id = c.tenant_id) AS ai_tools,
       (SELECT string_agg(al.session_id::text, ', ' ORDER BY al.session_id::text)
        FROM "ai_session_links" al
        WHERE al.commit_id = c.id AND al.tenant_id = c.tenant_id) AS ai_session_ids,
       (SELECT string_agg(DISTINCT k.key::text, ', ' ORDER BY k.key::text)
        FROM "ai_session_links" al
        JOIN "ai_sessions" a ON a.id = al.session_id
        LEFT JOIN "users" au ON au.id = a.user_id
        LEFT JOIN "person_identities" api ON api.tenant_id = a.tenant_id AND api.kind = 'email' AND api.value = lower(COALESCE(au.email, a.person_email))
        CROSS JOIN LATERAL (SELECT COALESCE(api.person_id, a.user_id, md5(COALESCE('email:' || a.person_email, 'account:' || a.person_account))::uuid) AS key) k
        WHERE al.commit_id = c.id AND al.tenant_id = c.tenant_id) AS ai_user_keys
FROM "ai_session_links" l
JOIN "commits" c ON c.id = l.commit_id
JOIN "ai_sessions" s ON s.id = l.session_id
LEFT JOIN "users" u ON u.id = s.user_id
LEFT JOIN "person_identities" pi ON pi.tenant_id = s.tenant_id AND pi.kind = 'email' AND pi.value = lower(COALESCE(u.email, s.person_email))
LEFT JOIN ("team_memberships" tm JOIN "teams" t ON t.id = tm.team_id AND t.enabled)
  ON tm.tenant_id = s.tenant_id AND tm.person_id = pi.person_id;
