-- AI attribution (docs/ai-attribution.md); defined by this file since the merge onto the SQL files (docs/sql-source.md).
-- A commit's attribution, by the same rules: high (ai_commit_evidence), medium (an AI trailer), low
-- (its author's AI activity that day).
-- depends-on: ai_activity_days, ai_commit_evidence
CREATE OR REPLACE VIEW "commit_attribution" AS
SELECT f.tenant_id, f.commit_id,
       CASE WHEN f.high_evidence IS NOT NULL THEN 'high'
            WHEN f.has_ai_trailer THEN 'medium'
            WHEN f.activity_evidence IS NOT NULL THEN 'low'
            ELSE 'none' END AS ai_attribution,
       CASE WHEN f.high_evidence IS NOT NULL THEN f.high_evidence
            WHEN f.has_ai_trailer THEN 'trailer ' || f.trailer
            ELSE f.activity_evidence END AS ai_attribution_evidence
FROM (
  SELECT c.tenant_id, c.id AS commit_id,
         (cardinality(c.ai_trailers) > 0 OR cardinality(c.ai_coauthors) > 0) AS has_ai_trailer,
         COALESCE(c.ai_trailers[1], 'Co-authored-by: ' || c.ai_coauthors[1]) AS trailer,
         (SELECT string_agg(e.evidence, '; ' ORDER BY e.evidence) FROM "ai_commit_evidence" e WHERE e.tenant_id = c.tenant_id AND e.commit_id = c.id) AS high_evidence,
         (SELECT 'author ' || COALESCE(c.author_username, c.author_email) || ': AI activity (' || a.source || ', ' || a.tool || ') on ' || a.day::text
          FROM (SELECT lower(c.author_email) AS person_key WHERE c.author_email IS NOT NULL
                UNION SELECT 'login:' || lower(c.author_username) WHERE c.author_username IS NOT NULL
                UNION SELECT CASE WHEN pe.kind = 'email' THEN pe.value ELSE 'login:' || pe.value END
                FROM "person_identities" pa JOIN "person_identities" pe ON pe.tenant_id = pa.tenant_id AND pe.person_id = pa.person_id
                WHERE pa.tenant_id = c.tenant_id AND ((pa.kind = 'codehost_username' AND pa.value = lower(c.author_username)) OR (pa.kind = 'email' AND pa.value = lower(c.author_email)))) k
          JOIN "ai_activity_days" a ON a.tenant_id = c.tenant_id AND a.person_key = k.person_key AND a.day = (c.committed_at AT TIME ZONE 'UTC')::date
          ORDER BY a.source, a.tool LIMIT 1) AS activity_evidence
  FROM "commits" c
) f;
