-- Views read by the Cube models in schema/ (issue 8). The window logic of METRICS.md lives here,
-- once: an incident's causing deployment, a deployment rolled back later, failure, recovery, the
-- AI-assisted flag, author identity, and person → team attribution. Every view keeps tenant_id so
-- each cube can apply the tenant requiredFilter; the joins carry tenant_id so that filter reaches
-- the grouped subqueries too.
CREATE INDEX IF NOT EXISTS "deployments_tenant_external_idx" ON "deployments" ("tenant_id", "external_id");
--> statement-breakpoint
CREATE VIEW "cube_incidents" AS
SELECT i.tenant_id, i.id, i.project_id, p.owning_team_id AS team_id, i.state, i.created_at, i.closed_at,
       COALESCE(named.id, recent.id) AS caused_by_deployment_id
FROM "issues" i
LEFT JOIN "projects" p ON p.id = i.project_id
-- metadata.causedByDeployment names the deployment's externalId (same project preferred).
LEFT JOIN LATERAL (
  SELECT d.id FROM "deployments" d
  WHERE d.tenant_id = i.tenant_id AND d.external_id = i.metadata ->> 'causedByDeployment'
  ORDER BY (d.project_id = i.project_id) DESC, d.created_at DESC, d.id
  LIMIT 1
) named ON true
-- Otherwise the latest successful production deployment of the project in the 24 h before.
LEFT JOIN LATERAL (
  SELECT d.id FROM "deployments" d
  WHERE named.id IS NULL AND d.project_id = i.project_id AND d.status = 'success'
    AND COALESCE(d.is_production, d.environment = 'production')
    AND d.created_at >= i.created_at - interval '24 hours' AND d.created_at <= i.created_at
  ORDER BY d.created_at DESC, d.id
  LIMIT 1
) recent ON true
WHERE i.type = 'incident';
--> statement-breakpoint
CREATE VIEW "cube_deployment_flags" AS
SELECT d.tenant_id, d.id, d.project_id, p.owning_team_id AS team_id, d.environment, d.status, d.sha, d.is_rollback,
       d.created_at,
       COALESCE(d.is_production, d.environment = 'production') AS is_production,
       d.status IN ('success', 'failure', 'error') AS is_finished,
       rb.id IS NOT NULL AS rolled_back,
       ci.caused_by_deployment_id IS NOT NULL AS caused_incident
FROM "deployments" d
LEFT JOIN "projects" p ON p.id = d.project_id
-- Rolled back later: a later rollback of the same project names its sha (either may be abbreviated).
LEFT JOIN (
  SELECT DISTINCT t.tenant_id, t.id
  FROM "deployments" t
  JOIN "deployments" r ON r.project_id = t.project_id AND r.is_rollback
    AND left(lower(r.rollback_from_sha), 7) = left(lower(t.sha), 7)
  WHERE r.created_at > t.created_at
    AND (starts_with(lower(t.sha), lower(r.rollback_from_sha)) OR starts_with(lower(r.rollback_from_sha), lower(t.sha)))
) rb ON rb.tenant_id = d.tenant_id AND rb.id = d.id
LEFT JOIN (
  SELECT DISTINCT tenant_id, caused_by_deployment_id FROM "cube_incidents" WHERE caused_by_deployment_id IS NOT NULL
) ci ON ci.tenant_id = d.tenant_id AND ci.caused_by_deployment_id = d.id;
--> statement-breakpoint
CREATE VIEW "cube_deployments" AS
SELECT f.*,
       f.is_production AND (f.status IN ('failure', 'error') OR f.rolled_back OR f.caused_incident) AS is_failed,
       -- Evaluated only when a query reads it: the next successful, not rolled back, production
       -- deployment of the same project after a failed one.
       CASE WHEN f.is_production AND (f.status IN ('failure', 'error') OR f.rolled_back OR f.caused_incident) THEN (
         SELECT min(n.created_at) FROM "deployments" n
         WHERE n.project_id = f.project_id AND n.created_at > f.created_at AND n.status = 'success'
           AND COALESCE(n.is_production, n.environment = 'production')
           AND NOT EXISTS (
             SELECT 1 FROM "deployments" r
             WHERE r.project_id = n.project_id AND r.is_rollback AND r.created_at > n.created_at
               AND (starts_with(lower(n.sha), lower(r.rollback_from_sha)) OR starts_with(lower(r.rollback_from_sha), lower(n.sha)))
           )
       ) END AS recovered_at
FROM "cube_deployment_flags" f;
--> statement-breakpoint
-- The same rule as the pull_request_ai_assisted view (a test holds them equal), written with
-- grouped joins so that a 36-month export does not run three subqueries per pull request.
CREATE VIEW "cube_pull_requests" AS
SELECT pr.tenant_id, pr.id, pr.project_id, p.owning_team_id AS team_id, pr.number, pr.state, pr.draft, pr.author_username,
       pr.additions, pr.deletions,
       pr.additions + pr.deletions AS change_volume,
       CASE WHEN pr.additions + pr.deletions <= 10 THEN 1
            WHEN pr.additions + pr.deletions <= 50 THEN 2
            WHEN pr.additions + pr.deletions <= 250 THEN 3
            WHEN pr.additions + pr.deletions <= 1000 THEN 5
            ELSE 8 END AS change_effort_units,
       pr.created_at, pr.merged_at, pr.closed_at,
       (ls.pull_request_id IS NOT NULL OR tr.pull_request_id IS NOT NULL
        OR EXISTS (SELECT 1 FROM unnest(pr.labels) AS label WHERE lower(label) = 'ai-assisted')) AS ai_assisted
FROM "pull_requests" pr
LEFT JOIN "projects" p ON p.id = pr.project_id
LEFT JOIN (
  SELECT DISTINCT tenant_id, pull_request_id FROM "ai_session_links" WHERE pull_request_id IS NOT NULL
) ls ON ls.tenant_id = pr.tenant_id AND ls.pull_request_id = pr.id
LEFT JOIN (
  SELECT DISTINCT prc.tenant_id, prc.pull_request_id
  FROM "pull_request_commits" prc JOIN "commits" c ON c.id = prc.commit_id
  WHERE cardinality(c.ai_coauthors) > 0
) tr ON tr.tenant_id = pr.tenant_id AND tr.pull_request_id = pr.id;
--> statement-breakpoint
CREATE VIEW "cube_commits" AS
SELECT c.tenant_id, c.id, c.project_id, p.owning_team_id AS team_id, c.sha, c.branch, c.author_username, c.author_email,
       c.committed_at, cardinality(c.ai_coauthors) > 0 AS has_ai_coauthor
FROM "commits" c
LEFT JOIN "projects" p ON p.id = c.project_id;
--> statement-breakpoint
-- One row per merged PR and per commit; author_key is the matched person, else the username
-- (else the e-mail) of the unmatched author.
CREATE VIEW "cube_author_activity" AS
SELECT pr.tenant_id, p.owning_team_id AS team_id, 'pull_request' AS kind, pr.id AS fact_id, pr.merged_at AS happened_at,
       COALESCE(pi.person_id::text, 'username:' || lower(pr.author_username)) AS author_key
FROM "pull_requests" pr
LEFT JOIN "projects" p ON p.id = pr.project_id
LEFT JOIN "person_identities" pi ON pi.tenant_id = pr.tenant_id AND pi.kind = 'codehost_username' AND pi.value = lower(pr.author_username)
WHERE pr.merged_at IS NOT NULL
UNION ALL
SELECT c.tenant_id, p.owning_team_id AS team_id, 'commit' AS kind, c.id AS fact_id, c.committed_at AS happened_at,
       COALESCE(pu.person_id::text, pe.person_id::text, 'username:' || lower(c.author_username), 'email:' || lower(c.author_email)) AS author_key
FROM "commits" c
LEFT JOIN "projects" p ON p.id = c.project_id
LEFT JOIN "person_identities" pu ON pu.tenant_id = c.tenant_id AND pu.kind = 'codehost_username' AND pu.value = lower(c.author_username)
LEFT JOIN "person_identities" pe ON pe.tenant_id = c.tenant_id AND pe.kind = 'email' AND pe.value = lower(c.author_email);
--> statement-breakpoint
-- A session belongs to the person whose e-mail identity is the uploader's e-mail, and counts for
-- every enabled team of that person: one row per (session, team), team_id NULL when none.
CREATE VIEW "cube_ai_sessions" AS
SELECT s.tenant_id, s.id, s.id::text || ':' || COALESCE(tm.team_id::text, '-') AS row_key, s.user_id, pi.person_id,
       tm.team_id, s.tool, s.model, s.started_at, s.ended_at,
       COALESCE(pi.person_id::text, 'user:' || s.user_id::text) AS user_key
FROM "ai_sessions" s
JOIN "users" u ON u.id = s.user_id
LEFT JOIN "person_identities" pi ON pi.tenant_id = s.tenant_id AND pi.kind = 'email' AND pi.value = lower(u.email)
LEFT JOIN ("team_memberships" tm JOIN "teams" t ON t.id = tm.team_id AND t.enabled)
  ON tm.tenant_id = s.tenant_id AND tm.person_id = pi.person_id;
--> statement-breakpoint
-- Commits an AI session names, counted for every enabled team of the session's person.
CREATE VIEW "cube_ai_commits" AS
SELECT c.tenant_id, c.id, l.id AS link_id, l.id::text || ':' || COALESCE(tm.team_id::text, '-') AS row_key, c.project_id, c.committed_at,
       l.session_id, pi.person_id, tm.team_id
FROM "ai_session_links" l
JOIN "commits" c ON c.id = l.commit_id
JOIN "ai_sessions" s ON s.id = l.session_id
JOIN "users" u ON u.id = s.user_id
LEFT JOIN "person_identities" pi ON pi.tenant_id = s.tenant_id AND pi.kind = 'email' AND pi.value = lower(u.email)
LEFT JOIN ("team_memberships" tm JOIN "teams" t ON t.id = tm.team_id AND t.enabled)
  ON tm.tenant_id = s.tenant_id AND tm.person_id = pi.person_id;
--> statement-breakpoint
-- A seat counts in every month it is held on at least one day (assigned_on to revoked_on, or today).
CREATE VIEW "cube_seat_months" AS
SELECT s.tenant_id, s.id AS seat_id, s.id::text || ':' || m::date::text || ':' || COALESCE(tm.team_id::text, '-') AS row_key,
       s.person_id, s.tool, s.assigned_on, s.revoked_on, tm.team_id, m::date AS month
FROM "seats" s
CROSS JOIN LATERAL generate_series(
  date_trunc('month', s.assigned_on::timestamp),
  date_trunc('month', COALESCE(s.revoked_on, (now() AT TIME ZONE 'UTC')::date)::timestamp),
  interval '1 month') AS m
LEFT JOIN ("team_memberships" tm JOIN "teams" t ON t.id = tm.team_id AND t.enabled)
  ON tm.tenant_id = s.tenant_id AND tm.person_id = s.person_id;
