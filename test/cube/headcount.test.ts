import { expect } from 'chai';
import { buildTenant, dbFor } from '../helpers/factories.js';
import { testServer } from '../helpers/server.js';

describe('baseline headcount', () => {
  it('counts the members the last register import left, not manual memberships added since', async () => {
    const api = await testServer();
    try {
      const t = await buildTenant(api.databaseUrl);
      const { pool } = dbFor(api.databaseUrl);
      const one = async (text: string, params: unknown[]) => (await pool.query(text, params)).rows[0] as { id: string };
      const team = await one(`insert into teams (tenant_id, slug, name) values ($1, 'solo', 'Solo') returning id`, [t.tenantId]);
      for (const [ref, type, source] of [['r1', 'employee', 'register'], ['r2', 'supplier', 'register'], ['m1', 'supplier', 'manual']]) {
        const person = await one(`insert into people (tenant_id, external_ref, employment_type, supplier_name) values ($1, $2, $3, 'Acme') returning id`, [t.tenantId, ref, type]);
        await pool.query(`insert into team_memberships (tenant_id, team_id, person_id, membership_source) values ($1, $2, $3, $4)`, [t.tenantId, team.id, person.id, source]);
      }
      const res = await api.as(t.owner.apiKey).get('/api/exports/team-baseline?from=2025-01&to=2025-01&format=json');
      expect(res.status).to.equal(200);
      expect(res.body.rows).to.have.length(1);
      expect(res.body.rows[0]).to.deep.include({ headcount: 2, internal_headcount: 1, external_headcount: 1, headcount_by_supplier: { Acme: 1 } });
    } finally {
      await api.close();
    }
  });
});
