-- Defined by versioned migrations up to 0011_cube_uuid_keys; since then by this file (docs/sql-source.md).
CREATE OR REPLACE VIEW "cube_author_activity" AS
SELECT pr.tenant_id, p.owning_team_id AS team_id, 'pull_request' AS kind, pr.id AS fact_id, pr.merged_at AS happened_at,
       COALESCE(pi.person_id, md5('username:' || lower(pr.author_username))::uuid) AS author_key
FROM "pull_requests" pr
LEFT JOIN "projects" p ON p.id = pr.project_id
LEFT JOIN "person_identities" pi ON pi.tenant_id = pr.tenant_id AND pi.kind = 'codehost_username' AND pi.value = lower(pr.author_username)
WHERE pr.merged_at IS NOT NULL
UNION ALL
SELECT c.tenant_id, p.owning_team_id AS team_id, 'commit' AS kind, c.id AS fact_id, c.committed_at AS happened_at,
       COALESCE(pu.person_id, pe.person_id, md5('username:' || lower(c.author_username))::uuid, md5('email:' || lower(c.author_email))::uuid) AS author_key
FROM "commits" c
LEFT JOIN "projects" p ON p.id = c.project_id
LEFT JOIN "person_identities" pu ON pu.tenant_id = c.tenant_id AND pu.kind = 'codehost_username' AND pu.value = lower(c.author_username)
LEFT JOIN "person_identities" pe ON pe.tenant_id = c.tenant_id AND pe.kind = 'email' AND pe.value = lower(c.author_email);
