-- Reverted within 30 days, stored per merged PR (issue 47, METRICS.md "Rework"; docs/pr-phases.md
-- "Reverted, stored"): the rule was a subquery per PR in cube_pull_requests, evaluated for every merged
-- PR of a window on each read (about 0.5 s of each AI impact query over the 200-team bench tenant's
-- 133,000 merged PRs of a year). It is now computed by change_lead_times_refresh (src/cube/sql/) for
-- the PRs the delivery facts' notes name, together with the PRs a noted PR may revert or may have
-- reverted (delivery_facts_catch_up), and read from change_lead_times.
-- reverted_because: why the PR counts as reverted (the rule's text), reverted_by: the reverting PR,
-- kept so that a reverting PR changed or deleted later recomputes the PR it had reverted. No foreign
-- key: a deleted reverting PR must leave its id here for that recomputation to find.
ALTER TABLE "change_lead_times" ADD COLUMN "reverted_because" text, ADD COLUMN "reverted_by" uuid;
--> statement-breakpoint
CREATE INDEX "change_lead_times_reverted_by_idx" ON "change_lead_times" ("reverted_by") WHERE "reverted_by" IS NOT NULL;
--> statement-breakpoint
-- Every existing merged PR's flag, by the rule as it stands at this migration (the view's subquery,
-- now in change_lead_times_refresh): a fresh database has no rows here.
UPDATE "change_lead_times" l SET reverted_because = w.why, reverted_by = w.id
FROM "pull_requests" pr
CROSS JOIN LATERAL (
  SELECT w.id, w.why FROM (
    SELECT r.id, r.merged_at, r.number, 'reverted by #' || r.number || ' on ' || to_char(r.merged_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') || ': title Revert "' || pr.title || '"' AS why
    FROM "pull_requests" r
    WHERE r.project_id = pr.project_id AND r.title LIKE 'Revert "%' AND md5(r.title) = md5('Revert "' || pr.title || '"') AND r.title = 'Revert "' || pr.title || '"'
      AND r.merged_at > pr.merged_at AND r.merged_at <= pr.merged_at + interval '30 days'
    UNION ALL
    SELECT r.id, r.merged_at, r.number, 'reverted by #' || r.number || ' on ' || to_char(r.merged_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') || ': commit ' || left(c.sha, 7) || ' reverts ' || left(s.sha, 7) AS why
    FROM (SELECT lower(pr.merge_commit_sha) AS sha WHERE pr.merge_commit_sha IS NOT NULL
          UNION SELECT x.sha FROM "pull_request_commits" xc JOIN "commits" x ON x.id = xc.commit_id WHERE xc.pull_request_id = pr.id) s
    JOIN "commits" c ON c.project_id = pr.project_id AND c.reverts_sha IS NOT NULL AND left(c.reverts_sha, 7) = left(s.sha, 7) AND starts_with(s.sha, c.reverts_sha)
    JOIN "pull_request_commits" rc ON rc.commit_id = c.id
    JOIN "pull_requests" r ON r.id = rc.pull_request_id
    WHERE r.id <> pr.id AND r.merged_at > pr.merged_at AND r.merged_at <= pr.merged_at + interval '30 days'
  ) w ORDER BY w.merged_at, w.number, w.why LIMIT 1
) w
WHERE pr.id = l.pull_request_id AND pr.merged_at IS NOT NULL;
--> statement-breakpoint
-- The inputs of the rule a PR or commit update may change: a PR's title or merge commit, a commit's
-- sha or the sha its message says it reverts (commits.reverts_sha, generated from the message).
DROP TRIGGER "delivery_facts_note_update" ON "pull_requests";
--> statement-breakpoint
CREATE TRIGGER "delivery_facts_note_update" AFTER UPDATE ON "pull_requests" FOR EACH ROW
  WHEN ((OLD.project_id, OLD.merged_at, OLD.created_at, OLD.title, OLD.merge_commit_sha) IS DISTINCT FROM (NEW.project_id, NEW.merged_at, NEW.created_at, NEW.title, NEW.merge_commit_sha))
  EXECUTE FUNCTION delivery_facts_note_pull_request();
--> statement-breakpoint
DROP TRIGGER "delivery_facts_note_update" ON "commits";
--> statement-breakpoint
CREATE TRIGGER "delivery_facts_note_update" AFTER UPDATE ON "commits" FOR EACH ROW
  WHEN ((OLD.committed_at, OLD.sha, OLD.reverts_sha) IS DISTINCT FROM (NEW.committed_at, NEW.sha, NEW.reverts_sha))
  EXECUTE FUNCTION delivery_facts_note_commit();
