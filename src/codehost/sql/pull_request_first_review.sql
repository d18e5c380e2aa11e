-- A PR's first review (pull_requests.first_review_at; METRICS.md "PR phases", docs/pr-phases.md):
-- the earliest submitted review of the PR by someone other than its author (case-insensitive; an
-- unknown author counts every reviewer, hence `IS DISTINCT FROM`) and not a bot, whatever order the
-- review and the PR arrive in. Kept by two row triggers rather than by the application's
-- statements because a PL/pgSQL body's plans are cached per connection, while the application's
-- unnamed statements were planned at every delivery (bench:webhooks; docs/pr-phases.md "Cost"):
--   pull_requests, BEFORE INSERT, when the row brings no first review: computed from the stored
--     reviews (a review stored before its PR). It fires for the proposed row of INSERT … ON CONFLICT
--     too, and `excluded.first_review_at` carries its value, so the code host's upsert, which sets
--     `first_review_at = excluded.first_review_at`, recomputes it for the author the delivery names
--     (an author learnt or changed later);
--   pull_request_reviews, AFTER INSERT of a review not a bot's: moves its PR's first review earlier
--     when the reviewer is not the PR's author. A row trigger, not a statement trigger over a
--     transition table: every writer inserts one review a statement (the webhook and the backfill
--     replay each review), a redelivery (ON CONFLICT DO NOTHING) inserts nothing and so fires no row
--     trigger, and the WHEN clause leaves a bot's review without a call.
-- Each sees only what the other has committed, so both first take the PR's transaction lock (an
-- advisory lock on its project and number): a PR and its review written by overlapping
-- transactions (a late PR delivery beside its review; the backfill replaying a PR while the webhook
-- brings a review) are then written one after the other, and the second finds the first. Before,
-- each missed the other and the first review was lost, or overwritten by the upsert's stale value.
-- The review's lock is taken by a BEFORE INSERT trigger, before its row exists: a transaction that
-- holds the PR's lock and then inserts the same review (the backfill) never waits on a row of one
-- that waits for the lock. In the triggers rather than a statement of the application's: no
-- statement more to plan per delivery (bench:webhooks).
-- One function for both, by table (as ai_attribution_note); the triggers are created here, after it:
-- a versioned migration runs before this file exists on a fresh database (docs/sql-source.md).
CREATE OR REPLACE FUNCTION pull_request_first_review() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'pull_request_reviews' THEN
    IF TG_WHEN = 'BEFORE' THEN
      PERFORM pg_advisory_xact_lock(hashtextextended('pull_request:' || NEW.project_id || ':' || NEW.pull_request_number, 0));
      RETURN NEW;
    END IF;
    UPDATE "pull_requests" p SET first_review_at = NEW.submitted_at
    WHERE p.project_id = NEW.project_id AND p.number = NEW.pull_request_number
      AND lower(p.author_username) IS DISTINCT FROM lower(NEW.reviewer)
      AND (p.first_review_at IS NULL OR p.first_review_at > NEW.submitted_at);
    RETURN NULL;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended('pull_request:' || NEW.project_id || ':' || NEW.number, 0));
  SELECT min(r.submitted_at) INTO NEW.first_review_at
  FROM "pull_request_reviews" r
  WHERE r.project_id = NEW.project_id AND r.pull_request_number = NEW.number AND NOT r.reviewer_is_bot
    AND lower(r.reviewer) IS DISTINCT FROM lower(NEW.author_username);
  RETURN NEW;
END $$;
DROP TRIGGER IF EXISTS pull_request_first_review ON "pull_requests";
CREATE TRIGGER pull_request_first_review BEFORE INSERT ON "pull_requests"
  FOR EACH ROW WHEN (NEW.first_review_at IS NULL) EXECUTE FUNCTION pull_request_first_review();
DROP TRIGGER IF EXISTS pull_request_first_review_lock ON "pull_request_reviews";
CREATE TRIGGER pull_request_first_review_lock BEFORE INSERT ON "pull_request_reviews"
  FOR EACH ROW WHEN (NOT NEW.reviewer_is_bot) EXECUTE FUNCTION pull_request_first_review();
DROP TRIGGER IF EXISTS pull_request_first_review ON "pull_request_reviews";
CREATE TRIGGER pull_request_first_review AFTER INSERT ON "pull_request_reviews"
  FOR EACH ROW WHEN (NOT NEW.reviewer_is_bot) EXECUTE FUNCTION pull_request_first_review();
