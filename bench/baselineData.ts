/**
 * Synthetic facts for one tenant, generated in the database with generate_series (seconds, not
 * minutes): teams, people, identities, memberships (10% on two teams), projects (some unowned),
 * and 36 months of PRs, commits, deployments (with rollbacks), issues (with incidents), AI
 * sessions and links, seats and surveys. Timestamps grow with the row number, so "later" holds.
 */
import type pg from 'pg';

export interface Scale {
  teams: number;
  people: number;
  projects: number;
  prs: number;
  commits: number;
  deployments: number;
  issues: number;
  sessions: number;
}

export const FULL: Scale = { teams: 200, people: 3000, projects: 440, prs: 500_000, commits: 1_000_000, deployments: 200_000, issues: 300_000, sessions: 400_000 };

/** Facts span the 36 months from `start` (YYYY-MM). */
export async function seedBaseline(pool: pg.Pool, tenantId: string, start: string, s: Scale = FULL): Promise<void> {
  const t = tenantId;
  const span = `(timestamptz '${start}-01T00:00:00Z')`;
  // Position n of total → a time in the 36 months (monotonic in n).
  const at = (n: string, total: number) => `${span} + (${n}::float8 / ${total}) * interval '1095 days'`;
  const steps: string[] = [
    `insert into org_units (tenant_id, slug, name) select '${t}'::uuid, 'unit-' || g, 'Unit ' || g from generate_series(1, 10) g`,
    `insert into teams (tenant_id, slug, name, external_ref, cost_centre_code, org_unit_id, supplier_name, delivery_model, location_country, enabled)
       select '${t}'::uuid, 'team-' || lpad(g::text, 4, '0'), 'Team ' || g, 'T' || g, 'CC' || (g % 20),
         (select id from org_units where tenant_id = '${t}' and slug = 'unit-' || (1 + g % 10)),
         case when g % 5 = 0 then 'Supplier ' || (g % 3) end, case when g % 5 = 0 then 'outsourced' else 'internal' end, 'NL', g % 50 <> 0
       from generate_series(1, ${s.teams}) g`,
    `insert into people (tenant_id, external_ref, email, display_name, employment_type, supplier_name)
       select '${t}'::uuid, 'P' || g, 'dev' || g || '@bench.example', 'Dev ' || g,
         (array['employee','employee','employee','supplier','contractor','unknown'])[1 + g % 6], case when g % 6 = 3 then 'Supplier ' || (g % 3) end
       from generate_series(1, ${s.people}) g`,
    `insert into person_identities (tenant_id, person_id, kind, value, source)
       select '${t}'::uuid, p.id, k.kind, case when k.kind = 'email' then p.email else 'dev-' || substr(p.external_ref, 2) end, 'manual'
       from people p cross join (values ('email'), ('codehost_username')) as k(kind) where p.tenant_id = '${t}'`,
    `insert into team_memberships (tenant_id, team_id, person_id, membership_source)
       select '${t}'::uuid, tm.id, p.id, 'register' from people p
       join teams tm on tm.tenant_id = '${t}' and tm.slug = 'team-' || lpad((1 + substr(p.external_ref, 2)::int % ${s.teams})::text, 4, '0')
       where p.tenant_id = '${t}'
       union all
       select '${t}'::uuid, tm.id, p.id, 'manual' from people p
       join teams tm on tm.tenant_id = '${t}' and tm.slug = 'team-' || lpad((1 + (substr(p.external_ref, 2)::int + 7) % ${s.teams})::text, 4, '0')
       where p.tenant_id = '${t}' and substr(p.external_ref, 2)::int % 10 = 0`,
    `insert into register_imports (tenant_id, row_count, imported_by, file_sha256) values ('${t}', ${s.people}, 'cli', 'bench')`,
    // Projects: the first 2 × teams owned (two per team), the rest unowned.
    `insert into projects (tenant_id, provider, project_key, source_type, owning_team_id)
       select '${t}'::uuid, 'manual', 'bench/repo-' || g, 'manual',
         case when g <= ${2 * s.teams} then (select id from teams where tenant_id = '${t}' and slug = 'team-' || lpad((1 + (g - 1) / 2)::text, 4, '0')) end
       from generate_series(1, ${s.projects}) g`,
    `create temporary table bench_projects as select row_number() over (order by project_key) as n, id from projects where tenant_id = '${t}'`,
    `insert into users (email) select 'dev' || g || '@bench.example' from generate_series(1, ${s.people}) g on conflict do nothing`,
    `insert into pull_requests (id, tenant_id, project_id, external_id, number, title, author_username, state, additions, deletions, labels, head_branch, created_at, merged_at)
       select md5('${t}pr' || g)::uuid, '${t}'::uuid, p.id, 'pr-' || g, g, 'PR ' || g, 'dev-' || (1 + g % ${s.people}),
         case when g % 10 < 8 then 'merged' else 'open' end, (g * 7) % 900, (g * 13) % 400,
         case when g % 17 = 0 then array['ai-assisted'] else '{}'::text[] end, 'b' || g,
         ${at('g', s.prs)} - ((g % 240) * interval '1 hour'),
         case when g % 10 < 8 then ${at('g', s.prs)} end
       from generate_series(1, ${s.prs}) g join bench_projects p on p.n = 1 + g % ${s.projects}`,
    `insert into commits (id, tenant_id, project_id, sha, branch, author_username, author_email, committed_at, message, ai_coauthors)
       select md5('${t}c' || g)::uuid, '${t}'::uuid, p.id, md5('sha' || g), 'main', 'dev-' || (1 + (g * 3) % ${s.people}), null,
         ${at('g', s.commits)}, 'commit ' || g, case when g % 20 = 0 then array['claude'] else '{}'::text[] end
       from generate_series(1, ${s.commits}) g join bench_projects p on p.n = 1 + g % ${s.projects}`,
    // Every second commit belongs to a PR of the same project.
    `insert into pull_request_commits (pull_request_id, commit_id, tenant_id)
       select md5('${t}pr' || g2)::uuid, md5('${t}c' || g)::uuid, '${t}'::uuid
       from generate_series(2, ${s.commits}, 2) g, lateral (select (g / 2) as g2) x
       where x.g2 <= ${s.prs} and x.g2 % ${s.projects} = g % ${s.projects}`,
    `insert into deployments (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task, is_production, is_rollback, rollback_from_sha, created_at)
       select '${t}'::uuid, p.id, 'manual', 'dep-' || g, 'main', md5('dsha' || g),
         case when g % 10 < 7 then 'production' else 'staging' end,
         case when g % 20 = 0 then 'failure' when g % 33 = 0 then 'error' when g % 41 = 0 then 'in_progress' else 'success' end,
         case when g % 97 = 0 then 'rollback' else 'deploy' end, null, g % 97 = 0,
         case when g % 97 = 0 then left(md5('dsha' || (g - ${s.projects})), 12) end,
         ${at('g', s.deployments)}
       from generate_series(1, ${s.deployments}) g join bench_projects p on p.n = 1 + g % ${s.projects}`,
    `insert into issues (tenant_id, project_id, provider, external_id, number, title, type, state, metadata, created_at, closed_at)
       select '${t}'::uuid, p.id, 'manual', 'iss-' || g, g, 'Issue ' || g,
         case when g % 20 = 0 then 'incident' else 'bug' end, case when g % 4 < 3 then 'closed' else 'open' end,
         case when g % 40 = 0 then jsonb_build_object('causedByDeployment', 'dep-' || greatest(1, (g::bigint * ${s.deployments} / ${s.issues}) - ${s.projects})) end,
         ${at('g', s.issues)} - ((g % 500) * interval '1 hour'), case when g % 4 < 3 then ${at('g', s.issues)} end
       from generate_series(1, ${s.issues}) g join bench_projects p on p.n = 1 + g % ${s.projects}`,
    `insert into ai_sessions (id, tenant_id, user_id, tool, started_at, project_key)
       select md5('${t}s' || g)::uuid, '${t}'::uuid, u.id, 'claude-code', ${at('g', s.sessions)}, null
       from generate_series(1, ${s.sessions}) g join users u on u.email = 'dev' || (1 + g % ${s.people}) || '@bench.example'`,
    `insert into ai_session_links (tenant_id, session_id, commit_id, linked_by)
       select '${t}'::uuid, md5('${t}s' || g)::uuid, md5('${t}c' || (g * 2 + 1))::uuid, 'commit_sha' from generate_series(1, ${s.sessions}, 4) g where g * 2 + 1 <= ${s.commits}`,
    `insert into ai_session_links (tenant_id, session_id, pull_request_id, linked_by)
       select '${t}'::uuid, md5('${t}s' || g)::uuid, md5('${t}pr' || g)::uuid, 'pr_number' from generate_series(2, least(${s.sessions}, ${s.prs}), 8) g`,
    `insert into seats (tenant_id, person_id, tool, assigned_on, revoked_on)
       select '${t}'::uuid, p.id, 'copilot', (timestamptz '${start}-01T00:00:00Z' + (substr(p.external_ref, 2)::int % 30) * interval '1 month')::date,
         case when substr(p.external_ref, 2)::int % 4 = 0 then (timestamptz '${start}-01T00:00:00Z' + interval '32 months')::date end
       from people p where p.tenant_id = '${t}' and substr(p.external_ref, 2)::int % 2 = 0`,
    `insert into surveys (tenant_id, title, opens_on, closes_on, status)
       select '${t}'::uuid, 'Pulse ' || g, (timestamptz '${start}-01T00:00:00Z' + (g * 3) * interval '1 month')::date,
         (timestamptz '${start}-01T00:00:00Z' + (g * 3) * interval '1 month' + interval '20 days')::date, 'closed'
       from generate_series(0, 11) g`,
    `insert into survey_invitations (tenant_id, survey_id, team_id, person_id)
       select '${t}'::uuid, s.id, m.team_id, m.person_id from surveys s join team_memberships m on m.tenant_id = s.tenant_id where s.tenant_id = '${t}'`,
    `insert into survey_responses (tenant_id, survey_id, team_id, response_key, q1, q2, q3, q4, q5)
       select '${t}'::uuid, i.survey_id, i.team_id, md5(i.id::text), 1 + abs(hashtext(p.external_ref || s.title)) % 5, 3, 4, 2, 5
       from survey_invitations i join people p on p.id = i.person_id join surveys s on s.id = i.survey_id
       where i.tenant_id = '${t}' and abs(hashtext(p.external_ref || s.title)) % 3 <> 0`,
    `drop table bench_projects`,
    `analyze`,
  ];
  const client = await pool.connect();
  try {
    // Bulk generation: skip the per-row foreign-key triggers (the generator keeps them true).
    await client.query(`set session_replication_role = replica`);
    for (const step of steps) await client.query(step);
    await client.query(`set session_replication_role = default`);
    // The replica role also skipped the triggers that keep the delivery facts (deployment outcomes,
    // recoveries, lead times: migration 0021); without this the DORA measures of the bench tenant
    // read nothing, and every figure measured on it is of an empty Overview.
    await client.query(`select delivery_facts_rebuild()`);
    await client.query(`analyze deployment_facts`);
    await client.query(`analyze change_lead_times`);
  } finally {
    client.release();
  }
}
