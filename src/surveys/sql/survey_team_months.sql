-- Defined by versioned migrations up to 0005_survey_team_months_view; since then by this file (docs/sql-source.md).
-- Perception measures per team and month (METRICS.md "Perception"): a survey counts in every
-- calendar month its answer window overlaps (opens_on to closes_on, or to the day it was closed
-- early). The score is shown only from 3 responses on, so a small team cannot be de-anonymised.
CREATE OR REPLACE VIEW "survey_team_months" AS
WITH survey_months AS (
  SELECT s.id AS survey_id, s.tenant_id, gs::date AS month
  FROM "surveys" s
  CROSS JOIN LATERAL generate_series(
    date_trunc('month', s.opens_on::timestamp),
    date_trunc('month', LEAST(s.closes_on, COALESCE((s.closed_at AT TIME ZONE 'UTC')::date, s.closes_on))::timestamp),
    interval '1 month') AS gs
),
invited AS (
  SELECT survey_id, team_id, count(*)::int AS invitations FROM "survey_invitations" GROUP BY survey_id, team_id
),
answered AS (
  SELECT survey_id, team_id, count(*)::int AS responses, sum(q1 + q2 + q3 + q4 + q5)::int AS answer_sum
  FROM "survey_responses" GROUP BY survey_id, team_id
),
per_team AS (
  SELECT sm.tenant_id, i.team_id, sm.month,
         sum(i.invitations)::int AS invitations,
         COALESCE(sum(a.responses), 0)::int AS responses,
         COALESCE(sum(a.answer_sum), 0)::int AS answer_sum
  FROM survey_months sm
  JOIN invited i ON i.survey_id = sm.survey_id
  LEFT JOIN answered a ON a.survey_id = i.survey_id AND a.team_id = i.team_id
  GROUP BY sm.tenant_id, i.team_id, sm.month
)
SELECT tenant_id, team_id, month, invitations, responses, answer_sum,
       responses * 5 AS answer_count,
       CASE WHEN invitations > 0 THEN responses::numeric / invitations END AS response_rate,
       CASE WHEN responses >= 3 THEN (answer_sum::numeric / (responses * 5) - 1) * 25 END AS experience_score
FROM per_team;
