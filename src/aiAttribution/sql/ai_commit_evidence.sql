-- AI attribution (docs/ai-attribution.md); defined by this file since the merge onto the SQL files (docs/sql-source.md).
-- What says a commit was written with AI (the high level): a session that names it (uploaded or
-- captured; or built from telemetry, whose commits come from a tool_result's `git commit`), or a
-- vendor's per-commit data. `signal` is session, telemetry_commit or vendor_commit; `evidence` the
-- words a drill-through shows.
-- depends-on: ai_vendor_commit_evidence
CREATE OR REPLACE VIEW "ai_commit_evidence" AS
SELECT l.tenant_id, l.commit_id,
       CASE WHEN s.source = 'telemetry' THEN 'telemetry_commit' ELSE 'session' END AS signal,
       s.source, s.id AS session_id,
       'session ' || s.id::text || CASE WHEN s.source = 'telemetry' THEN ' (telemetry) names commit ' || left(c.sha, 7) || ' in a ' || s.tool || ' tool_result'
                                        ELSE ' (uploaded) names commit ' || left(c.sha, 7) END AS evidence
FROM "ai_session_links" l
JOIN "ai_sessions" s ON s.id = l.session_id
JOIN "commits" c ON c.id = l.commit_id
WHERE l.commit_id IS NOT NULL
UNION ALL
SELECT v.tenant_id, v.commit_id, v.signal, v.source, v.session_id, v.evidence FROM "ai_vendor_commit_evidence" v;
