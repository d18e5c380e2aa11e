-- Defined by versioned migrations up to 0026_survey_team_results; since then by this file (docs/sql-source.md).
-- Results of each survey per invited team (the `survey_results` cube, Settings › Surveys): counts
-- and answer sums only; the score is shown from 3 responses on (METRICS.md "Perception"), which
-- the cube measure decides, as `survey_team_months` does for months.
CREATE OR REPLACE VIEW "survey_team_results" AS
SELECT i.tenant_id, i.survey_id, i.team_id, i.invitations,
       COALESCE(a.responses, 0)::int AS responses,
       COALESCE(a.answer_sum, 0)::int AS answer_sum,
       (COALESCE(a.responses, 0) * 5)::int AS answer_count
FROM (
  SELECT tenant_id, survey_id, team_id, count(*)::int AS invitations
  FROM "survey_invitations" GROUP BY tenant_id, survey_id, team_id
) i
LEFT JOIN (
  SELECT survey_id, team_id, count(*)::int AS responses, sum(q1 + q2 + q3 + q4 + q5)::int AS answer_sum
  FROM "survey_responses" GROUP BY survey_id, team_id
) a ON a.survey_id = i.survey_id AND a.team_id = i.team_id;
