-- Defined by versioned migrations up to 0003_activity_facts; since then by this file (docs/sql-source.md).
CREATE OR REPLACE VIEW "public"."pull_request_ai_assisted" AS (
  select f.pull_request_id, f.tenant_id, f.via_session, f.via_trailer, f.via_label,
         (f.via_session or f.via_trailer or f.via_label) as ai_assisted
  from (
    select pr.id as pull_request_id, pr.tenant_id,
      exists (select 1 from ai_session_links l where l.pull_request_id = pr.id) as via_session,
      exists (select 1 from pull_request_commits prc join commits c on c.id = prc.commit_id
              where prc.pull_request_id = pr.id and cardinality(c.ai_coauthors) > 0) as via_trailer,
      exists (select 1 from unnest(pr.labels) as label where lower(label) = 'ai-assisted') as via_label
    from pull_requests pr
  ) f);
