/**
 * Every CSV the product writes neutralises cells a spreadsheet would run as a formula (OWASP CSV
 * injection: `=`, `+`, `-`, `@`, tab, carriage return), keeps plain numbers as numbers, and keeps
 * the spec's columns (src/shared/csv.ts). Seeded the way users send data: the register import and
 * the code host's signed webhook.
 */
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import { neutraliseFormula } from '../../src/shared/csv.js';
import { BASELINE_COLUMNS } from '../../src/exports/baseline.js';
import { ROSTER_COLUMNS } from '../../src/exports/teamRoster.js';
import { buildTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { CSV, register } from '../organisation/helpers.js';
import { announceInstallation, codehostEnv, deliver, FIXTURE_INSTALLATION, mergedPullRequest } from '../activity/helpers.js';

describe('CSV injection: formula cells are neutralised in every CSV', function () {
  this.timeout(120_000);
  let api: TestServer;
  before(async () => {
    api = await testServer({ env: codehostEnv() });
    await announceInstallation(api.databaseUrl, FIXTURE_INSTALLATION);
  });
  after(() => api?.close());

  it('the rule: formula starts get a quote, plain numbers and other text stay', () => {
    const cases: [string, string][] = [
      ['=HYPERLINK("https://evil.example","x")', '\'=HYPERLINK("https://evil.example","x")'],
      ['+cmd|\' /C calc\'!A0', '\'+cmd|\' /C calc\'!A0'],
      ['-2+3+cmd|\' /C calc\'!A0', '\'-2+3+cmd|\' /C calc\'!A0'],
      ['@SUM(1+1)', '\'@SUM(1+1)'],
      ['\t=1', '\'\t=1'],
      ['\r=1', '\'\r=1'],
      ['-12', '-12'],
      ['+3.5', '+3.5'],
      ['0.4', '0.4'],
      ['Team A', 'Team A'],
      ['', ''],
    ];
    for (const [value, expected] of cases) expect(neutraliseFormula(value), JSON.stringify(value)).to.equal(expected);
  });

  it('team roster, team baseline and the facts CSV: the same columns, the formula cells quoted', async () => {
    const tenant = await buildTenant(api.databaseUrl);
    const owner = api.as(tenant.owner.apiKey);
    const imported = await owner.post('/api/register/imports', register('p1,p1@example.com,"=HYPERLINK(""https://evil.example"")",employee,,,,team-a,@Team A,,,'), CSV);
    expect(imported.status, imported.text).to.equal(201);

    const roster = await owner.get('/api/exports/team-roster?format=csv');
    expect(roster.status).to.equal(200);
    const [rosterHeader, ...rosterRows] = parse(roster.text) as string[][];
    expect(rosterHeader).to.deep.equal([...ROSTER_COLUMNS]);
    const person = Object.fromEntries(rosterHeader!.map((c, i) => [c, rosterRows[0]![i]]));
    expect(person).to.deep.include({ display_name: '\'=HYPERLINK("https://evil.example")', team_name: '\'@Team A', email: 'p1@example.com' });

    const baseline = await owner.get('/api/exports/team-baseline?format=csv&from=2026-05&to=2026-05');
    expect(baseline.status).to.equal(200);
    const [baselineHeader, ...baselineRows] = parse(baseline.text) as string[][];
    expect(baselineHeader).to.deep.equal([...BASELINE_COLUMNS]);
    const team = Object.fromEntries(baselineHeader!.map((c, i) => [c, baselineRows[0]![i]]));
    expect(team).to.deep.include({ team_slug: 'team-a', team_name: '\'@Team A', headcount: '1' });

    expect((await owner.post('/api/integrations/codehost/installations', { installationId: FIXTURE_INSTALLATION })).status).to.equal(201);
    const pr = mergedPullRequest('acme/csv', { id: 9001, number: 1, created_at: '2026-05-02T10:00:00Z', merged_at: '2026-05-03T10:00:00Z', merge_commit_sha: 'c'.repeat(40), title: '-2+3+cmd|\' /C calc\'!A0' });
    expect((await deliver(api, 'pull_request', pr)).status).to.equal(200);
    const facts = await owner.get('/api/facts?measure=pull_requests.prs_merged&from=2026-05&to=2026-05&format=csv');
    expect(facts.status).to.equal(200);
    const [factsHeader, ...factRows] = parse(facts.text) as string[][];
    const json = (await owner.get('/api/facts?measure=pull_requests.prs_merged&from=2026-05&to=2026-05')).body.data;
    expect(factsHeader).to.deep.equal(Object.keys(json[0]));
    const row = Object.fromEntries(factsHeader!.map((c, i) => [c, factRows[0]![i]]));
    expect(json[0].title).to.equal('-2+3+cmd|\' /C calc\'!A0');
    expect(row.title).to.equal('\'-2+3+cmd|\' /C calc\'!A0');
  });
});
