-- Defined by versioned migrations up to 0061_otlp_intake; since then by this file (docs/sql-source.md).
-- depends-on: ai_vendor_tool
-- ai_commits (METRICS.md): a commit linked to an AI session, or one a vendor reports AI-written
-- lines in (Cursor AI Code Tracking, ai_vendor_commits), matched to our commit by sha. Each
-- evidence is a row (per team of its person); the commit's tools and people are the same on all
-- of its rows. Telemetry sessions have no user: their commits still count, keyed as
-- cube_ai_sessions keys them.
CREATE OR REPLACE VIEW "cube_ai_commits" AS
SELECT c.tenant_id, c.id, e.link_id, e.key || ':' || COALESCE(tm.team_id::text, '-') AS row_key, c.project_id, c.committed_at,
       e.session_id, e.person_id, tm.team_id,
       c.sha,
       (SELECT p.project_key FROM "projects" p WHERE p.id = c.project_id) AS project_key,
       (SELECT string_agg(DISTINCT x.tool, ', ' ORDER BY x.tool) FROM (
          SELECT a.tool FROM "ai_session_links" al JOIN "ai_sessions" a ON a.id = al.session_id
          WHERE al.commit_id = c.id AND al.tenant_id = c.tenant_id
          UNION ALL
          SELECT ai_vendor_tool(vc.source) FROM "ai_vendor_commits" vc
          WHERE vc.tenant_id = c.tenant_id AND vc.sha = c.sha AND vc.ai_lines_added > 0) x) AS ai_tools,
       (SELECT string_agg(al.session_id::text, ', ' ORDER BY al.session_id::text)
        FROM "ai_session_links" al
        WHERE al.commit_id = c.id AND al.tenant_id = c.tenant_id) AS ai_session_ids,
       (SELECT string_agg(DISTINCT x.key::text, ', ' ORDER BY x.key::text) FROM (
          SELECT COALESCE(api.person_id, a.user_id, md5(COALESCE('email:' || a.person_email, 'account:' || a.person_account))::uuid) AS key
          FROM "ai_session_links" al
          JOIN "ai_sessions" a ON a.id = al.session_id
          LEFT JOIN "users" au ON au.id = a.user_id
          LEFT JOIN "person_identities" api ON api.tenant_id = a.tenant_id AND api.kind = 'email' AND api.value = lower(COALESCE(au.email, a.person_email))
          WHERE al.commit_id = c.id AND al.tenant_id = c.tenant_id
          UNION ALL
          SELECT COALESCE(vpi.person_id, md5('email:' || vc.person_email)::uuid)
          FROM "ai_vendor_commits" vc
          LEFT JOIN "person_identities" vpi ON vpi.tenant_id = vc.tenant_id AND vpi.kind = 'email' AND vpi.value = vc.person_email
          WHERE vc.tenant_id = c.tenant_id AND vc.sha = c.sha AND vc.ai_lines_added > 0 AND vc.person_email IS NOT NULL) x) AS ai_user_keys
FROM (
  SELECT l.commit_id, l.id AS link_id, l.id::text AS key, l.session_id, pi.person_id
  FROM "ai_session_links" l
  JOIN "ai_sessions" s ON s.id = l.session_id
  LEFT JOIN "users" u ON u.id = s.user_id
  LEFT JOIN "person_identities" pi ON pi.tenant_id = s.tenant_id AND pi.kind = 'email' AND pi.value = lower(COALESCE(u.email, s.person_email))
  UNION ALL
  SELECT vcm.id AS commit_id, NULL::uuid AS link_id, 'vendor:' || v.id::text AS key, NULL::uuid AS session_id, vpi.person_id
  FROM "ai_vendor_commits" v
  JOIN "commits" vcm ON vcm.tenant_id = v.tenant_id AND vcm.sha = v.sha
  LEFT JOIN "person_identities" vpi ON vpi.tenant_id = v.tenant_id AND vpi.kind = 'email' AND vpi.value = v.person_email
  WHERE v.ai_lines_added > 0
) e
JOIN "commits" c ON c.id = e.commit_id
LEFT JOIN ("team_memberships" tm JOIN "teams" t ON t.id = tm.team_id AND t.enabled)
  ON tm.tenant_id = c.tenant_id AND tm.person_id = e.person_id;
