/**
 * The deployments lists count the replaced rows (one source per period) only when a project of the
 * tenant may have some: a project with a source and rows of another source, or of none. The
 * answer is the same (`replaced: 0`, test/activity/codehostDeployments.test.ts and
 * test/web/drillLinks.test.ts cover the counts); this is the gate's own truth table.
 */
import { expect } from 'chai';
import pg from 'pg';
import { mayHaveReplacedDeployments } from '../../src/deploymentSources/service.js';
import { buildTenant } from '../helpers/factories.js';
import { freshDatabase } from '../helpers/database.js';

describe('facts: whether a tenant may have replaced deployments', function () {
  this.timeout(60_000);
  let pool: pg.Pool;
  let tenantId: string, otherTenant: string, projectId: string;
  const deploy = (provider: string, metadata: object, externalId: string) =>
    pool.query(
      `insert into deployments (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task, is_production, created_at, metadata)
       values ($1, $2, $3, $4, 'main', $5, 'production', 'success', 'deploy', true, '2026-09-01T12:00:00Z', $6)`,
      [tenantId, projectId, provider, externalId, 'a'.repeat(40), JSON.stringify(metadata)],
    );
  const setSource = (source: string | null) => pool.query('update projects set deployment_source = $2 where id = $1', [projectId, source]);

  before(async () => {
    const url = await freshDatabase();
    pool = new pg.Pool({ connectionString: url, max: 2 });
    tenantId = (await buildTenant(url)).tenantId;
    otherTenant = (await buildTenant(url)).tenantId;
    projectId = (await pool.query<{ id: string }>(
      `insert into projects (tenant_id, provider, project_key, source_type) values ($1, 'webhook', 'acme/app', 'webhook') returning id`, [tenantId],
    )).rows[0]!.id;
  });
  after(() => pool?.end());

  it('no while every project with a source has only rows of it; yes once one has rows of another source or of none', async () => {
    expect(await mayHaveReplacedDeployments(pool, tenantId)).to.equal(false);
    await deploy('manual', {}, 'ci-1');
    expect(await mayHaveReplacedDeployments(pool, tenantId), 'no source chosen').to.equal(false);
    await setSource('webhook');
    expect(await mayHaveReplacedDeployments(pool, tenantId), 'its own rows only').to.equal(false);
    // A code-host source sorts before and after `webhook`, and a row may carry no source at all.
    await deploy('codehost', { source: 'deployments' }, 'gh-1');
    expect(await mayHaveReplacedDeployments(pool, tenantId), 'a source sorting before').to.equal(true);
    await setSource('deployments');
    expect(await mayHaveReplacedDeployments(pool, tenantId), 'a source sorting after').to.equal(true);
    await pool.query(`delete from deployments where external_id = 'ci-1'`);
    expect(await mayHaveReplacedDeployments(pool, tenantId), 'switched, the other rows gone').to.equal(false);
    await deploy('codehost', {}, 'gh-2');
    expect(await mayHaveReplacedDeployments(pool, tenantId), 'a row of no source').to.equal(true);
    await setSource(null);
    expect(await mayHaveReplacedDeployments(pool, tenantId), 'no source chosen again').to.equal(false);
    await setSource('webhook');
    expect(await mayHaveReplacedDeployments(pool, otherTenant), "another tenant's projects").to.equal(false);
  });
});
