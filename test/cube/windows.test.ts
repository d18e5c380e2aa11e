import { expect } from 'chai';
import type pg from 'pg';
import { freshDatabase } from '../helpers/database.js';
import { buildTenant, dbFor } from '../helpers/factories.js';

/** Edges of the window rules of METRICS.md, read straight from the views the cubes use. */
describe('cube window rules', function () {
  this.timeout(30_000);
  let pool: pg.Pool;
  let tenantId: string;
  let project: string;

  const deploy = (ext: string, at: string, sha: string, o: { status?: string; env?: string; rollbackFrom?: string } = {}) =>
    pool.query(
      `insert into deployments (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task, is_rollback, rollback_from_sha, created_at)
       values ($1, $2, 'manual', $3, 'main', $4, $5, $6, 'deploy', $7, $8, $9)`,
      [tenantId, project, ext, sha, o.env ?? 'production', o.status ?? 'success', Boolean(o.rollbackFrom), o.rollbackFrom ?? null, at],
    );
  const incident = (ext: string, at: string, metadata: object | null = null) =>
    pool.query(
      `insert into issues (tenant_id, project_id, provider, external_id, number, title, type, state, metadata, created_at)
       values ($1, $2, 'manual', $3, 1, 'i', 'incident', 'open', $4, $5)`,
      [tenantId, project, ext, metadata, at],
    );
  const causes = async () =>
    Object.fromEntries((await pool.query(
      `select i.external_id as incident, d.external_id as deployment from cube_incidents c join issues i on i.id = c.id
       left join deployments d on d.id = c.caused_by_deployment_id where c.tenant_id = $1`, [tenantId])).rows.map((r) => [r.incident, r.deployment]));
  const flags = async () =>
    (await pool.query('select delivery_facts_catch_up($1)', [tenantId])) && Object.fromEntries((await pool.query(
      `select d.external_id, c.rolled_back, c.is_failed, c.recovered_at from cube_deployments c join deployments d on d.id = c.id where c.tenant_id = $1`,
      [tenantId])).rows.map((r) => [r.external_id, [r.rolled_back, r.is_failed, r.recovered_at?.toISOString() ?? null]]));

  before(async () => {
    const url = await freshDatabase();
    pool = dbFor(url).pool;
    tenantId = (await buildTenant(url)).tenantId;
    project = (await pool.query(`insert into projects (tenant_id, provider, project_key, source_type) values ($1, 'manual', 'w/rules', 'manual') returning id`, [tenantId])).rows[0].id;
  });

  it('an incident is caused by the named deployment, else the latest successful production one in the 24 hours before', async () => {
    await deploy('a', '2025-01-01T00:00:00Z', 'a000000');
    await deploy('b-staging', '2025-01-01T06:00:00Z', 'b000000', { env: 'staging' });
    await deploy('c-failed', '2025-01-01T07:00:00Z', 'c000000', { status: 'failure' });
    await incident('exactly-24h', '2025-01-02T00:00:00Z');
    await incident('after-24h', '2025-01-02T00:00:01Z');
    await incident('named', '2025-03-01T00:00:00Z', { causedByDeployment: 'b-staging' });
    await incident('named-missing', '2025-01-01T01:00:00Z', { causedByDeployment: 'nope' });
    await incident('before-any', '2024-12-31T23:59:59Z');
    expect(await causes()).to.deep.equal({ 'exactly-24h': 'a', 'after-24h': null, named: 'b-staging', 'named-missing': 'a', 'before-any': null });
  });

  it('a rollback fails only earlier deployments it names (abbreviated either way); recovery is the next good production deployment', async () => {
    await deploy('r1', '2025-02-01T00:00:00Z', 'abcdef1234567890');
    await deploy('r2-same-time', '2025-02-02T00:00:00Z', 'fedcba9876543210');
    await deploy('rollback', '2025-02-02T00:00:00Z', '1111111', { rollbackFrom: 'ABCDEF1' });
    await deploy('rollback-2', '2025-02-02T00:00:00Z', '2222222', { rollbackFrom: 'fedcba9876543210' });
    await deploy('after', '2025-02-03T00:00:00Z', '3333333');
    const f = await flags();
    // Recovered by r2-same-time: successful, production, and not rolled back (its rollback is not later).
    expect(f.r1).to.deep.equal([true, true, '2025-02-02T00:00:00.000Z']);
    expect(f['r2-same-time']).to.deep.equal([false, false, null]);
    expect(f.rollback).to.deep.equal([false, false, null]);
    // a caused "exactly-24h"; both recover at the first good production deployment after r1 (rolled back).
    expect(f.a).to.deep.equal([false, true, '2025-02-02T00:00:00.000Z']);
    expect(f['c-failed']).to.deep.equal([false, true, '2025-02-02T00:00:00.000Z']);
    expect(f.after).to.deep.equal([false, false, null]);
    expect(f['b-staging']).to.deep.equal([false, false, null]); // named by an incident, but not production
  });
});
