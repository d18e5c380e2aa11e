-- The relation of the ai_activity cube (schema/ai_activity.yml, docs/ai-measures.md): the AI
-- measures that are sums (lines, tokens, edits) and what they are divided by (merged PRs).
-- depends-on: ai_vendor_tool, cube_pull_requests
-- A "day" row is one person, one day, one tool, whatever its sources: Claude Code's telemetry and
-- the Claude Code Analytics API describe the same work, so each amount is the greatest any source
-- reports, never their sum, and `sources` names every source that reported the day. The person is
-- matched as cube_ai_sessions matches (e-mail identity; Copilot's login as a code-host username;
-- unmatched: the same digest), so user_key is ai_sessions.user_key. A "pr" row is a merged pull
-- request (cube_pull_requests.is_merged, what prs_merged counts) with its added lines. team_ids
-- holds every enabled team of the day's person, or the PR's owning team: the cube joins teams on
-- it, so a team's number has each row once, and the organisation's (no team join) too, while a
-- person on two teams counts in both.
CREATE OR REPLACE VIEW "cube_ai_activity" AS
SELECT d.tenant_id, md5(d.user_key::text || ':' || d.day::text || ':' || d.tool)::uuid AS id, 'day'::text AS kind,
       (d.day::timestamp AT TIME ZONE 'UTC') AS happened_at, d.user_key, d.person_id, d.tool,
       string_agg(DISTINCT d.source, ', ' ORDER BY d.source) AS sources,
       COALESCE((SELECT array_agg(tm.team_id ORDER BY tm.team_id) FROM "team_memberships" tm JOIN "teams" t ON t.id = tm.team_id AND t.enabled
                 WHERE tm.tenant_id = d.tenant_id AND tm.person_id = d.person_id), '{}'::uuid[]) AS team_ids,
       max(d.ai_lines_added) AS ai_lines_added, max(d.tokens) AS tokens,
       max(d.edits_accepted) AS edits_accepted, max(d.edits_accepted + d.edits_rejected) AS edits_offered,
       0::bigint AS merged_prs, 0::bigint AS pr_lines_added
FROM (
  SELECT td.tenant_id, td.day, td.tool, 'telemetry'::text AS source, pi.person_id,
         COALESCE(pi.person_id, md5(COALESCE('email:' || td.person_email, 'account:' || td.person_account))::uuid) AS user_key,
         td.lines_added AS ai_lines_added, td.input_tokens + td.output_tokens AS tokens,
         td.edits_accepted::bigint AS edits_accepted, td.edits_rejected::bigint AS edits_rejected
  FROM "ai_telemetry_days" td
  LEFT JOIN "person_identities" pi ON pi.tenant_id = td.tenant_id AND pi.kind = 'email' AND pi.value = td.person_email
  UNION ALL
  SELECT v.tenant_id, v.day, ai_vendor_tool(v.source), v.source, p.person_id,
         COALESCE(p.person_id, md5(COALESCE('email:' || v.person_email, 'login:' || v.person_login))::uuid),
         v.lines_added, v.input_tokens + v.output_tokens, v.edits_accepted::bigint, v.edits_rejected::bigint
  FROM "ai_vendor_days" v
  LEFT JOIN "person_identities" pe ON pe.tenant_id = v.tenant_id AND pe.kind = 'email' AND pe.value = v.person_email
  LEFT JOIN "person_identities" pl ON pl.tenant_id = v.tenant_id AND pl.kind = 'codehost_username' AND pl.value = v.person_login
  CROSS JOIN LATERAL (SELECT COALESCE(pe.person_id, pl.person_id) AS person_id) p
  WHERE v.person_email IS NOT NULL OR v.person_login IS NOT NULL
) d
GROUP BY d.tenant_id, d.user_key, d.person_id, d.day, d.tool
UNION ALL
SELECT pr.tenant_id, pr.id, 'pr'::text, pr.merged_at, NULL::uuid, NULL::uuid, NULL::text, 'code host'::text,
       CASE WHEN pr.team_id IS NULL THEN '{}'::uuid[] ELSE ARRAY[pr.team_id] END,
       0::bigint, 0::bigint, 0::bigint, 0::bigint, 1::bigint, pr.additions::bigint
FROM "cube_pull_requests" pr
WHERE pr.is_merged;
