import { expect } from 'chai';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';
import { buildMember, buildSessionCookie, buildTenant, twoTenants, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { CSV, EXAMPLE_REGISTER, ownStderr, todayUtc } from './helpers.js';

const HEADER = 'external_ref,email,display_name,employment_type,supplier_name,cost_centre_code,location_country,team_slug,team_name,team_external_ref,team_cost_centre_code,org_unit_slug,membership_source,as_of';

/** The example register's roster, worked out by hand: team_slug, then external_ref. */
function expectedCsv(asOf: string, withPlatform = true): string {
  const rows = [
    `C2001,linus@contractor.example,"Torvalds, Linus",contractor,,CC-110,FI,checkout,Checkout,HR-T-02,CC-110,commerce,register,${asOf}`,
    `E1002,grace.hopper@example.com,Grace Hopper,employee,,CC-100,US,checkout,Checkout,HR-T-02,CC-110,commerce,register,${asOf}`,
    `E1001,ada.lovelace@example.com,Ada Lovelace,employee,,CC-100,GB,payments,Payments,HR-T-01,CC-100,commerce,register,${asOf}`,
    `E1002,grace.hopper@example.com,Grace Hopper,employee,,CC-100,US,payments,Payments,HR-T-01,CC-100,commerce,register,${asOf}`,
  ];
  if (withPlatform) {
    rows.push(
      `S3001,m.hamilton@acme-supplier.example,Margaret Hamilton,supplier,Acme Consulting,CC-200,IN,platform,Platform,HR-T-03,CC-200,infrastructure,register,${asOf}`,
      `U4001,,Unnamed Starter,unknown,,CC-200,,platform,Platform,HR-T-03,CC-200,infrastructure,register,${asOf}`,
    );
  }
  return `${HEADER}\n${rows.join('\n')}\n`;
}

describe('Team roster export', function () {
  this.timeout(90_000);
  let api: TestServer;
  let a: BuiltTenant;
  let b: BuiltTenant;
  let env: { DATABASE_URL: string };
  before(async () => {
    api = await testServer();
    env = { DATABASE_URL: api.databaseUrl };
    ({ a, b } = await twoTenants(api.databaseUrl));
    expect((await api.as(a.owner.apiKey).post('/api/register/imports', EXAMPLE_REGISTER, CSV)).status).to.equal(201);
  });
  after(() => api.close());

  it('CSV by default: header, one row per (person, team), a person on two teams twice, as_of = today (UTC)', async () => {
    const res = await api.as(a.owner.apiKey).get('/api/exports/team-roster');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).to.equal(`attachment; filename="team-roster-${todayUtc()}.csv"`);
    expect(res.text).to.equal(expectedCsv(todayUtc()));
  });

  it('JSON: {asOf, rows} with every value a string; asOf is echoed, not a filter', async () => {
    const res = await api.as(a.owner.apiKey).get('/api/exports/team-roster?format=json&asOf=2024-02-29');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(Object.keys(res.body)).to.deep.equal(['asOf', 'rows']);
    expect(res.body.asOf).to.equal('2024-02-29');
    expect(res.body.rows).to.have.length(6);
    expect(Object.keys(res.body.rows[0])).to.deep.equal(HEADER.split(','));
    expect(res.body.rows[5]).to.deep.equal({
      external_ref: 'U4001', email: '', display_name: 'Unnamed Starter', employment_type: 'unknown', supplier_name: '', cost_centre_code: 'CC-200',
      location_country: '', team_slug: 'platform', team_name: 'Platform', team_external_ref: 'HR-T-03', team_cost_centre_code: 'CC-200',
      org_unit_slug: 'infrastructure', membership_source: 'register', as_of: '2024-02-29',
    });
    for (const row of res.body.rows) for (const value of Object.values(row)) expect(value).to.be.a('string');
  });

  it('CSV and JSON bodies are byte-identical to export:team-roster (stdout and --out)', async () => {
    const csv = await api.as(a.owner.apiKey).get('/api/exports/team-roster?asOf=2025-01-31&format=csv');
    const cliCsv = await runCli(['export:team-roster', `--tenant=${a.tenantId}`, '--as-of=2025-01-31', '--format=csv'], env);
    expect(ownStderr(cliCsv.stderr)).to.equal('');
    expect(cliCsv.code).to.equal(0);
    expect(Buffer.from(cliCsv.stdout).equals(Buffer.from(csv.text))).to.equal(true);
    expect(csv.text).to.equal(expectedCsv('2025-01-31'));

    const json = await api.as(a.owner.apiKey).get('/api/exports/team-roster?asOf=2025-01-31&format=json');
    const out = join(mkdtempSync(join(tmpdir(), 'roster-')), 'roster.json');
    const cliJson = await runCli(['export:team-roster', `--tenant=${a.tenantId}`, '--as-of=2025-01-31', '--format=json', `--out=${out}`], env);
    expect(cliJson.code).to.equal(0);
    expect(cliJson.stdout).to.equal('');
    expect(readFileSync(out).equals(Buffer.from(json.text))).to.equal(true);
  });

  it('a future asOf, an impossible date or an unknown format is 400 in the general envelope; the CLI refuses it too', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const future = await api.as(a.owner.apiKey).get(`/api/exports/team-roster?asOf=${tomorrow}`);
    expect(future.status).to.equal(400);
    expect(future.body).to.deep.equal({
      error: { code: 'validation_failed', message: 'Validation failed', details: [{ path: 'query.asOf', message: 'Must not be in the future (today is the UTC date)' }] },
    });
    const bad = await api.as(a.owner.apiKey).get('/api/exports/team-roster?asOf=2025-02-30&format=xml');
    expect(bad.status).to.equal(400);
    expect(bad.body.error.details).to.deep.equal([
      { path: 'query.asOf', message: 'Must be a date YYYY-MM-DD' },
      { path: 'query.format', message: 'Must be csv or json' },
    ]);
    const cli = await runCli(['export:team-roster', `--tenant=${a.tenantId}`, `--as-of=${tomorrow}`], env);
    expect(cli.code).to.equal(2);
    expect(cli.stdout).to.equal('');
    expect(ownStderr(cli.stderr)).to.match(/^export:team-roster: --as-of: Must not be in the future \(today is the UTC date\)\nusage: /);
  });

  it('any authenticated principal of the tenant: a member key and a session cookie; none is 401', async () => {
    const member = await buildMember(api.databaseUrl, a.tenantId);
    expect((await api.as(member.apiKey).get('/api/exports/team-roster?asOf=2025-01-31')).text).to.equal(expectedCsv('2025-01-31'));
    const cookie = await buildSessionCookie(api.databaseUrl, member.userId, a.tenantId);
    expect((await api.with({ cookie }).get('/api/exports/team-roster?asOf=2025-01-31')).text).to.equal(expectedCsv('2025-01-31'));
    const anonymous = await api.get('/api/exports/team-roster');
    expect(anonymous.status).to.equal(401);
    expect(anonymous.body).to.deep.equal({ error: { code: 'unauthorized', message: 'Missing or invalid credentials' } });
  });

  it("tenant B's roster is its own: only the header", async () => {
    const res = await api.as(b.owner.apiKey).get('/api/exports/team-roster?asOf=2025-01-31');
    expect(res.text).to.equal(`${HEADER}\n`);
    expect((await api.as(b.owner.apiKey).get('/api/exports/team-roster?asOf=2025-01-31&format=json')).text).to.equal('{"asOf":"2025-01-31","rows":[]}');
  });

  it('a disabled team drops out; the exported roster re-imports as a register and exports the same', async () => {
    const t = await buildTenant(api.databaseUrl);
    await api.as(t.owner.apiKey).post('/api/register/imports', EXAMPLE_REGISTER, CSV);
    const roster = (await api.as(t.owner.apiKey).get('/api/exports/team-roster?asOf=2025-01-31')).text;
    const reimport = await api.as(t.owner.apiKey).post('/api/register/imports', roster, CSV);
    expect(reimport.status).to.equal(201);
    expect((await api.as(t.owner.apiKey).get('/api/exports/team-roster?asOf=2025-01-31')).text).to.equal(roster);

    const platform = (await api.as(t.owner.apiKey).get('/api/teams')).body.data.find((x: any) => x.slug === 'platform');
    const patched = await api.as(t.owner.apiKey).patch(`/api/teams/${platform.id}`, { enabled: false });
    expect(patched.body.data.enabled).to.equal(false);
    expect((await api.as(t.owner.apiKey).get('/api/exports/team-roster?asOf=2025-01-31')).text).to.equal(expectedCsv('2025-01-31', false));
  });
});
