import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { people, seats } from '../../src/db/schema/index.js';
import { runCli } from '../helpers/cli.js';
import { buildMember, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import type { TestServer } from '../helpers/server.js';
import { CSV, EXAMPLE_REGISTER, EXAMPLE_SEATS, EXAMPLE_SEATS_PATH, ownStderr, snapshot } from './helpers.js';
import { serverWithTwoTenants } from '../helpers/suites.js';

describe('AI seat import', function () {
  this.timeout(60_000);
  let api: TestServer, a: BuiltTenant, b: BuiltTenant;
  before(async () => {
    ({ api, a, b } = await serverWithTwoTenants());
    await api.as(a.owner.apiKey).post('/api/register/imports', EXAMPLE_REGISTER, CSV);
    await api.as(b.owner.apiKey).post('/api/register/imports', 'external_ref,email,display_name,employment_type,supplier_name,cost_centre_code,location_country,team_slug,team_name,team_external_ref,team_cost_centre_code,org_unit_slug\nB1,b1@example.com,B One,employee,,,,bteam,B Team,,,\n', CSV);
  });
  after(() => api.close());

  const seatRows = async (tenantId: string) =>
    (await dbFor(api.databaseUrl).db.select({ ref: people.externalRef, tool: seats.tool, assignedOn: seats.assignedOn, revokedOn: seats.revokedOn })
      .from(seats).innerJoin(people, eq(people.id, seats.personId)).where(eq(seats.tenantId, tenantId)).orderBy(people.externalRef, seats.tool))
      .map((s) => `${s.ref} ${s.tool} ${s.assignedOn} ${s.revokedOn ?? '-'}`);

  it('imports seats naming people by external_ref or e-mail; the same file again (CLI) changes nothing; a revocation updates', async () => {
    const res = await api.as(a.owner.apiKey).post('/api/seats/imports', EXAMPLE_SEATS, CSV);
    expect(res.status).to.equal(201);
    expect(res.body.data).to.deep.include({ rowCount: 3, importedBy: a.owner.userId, recorded: true, counts: { rows: 3, people: 3 } });
    expect(await seatRows(a.tenantId)).to.deep.equal(['E1001 github-copilot 2026-01-05 -', 'E1002 github-copilot 2026-01-05 2026-06-30', 'S3001 cursor 2026-03-01 -']);

    const before = await snapshot(api.databaseUrl, a.tenantId);
    const cli = await runCli(['seats:import', `--tenant=${a.tenantId}`, `--file=${EXAMPLE_SEATS_PATH}`], { DATABASE_URL: api.databaseUrl });
    expect(ownStderr(cli.stderr)).to.equal('');
    expect(JSON.parse(cli.stdout)).to.deep.include({ recorded: false, id: res.body.data.id });
    expect(await snapshot(api.databaseUrl, a.tenantId)).to.deep.equal(before);

    const revoke = await api.as(a.owner.apiKey).post('/api/seats/imports', 'email,tool,assigned_on,revoked_on\nADA.LOVELACE@example.com,github-copilot,2026-01-05,2026-02-01\n', CSV);
    expect(revoke.status).to.equal(201);
    expect(await seatRows(a.tenantId)).to.deep.equal(['E1001 github-copilot 2026-01-05 2026-02-01', 'E1002 github-copilot 2026-01-05 2026-06-30', 'S3001 cursor 2026-03-01 -']);
  });

  it('rejects every bad row by line and column and writes nothing', async () => {
    const t = await buildTenant(api.databaseUrl);
    await api.as(t.owner.apiKey).post('/api/register/imports', EXAMPLE_REGISTER, CSV);
    const before = await snapshot(api.databaseUrl, t.tenantId);
    const res = await api.as(t.owner.apiKey).post('/api/seats/imports', [
      'external_ref,email,tool,assigned_on,revoked_on',
      'E1001,,copilot,2026-01-05,',
      'NOPE,,copilot,2026-01-05,',
      ',nobody@example.com,copilot,2026-01-05,',
      ',,copilot,2026-01-05,',
      'E1001,,,2026-13-01,',
      'E1002,,copilot,2026-03-01,2026-02-01',
      'E1002,,copilot,2999-01-01,',
      'E1001,,copilot,2026-01-05,',
    ].join('\n'), CSV);
    expect(res.status).to.equal(400);
    expect(res.body.error.message).to.equal('Seat file rejected: 8 errors; nothing was imported');
    expect(res.body.error.details.map((d: any) => [d.line, d.column, d.message])).to.deep.equal([
      [3, 'external_ref', 'No person with external_ref "NOPE"'],
      [4, 'email', 'No person with e-mail "nobody@example.com"'],
      [5, 'external_ref', 'Name the person by external_ref or email'],
      [6, 'tool', 'Required'],
      [6, 'assigned_on', 'Must be a date YYYY-MM-DD from 1970 on'],
      [7, 'revoked_on', 'Must not be before assigned_on'],
      [8, 'assigned_on', `Must not be after today (${new Date().toISOString().slice(0, 10)} UTC)`],
      [9, 'assigned_on', 'The same seat (person, tool, assigned_on) is on line 2'],
    ]);
    expect(await snapshot(api.databaseUrl, t.tenantId)).to.deep.equal(before);
    const noPerson = await api.as(t.owner.apiKey).post('/api/seats/imports', 'tool,assigned_on\ncopilot,2026-01-01\n', CSV);
    expect(noPerson.body.error.details).to.deep.equal([{ path: 'line 1, external_ref', line: 1, column: 'external_ref', message: 'A column external_ref or email is required to name the person' }]);
  });

  it("is owner-only, and a tenant cannot name another tenant's people", async () => {
    const member = await buildMember(api.databaseUrl, a.tenantId);
    expectRefusal(await api.as(member.apiKey).post('/api/seats/imports', EXAMPLE_SEATS, CSV), 403, apiError('forbidden', 'Only an owner of the tenant can do this'));
    const cross = await api.as(b.owner.apiKey).post('/api/seats/imports', 'external_ref,tool,assigned_on\nE1001,copilot,2026-01-05\n', CSV);
    expect(cross.status).to.equal(400);
    expect(cross.body.error.details[0].message).to.equal('No person with external_ref "E1001"');
    expect(await seatRows(b.tenantId)).to.deep.equal([]);
  });
});
