import { expect } from 'chai';
import { buildTenant, dbFor } from '../helpers/factories.js';
import { testServer } from '../helpers/server.js';

describe('baseline headcount', () => {
  it('counts the members the last register import left, not manual memberships added since, with one definition in the cube', async () => {
    const api = await testServer();
    try {
      const t = await buildTenant(api.databaseUrl);
      const { pool } = dbFor(api.databaseUrl);
      const one = async (text: string, params: unknown[]) => (await pool.query(text, params)).rows[0] as { id: string };
      const team = await one(`insert into teams (tenant_id, slug, name) values ($1, 'solo', 'Solo') returning id`, [t.tenantId]);
      const members: [string, string, string | null, string][] = [
        ['r1', 'employee', null, 'register'], ['r2', 'supplier', 'Acme', 'register'], ['r3', 'supplier', null, 'register'],
        ['r4', 'contractor', null, 'register'], ['m1', 'supplier', 'Acme', 'manual'], ['m2', 'employee', null, 'manual'],
      ];
      for (const [ref, type, supplier, source] of members) {
        const person = await one(`insert into people (tenant_id, external_ref, employment_type, supplier_name) values ($1, $2, $3, $4) returning id`, [t.tenantId, ref, type, supplier]);
        await pool.query(`insert into team_memberships (tenant_id, team_id, person_id, membership_source) values ($1, $2, $3, $4)`, [t.tenantId, team.id, person.id, source]);
      }
      const res = await api.as(t.owner.apiKey).get('/api/exports/team-baseline?from=2025-01&to=2025-01&format=json');
      expect(res.status).to.equal(200);
      expect(res.body.rows).to.have.length(1);
      // Register members only; the contractor counts in the total and in neither split; a supplier without a name is `unknown`.
      expect(res.body.rows[0]).to.deep.include({ headcount: 4, internal_headcount: 1, external_headcount: 2, headcount_by_supplier: { Acme: 1, unknown: 1 } });

      const cube = await api.as(t.owner.apiKey).post('/cubejs-api/v1/load', {
        query: {
          measures: ['memberships.headcount', 'memberships.register_headcount', 'memberships.manual_headcount', 'memberships.internal_headcount', 'memberships.external_headcount'],
          dimensions: ['teams.slug'],
        },
        castNumerics: true,
      });
      expect(cube.status, JSON.stringify(cube.body)).to.equal(200);
      expect(cube.body.data).to.deep.equal([{
        'teams.slug': 'solo',
        'memberships.headcount': 6, // every current membership: what attribution uses
        'memberships.register_headcount': 4, // the export's headcount
        'memberships.manual_headcount': 2,
        'memberships.internal_headcount': 1,
        'memberships.external_headcount': 2,
      }]);
    } finally {
      await api.close();
    }
  });
});
