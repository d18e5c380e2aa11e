/**
 * Drill-through of the last two numbers without a list (issue 33 point 1, docs/drill-through.md):
 * AI commits and headcount, read from the cube, one row per value the distinct count counts.
 *
 * Hand-worked, window 2026-05 (UTC). Register: Ann (alpha), Bo (beta), and Bo added to alpha by
 * hand (manual). Users ann and bo (their e-mails match the register), cy (no person).
 * Pushes to acme-corp/checkout-service (the code host's signed webhook):
 *   c1 2026-05-03 10:00, named by ann's session (claude-code) and bo's (cursor): one commit,
 *      though its link × team rows are three (ann's on alpha, bo's on alpha and on beta);
 *   c2 2026-05-10 08:00, named by cy's session (codex): no person, so no team;
 *   c3 2026-06-02, named by ann's session: outside May; c4 2026-05-12, named by no session.
 *   → AI commits: organisation 2 (c2, c1 newest first), alpha 1 (c1), beta 1 (c1).
 * Headcount (not windowed): alpha 2 (Ann register, Bo manual), beta 1 (Bo register), organisation
 * 2 people (Bo once, though on two teams: his memberships 2, register and manual).
 * Tenant B: its own installation pushes c1's sha too, named by its own session; its register one
 * person on its own team alpha.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { grantBiCredential, revokeBiCredential } from '../../src/bi/credentials.js';
import { announceInstallation, codehostEnv, deliver, fixture } from '../activity/helpers.js';
import { biUrl } from '../bi/biUrl.js';
import { buildMember, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { CSV, register } from '../organisation/helpers.js';
import { annBoAndCy } from './helpers.js';
import { mcpClients, structured } from '../mcp/mcpClient.js';

const MAY = 'from=2026-05&to=2026-05';
const REPO = 'acme-corp/checkout-service';
const SHA = { c1: 'c1c1c1c1'.repeat(5), c2: 'c2c2c2c2'.repeat(5), c3: 'c3c3c3c3'.repeat(5), c4: 'c4c4c4c4'.repeat(5) };
const INSTALLATION_A = 51_300_001;
const INSTALLATION_B = 51_300_002;

/** A push of commits (sha, time) to the repository's main branch, as the code host sends it. */
function push(commits: [string, string][]) {
  const payload = fixture('push');
  payload.repository.full_name = REPO;
  payload.ref = 'refs/heads/main';
  payload.commits = commits.map(([sha, timestamp]) => ({ ...payload.commits[1], id: sha, timestamp, message: 'change' }));
  payload.head_commit = payload.commits[payload.commits.length - 1];
  payload.after = payload.head_commit.id;
  return payload;
}

describe('drill-through: AI commits and headcount', function () {
  this.timeout(180_000);
  let api: TestServer;
  let tenant: BuiltTenant;
  let other: BuiltTenant;
  let cubeKey: string;
  const users: Record<string, { userId: string; apiKey: string }> = {};
  const people: Record<string, string> = {};
  const sessions: Record<string, string> = {};
  const teams: Record<string, string> = {};
  let otherPerson: string;
  let otherSession: string;

  before(async () => {
    api = await testServer({ env: codehostEnv() });
    tenant = await buildTenant(api.databaseUrl);
    other = await buildTenant(api.databaseUrl);
    cubeKey = (await buildMember(api.databaseUrl, tenant.tenantId)).apiKey;
    const owner = api.as(tenant.owner.apiKey);
    const { pool } = dbFor(api.databaseUrl);
    const shared = await annBoAndCy(api, tenant);
    const { email } = shared;
    Object.assign(teams, shared.teams);
    Object.assign(people, shared.people);
    Object.assign(users, shared.users);

    await announceInstallation(api.databaseUrl, INSTALLATION_A, INSTALLATION_B);
    expect((await owner.post('/api/integrations/codehost/installations', { installationId: INSTALLATION_A })).status).to.equal(201);
    expect((await api.as(other.owner.apiKey).post('/api/integrations/codehost/installations', { installationId: INSTALLATION_B })).status).to.equal(201);
    const pushed = await deliver(api, 'push', push([[SHA.c1, '2026-05-03T10:00:00Z'], [SHA.c2, '2026-05-10T08:00:00Z'], [SHA.c4, '2026-05-12T08:00:00Z'], [SHA.c3, '2026-06-02T08:00:00Z']]), { installationId: INSTALLATION_A });
    expect(pushed.status, pushed.text).to.equal(200);
    expect((await deliver(api, 'push', push([[SHA.c1, '2026-05-03T10:00:00Z']]), { installationId: INSTALLATION_B })).status).to.equal(200);

    const session = async (key: string, tool: string, startedAt: string, shas: string[]) => {
      const r = await api.as(key).post('/api/sessions', { tool, model: 'opus', startedAt, projectKey: REPO, commitShas: shas });
      expect(r.status, r.text).to.equal(201);
      return r.body.data.id as string;
    };
    sessions.ann = await session(users.ann!.apiKey, 'claude-code', '2026-05-03T09:00:00Z', [SHA.c1.slice(0, 10)]);
    sessions.bo = await session(users.bo!.apiKey, 'cursor', '2026-05-03T09:30:00Z', [SHA.c1]);
    sessions.cy = await session(users.cy!.apiKey, 'codex', '2026-05-10T07:00:00Z', [SHA.c2]);
    sessions.ann2 = await session(users.ann!.apiKey, 'claude-code', '2026-06-02T07:00:00Z', [SHA.c3]);

    const b = api.as(other.owner.apiKey);
    const bTag = other.tenantId.slice(0, 8);
    expect((await b.post('/api/register/imports', register(`zed,zed-${bTag}@example.com,Zed,employee,,CC-1,NL,alpha,Alpha,,,eng`), CSV)).status).to.be.oneOf([200, 201]);
    otherPerson = (await pool.query(`select person_id from person_identities where tenant_id = $1 and kind = 'email'`, [other.tenantId])).rows[0].person_id;
    otherSession = await session((await buildMember(api.databaseUrl, other.tenantId, 'member', `zed-${bTag}@example.com`)).apiKey, 'cursor', '2026-05-03T08:00:00Z', [SHA.c1]);
  });
  const mcp = mcpClients(() => api.baseUrl);
  after(async () => {
    await mcp.closeAll();
    await api?.close();
  });

  const facts = (query: string, key = tenant.owner.apiKey) => api.as(key).get(`/api/facts?${query}`);
  const cubeValue = async (measure: string, team?: string): Promise<number> => {
    const time = measure.startsWith('ai_commits.') ? [{ dimension: 'ai_commits.committed_at', dateRange: ['2026-05-01', '2026-05-31'] }] : [];
    const query = { measures: [measure], timeDimensions: time, filters: team ? [{ member: 'teams.slug', operator: 'equals', values: [team] }] : [] };
    const loaded = await api.as(cubeKey).post('/cubejs-api/v1/load', { query });
    expect(loaded.status, loaded.text).to.equal(200);
    return Number(loaded.body.data[0]?.[measure] ?? 0);
  };
  const sorted = (...ids: string[]) => [...ids].sort().join(', ');

  it('AI commits: one row per commit (named by two sessions, counted for two teams: once), newest first, with its sessions, tools and people by id', async () => {
    const all = await facts(`measure=ai_commits.ai_commits&${MAY}`);
    expect(all.status, all.text).to.equal(200);
    expect(all.body.meta).to.include({ total: 2, marked: 0, markedColumn: null, sum: null, kind: 'ai_commits', page: 1, perPage: 50 });
    expect(all.body.meta.columns.map((c: { key: string }) => c.key)).to.deep.equal(['committedAt', 'sha', 'repository', 'tools', 'peopleNames', 'sessions', 'people', 'url']);
    // The people by name too, in the order of their ids.
    const names: Record<string, string> = { [people.ann!]: 'Ann', [people.bo!]: 'Bo', [users.cy!.userId]: `cy-${tenant.tenantId.slice(0, 8)}@example.com (not in the register)` };
    expect(all.body.data.map((r: { people: string; peopleNames: string }) => r.peopleNames)).to.deep.equal(all.body.data.map((r: { people: string }) => r.people.split(', ').map((k) => names[k]).join(', ')));
    expect(all.body.data.map((r: Record<string, unknown>) => { const { id: _id, peopleNames: _n, url: _u, ...rest } = r; return rest; })).to.deep.equal([
      { repository: REPO, sha: SHA.c2, committedAt: '2026-05-10T08:00:00.000Z', tools: 'codex', sessions: sessions.cy, people: users.cy!.userId },
      { repository: REPO, sha: SHA.c1, committedAt: '2026-05-03T10:00:00.000Z', tools: 'claude-code, cursor', sessions: sorted(sessions.ann!, sessions.bo!), people: sorted(people.ann!, people.bo!) },
    ]);
    const { pool } = dbFor(api.databaseUrl);
    const c1 = (await pool.query(`select id from commits where tenant_id = $1 and sha = $2`, [tenant.tenantId, SHA.c1])).rows[0].id;
    expect(all.body.data[1].id).to.equal(c1);
    // The cube's rows behind c1 repeat (link × team): the list still has it once per team.
    for (const team of ['alpha', teams.beta!]) {
      const res = await facts(`measure=ai_commits.ai_commits&${MAY}&team=${team}`);
      expect(res.body.meta.total, team).to.equal(1);
      expect(res.body.data.map((r: { sha: string }) => r.sha), team).to.deep.equal([SHA.c1]);
    }
    // June holds c3 alone.
    expect((await facts('measure=ai_commits.ai_commits&from=2026-06&to=2026-06')).body.data.map((r: { sha: string }) => r.sha)).to.deep.equal([SHA.c3]);
  });

  it("headcount: the team's current members by person id and how they came; the organisation's people once; not windowed", async () => {
    const byId = (rows: Record<string, unknown>[]) => Object.fromEntries(rows.map((r) => [r.id, r]));
    const alpha = await facts(`measure=memberships.headcount&${MAY}&team=alpha`);
    expect(alpha.status, alpha.text).to.equal(200);
    expect(alpha.body.meta).to.include({ total: 2, kind: 'members', sum: null, team: 'alpha' });
    expect(alpha.body.meta.columns.map((c: { key: string }) => c.key)).to.deep.equal(['name', 'source', 'memberships', 'person']);
    expect(byId(alpha.body.data)).to.deep.equal({
      [people.ann!]: { id: people.ann, name: 'Ann', person: people.ann, source: 'register', memberships: 1 },
      [people.bo!]: { id: people.bo, name: 'Bo', person: people.bo, source: 'manual', memberships: 1 },
    });
    // By person id, in order.
    expect(alpha.body.data.map((r: { id: string }) => r.id)).to.deep.equal([people.ann!, people.bo!].sort());
    const beta = await facts(`measure=memberships.headcount&${MAY}&team=${teams.beta}`);
    expect(beta.body.data).to.deep.equal([{ id: people.bo, name: 'Bo', person: people.bo, source: 'register', memberships: 1 }]);
    const org = await facts(`measure=memberships.headcount&${MAY}`);
    expect(org.body.meta.total).to.equal(2);
    expect(byId(org.body.data)).to.deep.equal({
      [people.ann!]: { id: people.ann, name: 'Ann', person: people.ann, source: 'register', memberships: 1 },
      [people.bo!]: { id: people.bo, name: 'Bo', person: people.bo, source: 'register, manual', memberships: 2 },
    });
    // Current memberships: any window gives the same list (it echoes the window it was given).
    const long = await facts('measure=memberships.headcount&from=2020-01&to=2020-03');
    expect(long.body.data).to.deep.equal(org.body.data);
    expect(long.body.meta).to.include({ from: '2020-01', to: '2020-03' });
  });

  it("each list counts the cube's number, organisation-wide and per team", async () => {
    const expected: Record<string, [number, number, number]> = {
      // organisation, alpha, beta
      'ai_commits.ai_commits': [2, 1, 1],
      'memberships.headcount': [2, 2, 1],
    };
    for (const [measure, values] of Object.entries(expected)) {
      for (const [i, team] of [undefined, 'alpha', 'beta'].entries()) {
        const value = await cubeValue(measure, team);
        expect(value, `${measure} ${team}`).to.equal(values[i]);
        const res = await facts(`measure=${measure}&${MAY}${team ? `&team=${team}` : ''}`);
        expect(res.status, res.text).to.equal(200);
        expect(res.body.meta.total, `${measure} ${team}`).to.equal(value);
      }
    }
  });

  it('the CSV holds the same rows as the JSON', async () => {
    for (const [measure, team] of [['ai_commits.ai_commits', ''], ['memberships.headcount', ''], ['memberships.headcount', 'alpha']] as const) {
      const json = (await facts(`measure=${measure}&${MAY}${team ? `&team=${team}` : ''}`)).body.data as Record<string, unknown>[];
      const csv = await facts(`measure=${measure}&${MAY}${team ? `&team=${team}` : ''}&format=csv`);
      expect(csv.status).to.equal(200);
      expect(csv.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
      expect(csv.headers.get('content-disposition')).to.equal(`attachment; filename="facts-${measure.replace('.', '-')}-${team ? `${team}-` : ''}2026-05-2026-05.csv"`);
      const [header, ...lines] = parse(csv.text) as string[][];
      expect(header, measure).to.deep.equal(Object.keys(json[0]!));
      expect(lines, measure).to.have.length(json.length);
      expect(lines, measure).to.deep.equal(json.map((row) => header!.map((k) => (row[k] === null ? '' : String(row[k])))));
    }
  });

  it("tenant B never sees tenant A's commits or members, by window or by A's team slug", async () => {
    const commits = await facts(`measure=ai_commits.ai_commits&${MAY}`, other.owner.apiKey);
    expect(commits.body.meta.total).to.equal(1);
    expect(commits.body.data.map((r: Record<string, unknown>) => [r.sha, r.sessions, r.people])).to.deep.equal([[SHA.c1, otherSession, otherPerson]]);
    const alphaB = await facts(`measure=ai_commits.ai_commits&${MAY}&team=alpha`, other.owner.apiKey);
    expect(alphaB.body.data.map((r: { sessions: string }) => r.sessions)).to.deep.equal([otherSession]);
    for (const team of ['', '&team=alpha']) {
      const members = await facts(`measure=memberships.headcount&${MAY}${team}`, other.owner.apiKey);
      expect(members.body.data, team).to.deep.equal([{ id: otherPerson, name: 'Zed', source: 'register', memberships: 1, person: otherPerson }]);
    }
    // A's team by id is no team of B's: a 404 naming it, not an empty list.
    const theirs = await facts(`measure=memberships.headcount&${MAY}&team=${teams.alpha}`, other.owner.apiKey);
    expect([theirs.status, theirs.body.error.code]).to.deep.equal([404, 'not_found']);
  });

  it('list_facts (MCP) answers the same rows', async () => {
    const client = await mcp.connect(tenant.owner.apiKey);
    for (const [measure, team] of [['ai_commits.ai_commits', undefined], ['memberships.headcount', 'alpha']] as const) {
      const answer = structured(await client.callTool({ name: 'list_facts', arguments: { measure, from: '2026-05', to: '2026-05', ...(team ? { team } : {}) } }));
      const rest = await facts(`measure=${measure}&${MAY}${team ? `&team=${team}` : ''}`);
      expect(answer.rows, measure).to.deep.equal(rest.body.data);
      expect(answer, measure).to.deep.include({ total: 2, sum: null, truncated: false });
    }
  });

  it("the bi queries of docs/drill-through-bi.md for AI commits and members give the API's lists, run as the tenant's BI role", async () => {
    const sql = [...readFileSync(new URL('../../docs/drill-through-bi.md', import.meta.url), 'utf8').matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((q) => /bi\.(ai_commits|memberships)\b/.test(q));
    expect(sql).to.have.length(2);
    const { pool } = dbFor(api.databaseUrl);
    const { credential, password } = await grantBiCredential(pool, { tenantId: tenant.tenantId, name: 'Commits and members docs' });
    const client = new pg.Client({ connectionString: biUrl(api.databaseUrl, credential.user, password) });
    await client.connect();
    try {
      const commits = await client.query(sql[0]!.replace("'payments'", "'alpha'"));
      const list = (await facts(`measure=ai_commits.ai_commits&${MAY}&team=alpha`)).body.data as Record<string, unknown>[];
      expect(commits.rows.map((r) => [r.id, r.sha, r.ai_tools, r.ai_session_ids, r.ai_user_keys])).to.deep.equal(list.map((r) => [r.id, r.sha, r.tools, r.sessions, r.people]));
      const org = await client.query(sql[0]!.replace('JOIN bi.teams t ON t.id = c.team_id', '').replace("t.slug = 'payments' AND ", ''));
      expect(org.rows.map((r) => r.id)).to.deep.equal((await facts(`measure=ai_commits.ai_commits&${MAY}`)).body.data.map((r: Record<string, unknown>) => r.id));
      expect(org.rows).to.have.length(2);
      const members = await client.query(sql[1]!.replace("'payments'", "'alpha'"));
      const alpha = (await facts(`measure=memberships.headcount&${MAY}&team=alpha`)).body.data as Record<string, unknown>[];
      expect(members.rows.map((r) => [r.person_id, r.source, Number(r.memberships)])).to.deep.equal(alpha.map((r) => [r.person, r.source, r.memberships]));
      const everyone = await client.query(sql[1]!.replace('JOIN bi.teams t ON t.id = m.team_id', '').replace("WHERE t.slug = 'payments'", ''));
      expect(everyone.rows.map((r) => [r.person_id, r.source, Number(r.memberships)])).to.deep.equal((await facts(`measure=memberships.headcount&${MAY}`)).body.data.map((r: Record<string, unknown>) => [r.person, r.source, r.memberships]));
    } finally {
      await client.end();
      await revokeBiCredential(pool, tenant.tenantId, credential.id);
    }
  });
});
