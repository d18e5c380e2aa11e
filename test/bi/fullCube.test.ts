/**
 * The optional full Cube (compose profile `cube`, docs/bi-setup.md "Full Cube"), proved without a
 * container engine: the models, views included, compile with Cube's own schema compiler; Cube's
 * planner refuses a question over two fact cubes and answers it through the view team_monthly,
 * with the export's numbers; cube/cube.js gives each API key its tenant's security context.
 */
import { createRequire } from 'node:module';
import { expect } from 'chai';
import { PostgresQuery } from '@cubejs-backend/schema-compiler';
import { loadCube, type CompiledCube } from '../../src/cube/compiler.js';
import { baselineRows } from '../../src/exports/baseline.js';
import { freshDatabase } from '../helpers/database.js';
import { buildMember, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { buildFixture } from '../cube/fixture.js';

interface CubeConfig {
  schemaPath: string;
  checkAuth(req: Record<string, unknown>, authorization: unknown): Promise<void>;
  checkSqlAuth(req: Record<string, unknown>, user: string, password: unknown): Promise<{ password: string; superuser: boolean; securityContext: { tenant_id: string } }>;
  contextToAppId(context: { securityContext: { tenant_id: string } }): string;
  contextToOrchestratorId(context: { securityContext: { tenant_id: string } }): string;
  closeDatabase(): Promise<void>;
}

/** Cube's own planner, as the Cube server runs it (the JavaScript planner, security context in). */
function cubeSql(cube: CompiledCube, tenantId: string, query: Record<string, unknown>): [string, unknown[]] {
  const planner = new PostgresQuery({ joinGraph: cube.compiler.joinGraph, cubeEvaluator: cube.compiler.cubeEvaluator, compiler: cube.compiler.compiler } as never, {
    ...query,
    timezone: 'UTC',
    useNativeSqlPlanner: false,
    contextSymbols: { securityContext: { tenant_id: tenantId } },
  } as never);
  return planner.buildSqlAndParams() as [string, unknown[]];
}

const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

describe('full Cube: the models, the team_monthly view and cube.js', function () {
  this.timeout(180_000);
  let databaseUrl: string;
  let cube: CompiledCube;
  let a: BuiltTenant;
  let b: BuiltTenant;

  before(async () => {
    databaseUrl = await freshDatabase();
    a = await buildTenant(databaseUrl);
    b = await buildTenant(databaseUrl);
    await buildFixture(dbFor(databaseUrl).pool, a.tenantId);
    await buildFixture(dbFor(databaseUrl).pool, b.tenantId);
    cube = await loadCube();
  });

  it("compiles every model and the view with Cube's schema compiler; this server's meta lists the cubes only", () => {
    const evaluator = cube.compiler.cubeEvaluator as unknown as { cubeFromPath(path: string): { isView?: boolean; name: string } };
    expect(evaluator.cubeFromPath('team_monthly').isView).to.equal(true);
    expect(evaluator.cubeFromPath('team_months').isView).to.not.equal(true);
    expect(cube.meta.map((c) => c.name)).to.include('team_months').and.not.include('team_monthly');
  });

  it('Cube refuses PRs and deployments by team from the cubes (no join path), and answers it through team_monthly with the export\'s numbers', async () => {
    expect(() =>
      cubeSql(cube, a.tenantId, { measures: ['pull_requests.prs_merged', 'deployments.production_deploys'], dimensions: ['teams.slug'] }),
    ).to.throw(/join path/i);

    const measures = [
      'prs_merged', 'pr_cycle_time_p50_seconds', 'ccv_total', 'ceu_total', 'ai_assisted_pr_share', 'production_deploys', 'change_failure_rate',
      'issues_closed', 'issue_lead_time_p50_seconds', 'mttr_p50_seconds', 'active_authors', 'ai_seat_holders', 'ai_active_users', 'ai_sessions',
      'ai_commits', 'survey_response_rate', 'team_experience_score', 'register_headcount',
    ];
    const [sql, params] = cubeSql(cube, a.tenantId, {
      measures: measures.map((m) => `team_monthly.${m}`),
      dimensions: ['team_monthly.teams_slug'],
      timeDimensions: [{ dimension: 'team_monthly.month', granularity: 'month', dateRange: ['2025-01-01', '2025-06-30'] }],
      order: [{ id: 'team_monthly.teams_slug', desc: false }, { id: 'team_monthly.month.month', desc: false }],
    });
    const { rows } = await dbFor(databaseUrl).pool.query(sql, params);
    const expected = await baselineRows(dbFor(databaseUrl).pool, a.tenantId, { from: '2025-01', to: '2025-06' });
    expect(rows.length).to.equal(expected.length);
    const column = (m: string) => (m === 'register_headcount' ? 'headcount' : m);
    rows.forEach((row, i) => {
      const want = expected[i] as Record<string, unknown>;
      expect(row.team_monthly__teams_slug).to.equal(want.team_slug);
      // pg reads the bucket (timestamp without time zone) as a local Date.
      const bucket = row.team_monthly__month_month as Date;
      expect(`${bucket.getFullYear()}-${String(bucket.getMonth() + 1).padStart(2, '0')}`).to.equal(want.month);
      for (const m of measures) {
        const raw = row[`team_monthly__${m}`] as string | number | null;
        const kind = m.endsWith('_seconds') ? 0 : m.endsWith('_rate') || m.endsWith('_share') ? 4 : m === 'team_experience_score' ? 2 : 0;
        const value = raw === null ? (kind === 0 && !m.endsWith('_seconds') ? 0 : null) : round(Number(raw), kind);
        expect(value, `${String(want.team_slug)} ${String(want.month)} ${m}`).to.equal(want[column(m)]);
      }
    });
    expect(rows.some((r) => Number(r.team_monthly__prs_merged) > 0 && Number(r.team_monthly__production_deploys) > 0)).to.equal(true);
    // The tenant is a bound parameter of every relation the view reads: B's rows never enter.
    expect(params.filter((p) => p === a.tenantId).length).to.equal((sql.match(/WHERE tenant_id = \$\d+/g) ?? []).length);
  });

  describe('cube/cube.js', () => {
    const require = createRequire(import.meta.url);
    let config: CubeConfig;
    let previous: string | undefined;

    before(() => {
      previous = process.env.DATABASE_URL;
      process.env.DATABASE_URL = databaseUrl;
      config = require('../../cube/cube.js') as CubeConfig;
    });
    after(async () => {
      await config.closeDatabase();
      if (previous === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = previous;
    });

    it('reads the models from schema/ (mounted as model) and maps an API key to its tenant for REST and SQL', async () => {
      expect(config.schemaPath).to.equal('model');
      for (const [tenant, key] of [[a.tenantId, a.owner.apiKey], [b.tenantId, `Bearer ${b.owner.apiKey}`]] as const) {
        const req: Record<string, unknown> = {};
        await config.checkAuth(req, key);
        expect(req.securityContext).to.deep.equal({ tenant_id: tenant });
      }
      const sql = await config.checkSqlAuth({}, 'metabase', a.owner.apiKey);
      expect(sql).to.deep.equal({ password: a.owner.apiKey, superuser: false, securityContext: { tenant_id: a.tenantId } });
      const apps = [a, b].map((t) => config.contextToAppId({ securityContext: { tenant_id: t.tenantId } }));
      expect(apps).to.deep.equal([`tenant_${a.tenantId}`, `tenant_${b.tenantId}`]);
      expect(config.contextToOrchestratorId({ securityContext: { tenant_id: a.tenantId } })).to.equal(`tenant_${a.tenantId}`);
      expect(config.contextToAppId({ securityContext: undefined as never })).to.equal('tenant_none');
    });

    it('refuses a missing, malformed, unknown or revoked key, and the key of a removed member', async () => {
      const member = await buildMember(databaseUrl, a.tenantId, 'member');
      await config.checkAuth({}, member.apiKey);
      const refused = async (key: unknown) => {
        let error: Error | null = null;
        await config.checkAuth({}, key).catch((e: Error) => (error = e));
        expect(error, String(key)).to.be.an('error').with.property('message', 'Invalid API key');
        error = null;
        await config.checkSqlAuth({}, 'user', key).catch((e: Error) => (error = e));
        expect(error, String(key)).to.be.an('error').with.property('message', 'Invalid API key');
      };
      await refused(undefined);
      await refused('');
      await refused("gai_' or '1'='1");
      await refused(`${a.owner.apiKey}x`);
      const { pool } = dbFor(databaseUrl);
      await pool.query('delete from tenant_memberships where tenant_id = $1 and user_id = $2', [a.tenantId, member.userId]);
      await refused(member.apiKey);
      await pool.query('update api_keys set revoked_at = now() where tenant_id = $1', [b.tenantId]);
      await refused(b.owner.apiKey);
    });
  });
});
