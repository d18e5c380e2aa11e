import { expect } from 'chai';
import { and, eq } from 'drizzle-orm';
import { people, personIdentities, teamMemberships, teams } from '../../src/db/schema/index.js';
import { NO_LINE_BREAKS } from '../../src/organisation/csvImport.js';
import { runCli } from '../helpers/cli.js';
import { buildMember, buildTenant, dbFor, twoTenants, type BuiltTenant } from '../helpers/factories.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { CSV, EXAMPLE_REGISTER, EXAMPLE_REGISTER_PATH, ownStderr, register, REGISTER_HEADER, snapshot } from './helpers.js';

const where = (details: { line: number; column: string }[]) => details.map((d) => `${d.line}:${d.column}`);

describe('Organisation register import', function () {
  this.timeout(60_000);
  let api: TestServer;
  let a: BuiltTenant;
  before(async () => {
    api = await testServer();
    a = await buildTenant(api.databaseUrl);
  });
  after(() => api.close());

  it('imports the example register: org units, teams, people, identities, memberships, and the import record', async () => {
    const t = await buildTenant(api.databaseUrl);
    const res = await api.as(t.owner.apiKey).post('/api/register/imports', EXAMPLE_REGISTER, CSV);
    expect(res.status).to.equal(201);
    const { id, importedAt, fileSha256, ...rest } = res.body.data;
    expect(id).to.be.a('string');
    expect(importedAt).to.match(/^\d{4}-\d{2}-\d{2}T/);
    expect(fileSha256).to.match(/^[0-9a-f]{64}$/);
    expect(rest).to.deep.equal({ rowCount: 6, importedBy: t.owner.userId, recorded: true, counts: { rows: 6, orgUnits: 2, teams: 3, people: 5, memberships: 6 } });

    const teamsRes = await api.as(t.owner.apiKey).get('/api/teams');
    expect(teamsRes.body.meta).to.deep.equal({ page: 1, perPage: 25, total: 3 });
    const checkout = teamsRes.body.data[0];
    expect(checkout).to.deep.include({
      slug: 'checkout', name: 'Checkout', externalRef: 'HR-T-02', costCentreCode: 'CC-110', supplierName: null,
      deliveryModel: 'in-house', locationCountry: 'DE', enabled: true, memberCount: 2, projects: [],
    });
    expect(checkout.orgUnit).to.deep.include({ slug: 'commerce', name: 'Commerce' });
    expect(teamsRes.body.data.map((x: any) => x.slug)).to.deep.equal(['checkout', 'payments', 'platform']);

    const peopleRes = await api.as(t.owner.apiKey).get('/api/people?perPage=2&page=2');
    expect(peopleRes.body.meta).to.deep.equal({ page: 2, perPage: 2, total: 5 });
    expect(peopleRes.body.data.map((p: any) => p.externalRef)).to.deep.equal(['E1002', 'S3001']);
    const grace = peopleRes.body.data[0];
    expect(grace).to.deep.include({ email: 'grace.hopper@example.com', displayName: 'Grace Hopper', employmentType: 'employee', locationCountry: 'US' });
    // The example carries our optional codehost_usernames column (issue 46 point 5), so its PR authors get names.
    expect(EXAMPLE_REGISTER.split('\n')[0]!.split(',').at(-1)).to.equal('codehost_usernames');
    expect(grace.identities).to.have.deep.members([{ kind: 'email', value: 'grace.hopper@example.com', source: 'register' }, { kind: 'codehost_username', value: 'ghopper', source: 'register' }]);
    expect(grace.teams.map((m: any) => [m.slug, m.membershipSource])).to.deep.equal([['checkout', 'register'], ['payments', 'register']]);
    const platform = await api.as(t.owner.apiKey).get('/api/people?team=platform');
    expect(platform.body.data.map((p: any) => p.externalRef)).to.deep.equal(['S3001', 'U4001']);
  });

  it('re-importing the same file changes nothing (API then CLI) and records no new import', async () => {
    const t = await buildTenant(api.databaseUrl);
    expect((await api.as(t.owner.apiKey).post('/api/register/imports', EXAMPLE_REGISTER, CSV)).status).to.equal(201);
    const before = await snapshot(api.databaseUrl, t.tenantId);
    const again = await api.as(t.owner.apiKey).post('/api/register/imports', EXAMPLE_REGISTER, CSV);
    expect(again.status).to.equal(200);
    expect(again.body.data.recorded).to.equal(false);
    expect(again.body.data.id).to.equal(before.register_imports![0] && (before.register_imports![0] as any).id);
    const cli = await runCli(['register:import', `--tenant=${t.tenantId}`, `--file=${EXAMPLE_REGISTER_PATH}`], { DATABASE_URL: api.databaseUrl });
    expect(ownStderr(cli.stderr)).to.equal('');
    expect(cli.code).to.equal(0);
    expect(JSON.parse(cli.stdout)).to.deep.include({ recorded: false, importedBy: t.owner.userId });
    expect(await snapshot(api.databaseUrl, t.tenantId)).to.deep.equal(before);

    const member = await buildMember(api.databaseUrl, t.tenantId);
    const listed = await api.as(member.apiKey).get('/api/register/imports');
    expect(listed.body.meta).to.deep.equal({ page: 1, perPage: 25, total: 1 });
    expect(listed.body.data[0]).to.deep.equal({ id: again.body.data.id, importedAt: again.body.data.importedAt, rowCount: 6, importedBy: t.owner.userId, fileSha256: again.body.data.fileSha256 });
    expect((await api.as(a.owner.apiKey).get('/api/register/imports')).body.meta.total).to.equal(0);
  });

  it('a new file replaces register memberships, keeps manual ones, updates people and records who imported', async () => {
    const t = await buildTenant(api.databaseUrl);
    const { db } = dbFor(api.databaseUrl);
    await api.as(t.owner.apiKey).post('/api/register/imports', register(
      'P1,p1@example.com,One,employee,,CC1,GB,alpha,Alpha,TA,CC1,ou',
      'P2,p2@example.com,Two,employee,,CC1,GB,alpha,Alpha,TA,CC1,ou',
      'P3,p3@example.com,Three,contractor,,CC1,GB,beta,Beta,TB,CC1,',
    ), CSV);
    const [beta] = await db.select().from(teams).where(and(eq(teams.tenantId, t.tenantId), eq(teams.slug, 'beta')));
    const [p2] = await db.select().from(people).where(and(eq(people.tenantId, t.tenantId), eq(people.externalRef, 'P2')));
    await db.insert(teamMemberships).values({ tenantId: t.tenantId, teamId: beta!.id, personId: p2!.id, membershipSource: 'manual' });

    const cli = await runCli(['register:import', `--tenant=${t.tenantId}`, '--file=-'], { DATABASE_URL: api.databaseUrl }, register(
      'P1,P1.new@example.com,One Renamed,employee,,CC1,GB,beta,Beta,TB,CC1,',
      'P3,p3@example.com,Three,contractor,,CC1,GB,beta,Beta,TB,CC1,',
    ));
    expect(ownStderr(cli.stderr)).to.equal('');
    expect(JSON.parse(cli.stdout)).to.deep.include({ recorded: true, importedBy: 'cli', rowCount: 2 });

    const rows = await db.select({ slug: teams.slug, ref: people.externalRef, source: teamMemberships.membershipSource }).from(teamMemberships)
      .innerJoin(teams, eq(teams.id, teamMemberships.teamId)).innerJoin(people, eq(people.id, teamMemberships.personId))
      .where(eq(teamMemberships.tenantId, t.tenantId)).orderBy(teams.slug, people.externalRef);
    expect(rows).to.deep.equal([
      { slug: 'beta', ref: 'P1', source: 'register' },
      { slug: 'beta', ref: 'P2', source: 'manual' },
      { slug: 'beta', ref: 'P3', source: 'register' },
    ]);
    const identities = await db.select({ value: personIdentities.value }).from(personIdentities).where(eq(personIdentities.tenantId, t.tenantId)).orderBy(personIdentities.value);
    expect(identities.map((i) => i.value)).to.deep.equal(['p1.new@example.com', 'p2@example.com', 'p3@example.com']);
    const [p1] = await db.select().from(people).where(and(eq(people.tenantId, t.tenantId), eq(people.externalRef, 'P1')));
    expect(p1).to.deep.include({ email: 'P1.new@example.com', displayName: 'One Renamed' });
    const alpha = (await api.as(t.owner.apiKey).get('/api/teams')).body.data.find((x: any) => x.slug === 'alpha');
    expect(alpha.memberCount).to.equal(0);
  });

  it('rejects a file with every bad row listed by line and column, and writes nothing', async () => {
    const res = await api.as(a.owner.apiKey).post('/api/register/imports', register(
      'P1,p1@x.com,P One,employee,,CC1,GB,alpha,Alpha,TA,CC1,ou',
      ',p2@x.com,P Two,employee,,CC1,GB,alpha,Alpha,TA,CC1,ou',
      'P3,not-an-email,P3,staff,,CC1,GB,alpha,Alpha,TA,CC1,ou',
      'P4,p4@x.com,P4,supplier,,CC1,GBR,alpha,Alpha,TA,CC1,ou',
      'P5,p5@x.com,P5,employee,,CC1,GB,Bad Slug,,TB,CC1,ou',
      'P6,p6@x.com',
      'P1,p1@x.com,Someone Else,employee,,CC1,GB,beta,Beta,TBB,CC1,ou',
      'P7,p7@x.com,P7,employee,,CC1,GB,alpha,Alpha Team,TA,CC1,ou',
      'P1,p1@x.com,P One,employee,,CC1,GB,alpha,Alpha,TA,CC1,ou',
      'P8,P1@X.com,P8,employee,,CC1,GB,alpha,Alpha,TA,CC1,ou',
    ), CSV);
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('validation_failed');
    expect(res.body.error.message).to.equal('Register rejected: 12 errors; nothing was imported');
    expect(where(res.body.error.details)).to.deep.equal([
      '3:external_ref', '4:email', '4:employment_type', '5:supplier_name', '5:location_country', '6:team_slug', '6:team_name',
      '7:row', '8:display_name', '9:team_name', '10:team_slug', '11:email',
    ]);
    const byKey = Object.fromEntries(res.body.error.details.map((d: any) => [`${d.line}:${d.column}`, d]));
    expect(byKey['3:external_ref']).to.deep.equal({ path: 'line 3, external_ref', line: 3, column: 'external_ref', message: 'Required' });
    expect(byKey['4:employment_type'].message).to.equal('Must be one of employee, contractor, supplier, unknown');
    expect(byKey['7:row'].message).to.equal('The row has 2 cells; the header has 12');
    expect(byKey['8:display_name'].message).to.equal('Person "P1" has "Someone Else" here but "P One" on line 2');
    expect(byKey['10:team_slug'].message).to.equal('Person "P1" is already on team "alpha" on line 2');
    expect(byKey['11:email'].message).to.equal('"p1@x.com" also belongs to person "P1" on line 2');
    expect(await snapshot(api.databaseUrl, a.tenantId)).to.deep.equal(await emptySnapshot());
  });

  it('rejects header problems, unreadable CSV, empty files and a register e-mail held by a manual identity', async () => {
    const post = (body: string) => api.as(a.owner.apiKey).post('/api/register/imports', body, CSV);
    const header = await post(`${REGISTER_HEADER.replace(',org_unit_slug', '').replace('email,', 'email,email,colour,')}\nx\n`);
    expect(header.status).to.equal(400);
    expect(header.body.error.details.map((d: any) => [d.line, d.column, d.message])).to.deep.equal([
      [1, 'email', 'Column "email" appears more than once'],
      [1, 'colour', 'Unknown column "colour"'],
      [1, 'org_unit_slug', 'Required column "org_unit_slug" is missing'],
    ]);
    const unclosed = await post(register('P1,p1@x.com,"One,employee,,CC1,GB,alpha,Alpha,TA,CC1,ou'));
    expect(where(unclosed.body.error.details)).to.deep.equal(['2:file']);
    expect(unclosed.body.error.details[0].message).to.match(/^The file is not valid CSV: Quote Not Closed/);
    expect((await post('')).body.error.details[0]).to.deep.include({ line: 1, column: 'file', message: 'The file is empty; a header row is required' });
    expect((await post(`${REGISTER_HEADER}\n`)).body.error.details[0]).to.deep.include({ line: 1, column: 'file', message: 'The file has a header but no rows' });
    // As `curl -d @register.csv` sends it: the line breaks stripped.
    const stripped = await post(EXAMPLE_REGISTER.replace(/\r?\n/g, ''));
    expect(stripped.status).to.equal(400);
    expect(stripped.body.error.details.at(-1)).to.deep.include({ line: 1, column: 'file', message: NO_LINE_BREAKS });
    expect(NO_LINE_BREAKS).to.include('--data-binary');
    expect((await post(`${REGISTER_HEADER},colour\nx\n`)).body.error.details.map((d: any) => d.message)).to.not.include(NO_LINE_BREAKS);
    const wrongType = await api.as(a.owner.apiKey).post('/api/register/imports', { rows: [] });
    expect(wrongType.status).to.equal(400);
    expect(wrongType.body.error.details).to.deep.equal([{ path: 'body', message: 'Content-Type must be text/csv' }]);

    const { db } = dbFor(api.databaseUrl);
    const [held] = await db.insert(people).values({ tenantId: a.tenantId, externalRef: 'M1', email: null }).returning();
    await db.insert(personIdentities).values({ tenantId: a.tenantId, personId: held!.id, kind: 'email', value: 'taken@example.com', source: 'manual' });
    const before = await snapshot(api.databaseUrl, a.tenantId);
    const taken = await post(register('P1,Taken@example.com,One,employee,,CC1,GB,alpha,Alpha,TA,CC1,'));
    expect(taken.body.error.details).to.deep.equal([{ path: 'line 2, email', line: 2, column: 'email', message: '"taken@example.com" is a manual identity of person "M1"' }]);
    expect(await snapshot(api.databaseUrl, a.tenantId)).to.deep.equal(before);
  });

  it('the CLI lists every problem on stderr and exits 1, writing nothing', async () => {
    const t = await buildTenant(api.databaseUrl);
    const cli = await runCli(['register:import', `--tenant=${t.tenantId}`, '--file=-'], { DATABASE_URL: api.databaseUrl },
      register('P1,bad,One,employee,,CC1,GB,alpha,Alpha,TA,CC1,', 'P2,p2@x.com,Two,nobody,,CC1,GB,alpha,Alpha,TA,CC1,'));
    expect(cli.code).to.equal(1);
    expect(cli.stdout).to.equal('');
    expect(ownStderr(cli.stderr)).to.equal([
      'Register rejected: 2 errors; nothing was imported',
      '  line 2, email: "bad" is not an e-mail address',
      '  line 3, employment_type: Must be one of employee, contractor, supplier, unknown',
      '',
    ].join('\n'));
    expect(await snapshot(api.databaseUrl, t.tenantId)).to.deep.equal(await emptySnapshot());
    const unknown = await runCli(['register:import', '--tenant=00000000-0000-4000-8000-000000000000', `--file=${EXAMPLE_REGISTER_PATH}`], { DATABASE_URL: api.databaseUrl });
    expect(unknown.code).to.equal(1);
    expect(ownStderr(unknown.stderr)).to.equal('register:import: tenant 00000000-0000-4000-8000-000000000000 not found\n');
  });

  it('only an owner imports: a member gets 403 and nothing is written; no credentials is 401', async () => {
    const t = await buildTenant(api.databaseUrl);
    const member = await buildMember(api.databaseUrl, t.tenantId);
    const res = await api.as(member.apiKey).post('/api/register/imports', EXAMPLE_REGISTER, CSV);
    expect(res.status).to.equal(403);
    expect(res.body).to.deep.equal({ error: { code: 'forbidden', message: 'Only an owner of the tenant can do this' } });
    expectRefusal(await api.post('/api/register/imports', EXAMPLE_REGISTER, CSV), 401, apiError('unauthorized', 'Missing or invalid credentials'));
    expect(await snapshot(api.databaseUrl, t.tenantId)).to.deep.equal(await emptySnapshot());
  });

  it("keeps tenants apart: B sees none of A's teams or people, and the same slugs live in both", async () => {
    const { a: ta, b: tb } = await twoTenants(api.databaseUrl);
    await api.as(ta.owner.apiKey).post('/api/register/imports', EXAMPLE_REGISTER, CSV);
    expect((await api.as(tb.owner.apiKey).get('/api/teams')).body).to.deep.equal({ data: [], meta: { page: 1, perPage: 25, total: 0 } });
    expect((await api.as(tb.owner.apiKey).get('/api/people')).body).to.deep.equal({ data: [], meta: { page: 1, perPage: 25, total: 0 } });
    expect((await api.as(tb.owner.apiKey).get('/api/people?team=payments')).body.meta.total).to.equal(0);
    const bImport = await api.as(tb.owner.apiKey).post('/api/register/imports', EXAMPLE_REGISTER, CSV);
    expect(bImport.status).to.equal(201);
    expect(bImport.body.data.counts.teams).to.equal(3);
    const aTeams = (await api.as(ta.owner.apiKey).get('/api/teams')).body.data.map((x: any) => x.id);
    const bTeams = (await api.as(tb.owner.apiKey).get('/api/teams')).body.data.map((x: any) => x.id);
    expect(aTeams.filter((id: string) => bTeams.includes(id))).to.deep.equal([]);
  });
});

function emptySnapshot(): Record<string, unknown[]> {
  return Object.fromEntries(['org_units', 'teams', 'people', 'person_identities', 'team_memberships', 'register_imports', 'seats', 'seat_imports', 'projects'].map((t) => [t, []]));
}
