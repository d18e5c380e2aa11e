/**
 * Migration 0042 (one project per repository) on a database built before it: the duplicates the
 * documented setup made (a `manual` project of webhook deployments and incidents beside the code
 * host's `codehost` project of the same repository's pull requests) become one project; every row
 * stays, every measure of data that was already consistent keeps its value, and lead time, which
 * could never meet a deployment, is filled.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../../src/db/migrations.js';
import { migrateDatabase } from '../../src/jobCatalog.js';
import { emptyDatabase } from '../helpers/database.js';

const TAG = '0042_one_project_per_repository';

/** The bundled migrations without 0042 (and anything after it): the schema this migration meets. */
function migrationsBefore(): string {
  const dir = mkdtempSync(join(tmpdir(), 'da-before-0042-'));
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalPath = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number; tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === TAG);
  expect(at).to.be.greaterThan(0);
  journal.entries = journal.entries.filter((e) => e.idx < 42);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

describe('migration 0042: one project per repository', function () {
  this.timeout(180_000);
  let pool: pg.Pool;
  let beforeDir: string;
  const q = async (text: string, values: unknown[] = []) => (await pool.query(text, values)).rows;
  const one = async (text: string, values: unknown[] = []) => (await q(text, values))[0];

  before(async () => {
    beforeDir = migrationsBefore();
    pool = new pg.Pool({ connectionString: await emptyDatabase(), max: 2 });
    await migrateDatabase(pool, beforeDir);
  });
  after(async () => {
    await pool?.end();
    rmSync(beforeDir, { recursive: true, force: true });
  });

  it('merges the projects of one key (any provider, any case) into one, keeping rows, owners and measures; lead time is filled', async () => {
    const tenant = (await one(`insert into tenants (name, slug) values ('Acme', 'acme-0042') returning id`)).id as string;
    const other = (await one(`insert into tenants (name, slug) values ('Other', 'other-0042') returning id`)).id as string;
    const team = async (t: string, slug: string) => (await one(`insert into teams (tenant_id, slug, name) values ($1, $2, $2) returning id`, [t, slug])).id as string;
    const alpha = await team(tenant, 'alpha');
    const beta = await team(tenant, 'beta');
    const project = async (t: string, provider: string, key: string, owner: string | null, created: string, seq = 0, syncPrs = true) =>
      (await one(`insert into projects (tenant_id, provider, project_key, source_type, owning_team_id, created_at, issue_seq, sync_pull_requests)
        values ($1, $2, $3, $2, $4, $5, $6, $7) returning id`, [t, provider, key, owner, created, seq, syncPrs])).id as string;
    const deploy = (t: string, p: string, id: string, sha: string, at: string, status = 'success', rollbackFrom: string | null = null) =>
      q(`insert into deployments (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task, is_rollback, rollback_from_sha, created_at)
        values ($1, $2, 'manual', $3, 'main', $4, 'production', $5, 'deploy', $6, $7, $8)`, [t, p, id, sha, status, rollbackFrom !== null, rollbackFrom, at]);
    const pr = (t: string, p: string, n: number, created: string, merged: string) =>
      q(`insert into pull_requests (tenant_id, project_id, external_id, number, title, state, created_at, merged_at) values ($1, $2, $3, $4, 'change', 'merged', $5, $6)`,
        [t, p, `${p}-${n}`, n, created, merged]);
    const incident = (t: string, p: string, id: string, at: string, provider = 'manual') =>
      q(`insert into issues (tenant_id, project_id, provider, external_id, number, title, type, state, created_at, closed_at)
        values ($1, $2, $3, $4, 1, 'Outage', 'incident', 'closed', $5, $5::timestamptz + interval '3 hours')`, [t, p, provider, id, at]);

    // The documented setup: deployments, a rollback and an incident by webhook; PRs by the code host.
    const apiManual = await project(tenant, 'manual', 'acme/api', alpha, '2026-01-01T00:00:00Z', 4);
    const apiCodehost = await project(tenant, 'codehost', 'acme/api', alpha, '2026-01-02T00:00:00Z', 0, false);
    await deploy(tenant, apiManual, 'd1', 'aaaaaaa', '2026-01-10T00:00:00Z');
    await deploy(tenant, apiManual, 'd2', 'bbbbbbb', '2026-01-20T00:00:00Z');
    await deploy(tenant, apiManual, 'd3', 'ccccccc', '2026-01-21T00:00:00Z', 'success', 'bbbbbbb');
    await incident(tenant, apiManual, 'inc-1', '2026-01-10T05:00:00Z');
    await pr(tenant, apiCodehost, 7, '2026-01-08T00:00:00Z', '2026-01-09T00:00:00Z');
    await q(`insert into commits (tenant_id, project_id, sha, committed_at, message) values ($1, $2, 'aaaaaaa111', '2026-01-07T00:00:00Z', 'm')`, [tenant, apiCodehost]);
    // Case: a CI script that spells the key differently; only the webhook's project had an owner.
    const webManual = await project(tenant, 'manual', 'Acme/Web', beta, '2026-01-01T00:00:00Z');
    const webCodehost = await project(tenant, 'codehost', 'acme/web', null, '2026-01-03T00:00:00Z');
    await deploy(tenant, webManual, 'w1', 'ddddddd', '2026-02-10T00:00:00Z');
    await pr(tenant, webCodehost, 1, '2026-02-08T00:00:00Z', '2026-02-09T12:00:00Z');
    // Already consistent: one project with everything (its measures must not move).
    const solo = await project(tenant, 'manual', 'acme/solo', alpha, '2026-01-01T00:00:00Z');
    await deploy(tenant, solo, 's1', 'eeeeeee', '2026-03-02T00:00:00Z');
    await pr(tenant, solo, 1, '2026-03-01T00:00:00Z', '2026-03-01T12:00:00Z');
    // The code host's own two spellings of one repository (a missed rename): PR #3 stored twice.
    const dupOld = await project(tenant, 'codehost', 'acme/Dup', null, '2026-01-01T00:00:00Z');
    const dupNew = await project(tenant, 'codehost', 'acme/dup', null, '2026-01-05T00:00:00Z');
    await pr(tenant, dupOld, 3, '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z');
    await pr(tenant, dupNew, 3, '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z');
    await pr(tenant, dupNew, 4, '2026-01-03T00:00:00Z', '2026-01-04T00:00:00Z');
    // Another tenant's project of the same key stays its own.
    const foreign = await project(other, 'manual', 'acme/api', null, '2026-01-01T00:00:00Z');
    await deploy(other, foreign, 'x1', 'aaaaaaa', '2026-01-10T00:00:00Z');

    const facts = () => q(`select d.external_id, f.rolled_back, f.caused_incident, f.recovered_at from deployment_facts f join deployments d on d.id = f.deployment_id order by d.tenant_id = $1 desc, d.external_id`, [tenant]);
    const leadTimes = () => q(`select p.external_id, c.lead_time_seconds from change_lead_times c join pull_requests p on p.id = c.pull_request_id where c.tenant_id = $1 order by p.external_id`, [tenant]);
    const counts = () => one(`select (select count(*) from issues)::int issues, (select count(*) from deployments)::int deployments, (select count(*) from pull_requests)::int prs, (select count(*) from commits)::int commits`);
    const factsBefore = await facts();
    const leadBefore = await leadTimes();
    expect(factsBefore.filter((f) => ['d2', 'd1'].includes(f.external_id)).map((f) => [f.external_id, f.rolled_back, f.caused_incident])).to.deep.equal([['d1', false, true], ['d2', true, false]]);
    expect(leadBefore.filter((l) => l.lead_time_seconds !== null).map((l) => l.external_id)).to.deep.equal([`${solo}-1`]);
    expect(await counts()).to.deep.equal({ issues: 1, deployments: 6, prs: 6, commits: 1 });

    await migrateDatabase(pool);

    const projects = await q(`select tenant_id = $1 as ours, id, provider, project_key, source_type, owning_team_id, issue_seq, sync_pull_requests from projects order by ours desc, lower(project_key)`, [tenant]);
    expect(projects).to.deep.equal([
      { ours: true, id: apiCodehost, provider: 'codehost', project_key: 'acme/api', source_type: 'codehost', owning_team_id: alpha, issue_seq: 4, sync_pull_requests: false },
      { ours: true, id: dupOld, provider: 'codehost', project_key: 'acme/Dup', source_type: 'codehost', owning_team_id: null, issue_seq: 0, sync_pull_requests: true },
      { ours: true, id: solo, provider: 'manual', project_key: 'acme/solo', source_type: 'manual', owning_team_id: alpha, issue_seq: 0, sync_pull_requests: true },
      { ours: true, id: webCodehost, provider: 'codehost', project_key: 'acme/web', source_type: 'codehost', owning_team_id: beta, issue_seq: 0, sync_pull_requests: true },
      { ours: false, id: foreign, provider: 'manual', project_key: 'acme/api', source_type: 'manual', owning_team_id: null, issue_seq: 0, sync_pull_requests: true },
    ]);
    // Every row kept but the second copy of PR #3; each in its repository's one project.
    expect(await counts()).to.deep.equal({ issues: 1, deployments: 6, prs: 5, commits: 1 });
    expect(await q(`select p.project_key, count(*)::int n from pull_requests r join projects p on p.id = r.project_id group by 1 order by 1`))
      .to.deep.equal([{ project_key: 'acme/Dup', n: 2 }, { project_key: 'acme/api', n: 1 }, { project_key: 'acme/solo', n: 1 }, { project_key: 'acme/web', n: 1 }]);
    expect((await one(`select count(distinct project_id)::int n from deployment_facts where tenant_id = $1`, [tenant])).n).to.equal(3);

    // Rollbacks, incident attribution and recovery: unchanged.
    expect(await facts()).to.deep.equal(factsBefore);
    // Lead time: the consistent project's unchanged; the merged ones now meet their deployments
    // (acme/api: PR created 01-08, deployed 01-10 → 48 h; acme/web: 02-08 → 02-10, 48 h).
    const leadAfter = await leadTimes();
    expect(leadAfter.find((l) => l.external_id === `${solo}-1`)).to.deep.equal(leadBefore.find((l) => l.external_id === `${solo}-1`));
    expect(leadAfter.filter((l) => l.lead_time_seconds !== null).map((l) => [l.external_id, l.lead_time_seconds])).to.have.deep.members([
      [`${solo}-1`, 24 * 3600],
      [`${apiCodehost}-7`, 48 * 3600],
      [`${webCodehost}-1`, 48 * 3600],
    ]);

    // The key is now one project whatever the provider or case.
    const again = await pool.query(`insert into projects (tenant_id, provider, project_key, source_type) values ($1, 'manual', 'ACME/API', 'manual')`, [tenant]).then(() => 'inserted', (e: { code?: string }) => e.code);
    expect(again).to.equal('23505');
  });
});
