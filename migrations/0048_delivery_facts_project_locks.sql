-- The stored delivery facts (migration 0021) serialise their writers per *project* instead of per
-- tenant (docs/write-path.md). Every rule relates rows of one project: a rollback names a sha of its
-- project, an unnamed incident's cause and a recovery are within its project, a PR's lead time
-- ends at a deployment of its project and starts at its own commits. Two rules reach across the
-- tenant, and they keep a tenant-wide lock:
--   * an incident naming a deployment by externalId (metadata.causedByDeployment) may name one of any
--     project of the tenant, existing or not yet written: such an incident write takes the tenant's
--     lock exclusively (incidents are few beside deployments, and most name none);
--   * a commit's time corrected changes the lead time of every PR it is linked to, in any project,
--     and a link being written concurrently is not yet visible: the commit write takes it exclusively.
-- Every other write takes the tenant's lock *shared* (so it waits for those two kinds, and they for
-- it) and then its projects' locks, exclusively, in uuid order:
--   * a deployment: its project, old and new, and the projects of the incidents that name its
--     externalId, old and new (read after the shared lock, so no incident naming it can be written
--     meanwhile: the set is exact), because its write moves those incidents' causes;
--   * an incident naming no deployment: its project, old and new;
--   * a pull request: its project, old and new;
--   * a commit linked to or unlinked from a PR: the PR's project (read again after the lock until it
--     holds still, in case the PR was being moved).
-- An INSERT … ON CONFLICT locks, with its new row's project, the project of the row it may update
-- (the same externalId), so that its BEFORE UPDATE takes no lock out of order.
-- A statement's rows take their locks one row after another; the webhook batch writes its rows
-- ordered by (tenant, project, externalId), so two batches take them in one order. A row that also
-- needs another project (a move, a named incident elsewhere) can still meet another writer in the
-- opposite order: PostgreSQL then detects the deadlock and fails one transaction, as it would for
-- row locks (the webhook batch then runs each of its requests alone, src/webhooks/batch.ts).
CREATE OR REPLACE FUNCTION delivery_facts_lock(tenants uuid[]) RETURNS void LANGUAGE sql AS $$
  SELECT count(pg_advisory_xact_lock_shared(hashtextextended('delivery_facts:' || t, 0)))
  FROM (SELECT DISTINCT t FROM unnest(tenants) AS u(t) ORDER BY t) s
$$;
--> statement-breakpoint
CREATE FUNCTION delivery_facts_lock_projects(tenant uuid, projects uuid[]) RETURNS void LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock_shared(hashtextextended('delivery_facts:' || tenant, 0));
  SELECT count(pg_advisory_xact_lock(hashtextextended('delivery_facts:project:' || p, 0)))
  FROM (SELECT DISTINCT p FROM unnest(projects) AS u(p) WHERE p IS NOT NULL ORDER BY p) s;
$$;
--> statement-breakpoint
CREATE FUNCTION delivery_facts_lock_tenant(tenant uuid) RETURNS void LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(hashtextextended('delivery_facts:' || tenant, 0));
$$;
--> statement-breakpoint
-- A link's PR may be moving to another project while we wait: lock until its projects hold still.
CREATE FUNCTION delivery_facts_lock_link(tenant uuid, prs uuid[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  locked uuid[] := '{}';
  wanted uuid[];
BEGIN
  LOOP
    wanted := ARRAY(SELECT DISTINCT pr.project_id FROM "pull_requests" pr WHERE pr.id = ANY (prs) ORDER BY 1);
    EXIT WHEN wanted <@ locked;
    PERFORM delivery_facts_lock_projects(tenant, wanted);
    locked := locked || wanted;
  END LOOP;
END $$;
--> statement-breakpoint
-- BEFORE ROW on every write that may change the facts (the triggers of 0021, unchanged): the locks
-- above. OLD is null on INSERT and NEW on DELETE (its fields read as null).
CREATE OR REPLACE FUNCTION delivery_facts_lock_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tenant uuid := COALESCE(NEW.tenant_id, OLD.tenant_id);
BEGIN
  IF OLD.tenant_id IS DISTINCT FROM NEW.tenant_id AND OLD.tenant_id IS NOT NULL AND NEW.tenant_id IS NOT NULL THEN
    -- A row moved between tenants (never done by the service): both tenants, exclusively, in order.
    PERFORM delivery_facts_lock_tenant(t) FROM unnest(ARRAY[OLD.tenant_id, NEW.tenant_id]) AS u(t) ORDER BY t;
  ELSIF TG_TABLE_NAME = 'deployments' THEN
    PERFORM pg_advisory_xact_lock_shared(hashtextextended('delivery_facts:' || tenant, 0));
    -- An INSERT … ON CONFLICT that turns into an UPDATE of a row in another project takes that
    -- project's lock again in its BEFORE UPDATE: it is taken here already, in order with the rest.
    PERFORM delivery_facts_lock_projects(tenant, ARRAY[OLD.project_id, NEW.project_id] || ARRAY(
      SELECT i.project_id FROM "issues" i
      WHERE i.tenant_id = tenant AND i.type = 'incident'
        AND (i.metadata ->> 'causedByDeployment') IN (OLD.external_id, NEW.external_id)) || ARRAY(
      SELECT d.project_id FROM "deployments" d
      WHERE TG_OP = 'INSERT' AND d.tenant_id = tenant AND d.provider = NEW.provider AND d.external_id = NEW.external_id));
  ELSIF TG_TABLE_NAME = 'issues' THEN
    IF (OLD.metadata ->> 'causedByDeployment') IS NOT NULL OR (NEW.metadata ->> 'causedByDeployment') IS NOT NULL
       OR (TG_OP = 'INSERT' AND EXISTS (SELECT 1 FROM "issues" i WHERE i.tenant_id = tenant AND i.provider = NEW.provider
             AND i.external_id = NEW.external_id AND i.type = 'incident' AND (i.metadata ->> 'causedByDeployment') IS NOT NULL)) THEN
      PERFORM delivery_facts_lock_tenant(tenant);
    ELSE
      PERFORM delivery_facts_lock_projects(tenant, ARRAY[OLD.project_id, NEW.project_id] || ARRAY(
        SELECT i.project_id FROM "issues" i
        WHERE TG_OP = 'INSERT' AND i.tenant_id = tenant AND i.provider = NEW.provider AND i.external_id = NEW.external_id));
    END IF;
  ELSIF TG_TABLE_NAME = 'pull_requests' THEN
    PERFORM delivery_facts_lock_projects(tenant, ARRAY[OLD.project_id, NEW.project_id]);
  ELSIF TG_TABLE_NAME = 'pull_request_commits' THEN
    PERFORM delivery_facts_lock_link(tenant, ARRAY[OLD.pull_request_id, NEW.pull_request_id]);
  ELSE
    -- commits: a corrected commit time.
    PERFORM delivery_facts_lock_tenant(tenant);
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$;
