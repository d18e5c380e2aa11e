/**
 * A team worked by hand for "AI against not" (docs/ai-impact.md), seeded through SQL (the triggers
 * keep change_lead_times, so coding and deploy times are the product's own). Team core owns two
 * repositories: acme/ai (its PRs labelled ai-assisted) and acme/plain (the others), each PR on
 * its own day, opened at 00:00 UTC, ready when opened.
 *
 * March 2026, AI PR i (i = 1..20): first commit i h before opening (coding i h); reviewed for
 *   i ≤ 16, 1 h after opening (pickup 1 h), merged i h later (review i h); i > 16 merged without
 *   review 1 + i h after opening. Cycle 1 + i h: {2..21} h → 11.5 h. Coding {1..20} → 10.5 h.
 *   Pickup 1 h (n 16), review {1..16} → 8.5 h (n 16). Size 10 i → 105. Deployed 1 h after the
 *   merge for i ≤ 10 (n 10, 1 h). Merged without review 4/20. #19 'Revert "ai-2"' and
 *   #20 'Revert "ai-1"': reverted 2/20.
 * March 2026, not-AI PR j (j = 1..20): coding 2 j h → 21 h; pickup 3 h and review j h for j ≥ 3
 *   (n 18; review {3..20} → 11.5 h); j ≤ 2 merged without review 3 + j h after opening; cycle
 *   3 + j h: {4..23} → 13.5 h. Size 100 + 5 j → 152.5. Deployed 2 h after each merge (n 20, 2 h).
 *   Merged without review 2/20; #20 'Revert "plain-1"': reverted 1/20.
 * Deployments that shipped them (change failure rate): the AI PRs' ten, of which those of ai-1..ai-3
 *   are rolled back (a later rollback deployment names their sha): 3/10 = 0.3; the not-AI PRs'
 *   twenty, plain-1 and plain-2 rolled back: 2/20 = 0.1. The AI side has 10 (< 20): no difference.
 * Attribution levels: the AI PRs are medium (their label), the others none; so per level, medium =
 *   the AI side, none = the not-AI side, high and low no PR (null, n 0).
 * February 2026: five not-AI PRs (Feb 1..5) merged 10 h after opening without review or commit.
 * Adoption: four register members; one uses AI in February (1/4), two in March (2/4 ≥ 0.5): the
 * adoption month is 2026-03; a one-month window compares March (40 PRs) with February (5 PRs).
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';

export const H = 3600;

export interface AiSeed {
  teamId: string;
  smallTeamId: string;
}

export async function seedAiImpact(pool: pg.Pool, t: string): Promise<AiSeed> {
  const tag = randomBytes(3).toString('hex');
  const one = async (sql: string, params: unknown[]) => (await pool.query(sql, params)).rows[0] as { id: string };
  const teamId = (await one(`insert into teams (tenant_id, slug, name) values ($1, 'core', 'Core') returning id`, [t])).id;
  const smallTeamId = (await one(`insert into teams (tenant_id, slug, name) values ($1, 'small', 'Small') returning id`, [t])).id;
  const project = async (key: string, owner: string) =>
    (await one(`insert into projects (tenant_id, provider, project_key, source_type, owning_team_id) values ($1, 'manual', $2, 'manual', $3) returning id`, [t, key, owner])).id;
  const aiRepo = await project('acme/ai', teamId);
  const plainRepo = await project('acme/plain', teamId);
  const smallRepo = await project('acme/small', smallTeamId);
  let number = 0;
  const at = (day: string, hours: number) => new Date(Date.parse(`${day}T00:00:00Z`) + hours * H * 1000).toISOString();
  const prIds: Record<string, string> = {};
  const pr = async (o: { repo: string; title: string; day: string; mergedAfter: number; reviewAfter: number | null; size: number; ai: boolean; codingHours: number | null; deployAfter: number | null; rolledBack?: boolean }) => {
    number += 1;
    const id = (await one(
      `insert into pull_requests (tenant_id, project_id, external_id, number, title, state, additions, deletions, labels, created_at, ready_at, first_review_at, merged_at, merge_commit_sha)
       values ($1, $2, $3, $4, $5, 'merged', $6, 0, $7, $8, $8, $9, $10, md5($3)) returning id`,
      [t, o.repo, `pr-${tag}-${number}`, number, o.title, o.size, o.ai ? ['ai-assisted'] : [], at(o.day, 0), o.reviewAfter === null ? null : at(o.day, o.reviewAfter), at(o.day, o.mergedAfter)],
    )).id;
    prIds[o.title] = id;
    if (o.codingHours !== null) {
      const c = await one(`insert into commits (tenant_id, project_id, sha, committed_at, message) values ($1, $2, md5($3), $4, 'work') returning id`, [t, o.repo, `c-${tag}-${number}`, at(o.day, -o.codingHours)]);
      await pool.query(`insert into pull_request_commits (pull_request_id, commit_id, tenant_id) values ($1, $2, $3)`, [id, c.id, t]);
    }
    if (o.deployAfter !== null) {
      await pool.query(
        `insert into deployments (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task, created_at)
         values ($1, $2, 'manual', $3, 'main', md5($3), 'production', 'success', 'deploy', $4)`,
        [t, o.repo, `d-${tag}-${number}`, at(o.day, o.mergedAfter + o.deployAfter)],
      );
      // A rollback from the deploying deployment's sha half an hour later: that deployment failed.
      if (o.rolledBack) {
        await pool.query(
          `insert into deployments (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task, is_rollback, rollback_from_sha, created_at)
           values ($1, $2, 'manual', $3, 'main', md5($3), 'production', 'success', 'deploy', true, md5($4), $5)`,
          [t, o.repo, `rb-${tag}-${number}`, `d-${tag}-${number}`, at(o.day, o.mergedAfter + o.deployAfter + 0.5)],
        );
      }
    }
  };
  const day = (month: string, d: number) => `2026-${month}-${String(d).padStart(2, '0')}`;
  for (let i = 1; i <= 20; i += 1) {
    const reviewed = i <= 16;
    const title = i === 20 ? 'Revert "ai-1"' : i === 19 ? 'Revert "ai-2"' : `ai-${i}`;
    await pr({ repo: aiRepo, title, day: day('03', i), reviewAfter: reviewed ? 1 : null, mergedAfter: 1 + i, size: 10 * i, ai: true, codingHours: i, deployAfter: i <= 10 ? 1 : null, rolledBack: i <= 3 });
  }
  for (let j = 1; j <= 20; j += 1) {
    const reviewed = j >= 3;
    const title = j === 20 ? 'Revert "plain-1"' : `plain-${j}`;
    await pr({ repo: plainRepo, title, day: day('03', j), reviewAfter: reviewed ? 3 : null, mergedAfter: 3 + j, size: 100 + 5 * j, ai: false, codingHours: 2 * j, deployAfter: 2, rolledBack: j <= 2 });
  }
  for (let k = 1; k <= 5; k += 1) await pr({ repo: plainRepo, title: `feb-${k}`, day: day('02', k), reviewAfter: null, mergedAfter: 10, size: 50, ai: false, codingHours: null, deployAfter: null });
  // The small team: three PRs; small-1 AI-assisted by its label (medium), small-2 by a linked session (high, below).
  for (let s = 1; s <= 3; s += 1) await pr({ repo: smallRepo, title: `small-${s}`, day: day('03', s), reviewAfter: null, mergedAfter: 5, size: 10, ai: s === 1, codingHours: null, deployAfter: null });

  const users: string[] = [];
  for (let p = 1; p <= 4; p += 1) {
    const email = `p${p}-${tag}@example.com`;
    const person = (await one(`insert into people (tenant_id, external_ref, email, display_name, employment_type) values ($1, $2, $3, $2, 'employee') returning id`, [t, `p${p}-${tag}`, email])).id;
    await pool.query(`insert into team_memberships (tenant_id, team_id, person_id, membership_source) values ($1, $2, $3, 'register')`, [t, teamId, person]);
    await pool.query(`insert into person_identities (tenant_id, person_id, kind, value) values ($1, $2, 'email', $3)`, [t, person, email]);
    if (p <= 2) users.push((await one(`insert into users (email) values ($1) returning id`, [email])).id);
  }
  const session = async (userId: string, startedAt: string) =>
    (await one(`insert into ai_sessions (id, tenant_id, user_id, tool, started_at) values (gen_random_uuid(), $1, $2, 'claude-code', $3) returning id`, [t, userId, startedAt])).id;
  await session(users[0]!, '2026-02-10T09:00:00Z');
  const linked = await session(users[0]!, '2026-03-05T09:00:00Z');
  await session(users[1]!, '2026-03-06T09:00:00Z');
  // small-2 is named by an uploaded session: attribution level high (small-1 is medium by its label, small-3 none).
  await pool.query(`insert into ai_session_links (tenant_id, session_id, pull_request_id, linked_by) values ($1, $2, $3, 'pr_number')`, [t, linked, prIds['small-2']]);
  return { teamId, smallTeamId };
}
