/**
 * The tenant floor cannot be forgotten: every table with a tenant_id column, found in the
 * catalog (so a table added tomorrow is checked too), must have forced row-level security with
 * the floor's policies, and a row of tenant A must be invisible to work running as tenant B.
 */
import { expect } from 'chai';
import pg from 'pg';
import { openDatabase } from '../../src/db/client.js';
import { asSystem, withTenant } from '../../src/db/tenancy.js';
import { freshDatabase } from '../helpers/database.js';
import { buildTenant, type BuiltTenant } from '../helpers/factories.js';

const FLOOR = "(tenant_id = (NULLIF(current_setting('app.tenant_id'::text, true), ''::text))::uuid)";

interface Column {
  name: string;
  type: string;
  category: string;
  enumLabel: string | null;
}

/** A literal of the column's type that any NOT NULL column accepts (checks are lifted for the probe). */
function probeValue(c: Column): string {
  if (c.enumLabel !== null) return `'${c.enumLabel}'`;
  if (c.category === 'A') return `'{}'`;
  switch (c.type) {
    case 'uuid': return 'gen_random_uuid()';
    case 'text': case 'character varying': case 'citext': return `'probe-' || gen_random_uuid()`;
    case 'integer': case 'bigint': case 'smallint': case 'numeric': case 'real': case 'double precision': return '1';
    case 'boolean': return 'false';
    case '"char"': return `'x'`;
    case 'timestamp with time zone': case 'timestamp without time zone': return 'now()';
    case 'date': return 'current_date';
    case 'jsonb': case 'json': return `'{}'`;
    case 'interval': return `'1 hour'`;
    case 'bytea': return `'\\x00'`;
    case 'inet': return `'127.0.0.1'`;
    case 'pg_snapshot': return 'pg_current_snapshot()';
    default: throw new Error(`no probe value for type ${c.type}: extend probeValue`);
  }
}

describe('tenant floor (row-level security on every tenant table)', () => {
  let url: string;
  let admin: pg.Client;
  let tables: string[];
  let a: BuiltTenant;
  let b: BuiltTenant;
  before(async () => {
    url = await freshDatabase();
    a = await buildTenant(url);
    b = await buildTenant(url);
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const { rows } = await admin.query<{ table: string }>(`
      select c.relname as table from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute at on at.attrelid = c.oid and at.attname = 'tenant_id' and not at.attisdropped
      where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`);
    tables = rows.map((r) => r.table);
  });
  after(() => admin.end());

  it('finds the tenant tables in the catalog (the check below is not vacuous)', () => {
    expect(tables.length).to.be.greaterThan(30);
    expect(tables).to.include.members(['teams', 'people', 'deployments', 'issues', 'api_keys', 'integration_connections']);
  });

  it('every tenant table has row-level security enabled and forced, with the floor policy and the system policy only', async () => {
    const { rows } = await admin.query<{ table: string; enabled: boolean; forced: boolean; policies: { name: string; roles: string[]; qual: string; check: string }[] }>(`
      select c.relname as table, c.relrowsecurity as enabled, c.relforcerowsecurity as forced,
        coalesce((select json_agg(json_build_object('name', p.policyname, 'roles', p.roles, 'qual', p.qual, 'check', p.with_check) order by p.policyname)
          from pg_policies p where p.schemaname = 'public' and p.tablename = c.relname), '[]') as policies
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relname = any($1) order by 1`, [tables]);
    const wrong = rows.filter((r) => {
      const expected = [
        { name: 'system_work', roles: ['app_system'], qual: 'true', check: 'true' },
        { name: 'tenant_floor', roles: ['public'], qual: FLOOR, check: FLOOR },
      ];
      return !r.enabled || !r.forced || JSON.stringify(r.policies) !== JSON.stringify(expected);
    });
    expect(wrong.map((r) => r.table), 'tables without the floor: call app_tenant_floor() in their migration (docs/tenancy.md)').to.deep.equal([]);
    expect(rows.length).to.equal(tables.length);
  });

  it('tenant work runs as a role that the policies bind (not a superuser, no BYPASSRLS)', async () => {
    const { rows } = await admin.query(`select rolsuper, rolbypassrls, rolcanlogin, rolinherit from pg_roles where rolname = 'app_tenant'`);
    expect(rows).to.deep.equal([{ rolsuper: false, rolbypassrls: false, rolcanlogin: false, rolinherit: false }]);
  });

  it('for every tenant table, a row of tenant A is read by A and by nobody else (tenant B, no tenant)', async () => {
    expect(tables.length).to.be.greaterThan(0);
    const results: Record<string, [number, number, number]> = {};
    await admin.query('begin');
    try {
      // The probe rows skip foreign keys and triggers (replica mode) and checks (dropped in this
      // transaction, rolled back at the end): only visibility is under test here.
      await admin.query(`set local session_replication_role = replica`);
      for (const table of tables) {
        const checks = await admin.query<{ name: string }>(`select conname as name from pg_constraint where conrelid = $1::regclass and contype = 'c'`, [table]);
        for (const { name } of checks.rows) await admin.query(`alter table ${pg.escapeIdentifier(table)} drop constraint ${pg.escapeIdentifier(name)}`);
        const columns = await admin.query<Column>(`
          select a.attname as name, format_type(a.atttypid, null) as type, t.typcategory as category,
            (select e.enumlabel from pg_enum e where e.enumtypid = a.atttypid order by e.enumsortorder limit 1) as "enumLabel"
          from pg_attribute a join pg_type t on t.oid = a.atttypid
          where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped and a.attnotnull
            and not a.atthasdef and a.attidentity = '' and a.attgenerated = '' and a.attname <> 'tenant_id'`, [table]);
        const names = ['tenant_id', ...columns.rows.map((c) => pg.escapeIdentifier(c.name))];
        const values = ['$1', ...columns.rows.map(probeValue)];
        await admin.query(`insert into ${pg.escapeIdentifier(table)} (${names.join(', ')}) values (${values.join(', ')})`, [a.tenantId]);
        const countAs = async (tenant: string) => {
          await admin.query(`select set_config('role', 'app_tenant', true), set_config('app.tenant_id', $1, true)`, [tenant]);
          const { rows } = await admin.query<{ n: number }>(`select count(*)::int as n from ${pg.escapeIdentifier(table)} where tenant_id = $1`, [a.tenantId]);
          await admin.query(`select set_config('role', 'none', true), set_config('app.tenant_id', '', true)`);
          return rows[0]!.n;
        };
        results[table] = [await countAs(a.tenantId), await countAs(b.tenantId), await countAs('')];
      }
    } finally {
      await admin.query('rollback');
    }
    const leaks = Object.entries(results).filter(([, [own, other, none]]) => own < 1 || other !== 0 || none !== 0);
    expect(leaks, 'per table: [rows A sees, rows B sees, rows seen without a tenant]').to.deep.equal([]);
    expect(Object.keys(results)).to.deep.equal(tables);
  });

  it('the pool works as the tenant of the unit of work: another tenant’s rows and unscoped reads see nothing', async () => {
    const database = openDatabase(url, { max: 2 });
    try {
      const teamsOf = () => database.pool.query<{ tenant_id: string }>('select tenant_id from tenant_memberships order by tenant_id');
      expect((await withTenant(a.tenantId, teamsOf)).rows).to.deep.equal([{ tenant_id: a.tenantId }]);
      expect((await withTenant(b.tenantId, teamsOf)).rows).to.deep.equal([{ tenant_id: b.tenantId }]);
      expect((await teamsOf()).rows).to.deep.equal([]);
      expect((await asSystem('test-fixture', teamsOf)).rows.length).to.equal(2);
      // Writing a row for another tenant is refused, not silently stored.
      const refused = await withTenant(b.tenantId, () =>
        database.pool.query(`insert into teams (tenant_id, slug, name) values ($1, 'x', 'X')`, [a.tenantId]).catch((e: Error) => e.message),
      );
      expect(refused).to.equal('new row violates row-level security policy for table "teams"');
    } finally {
      await database.close();
    }
  });
});
