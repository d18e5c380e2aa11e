/**
 * Drill-through of the AI and survey counts (issue 33, docs/drill-through.md "AI and surveys"):
 * AI sessions, AI active users, seat holders and the survey counts, read from the cube, add up to
 * the number; a survey response, an answer or a score is never listed.
 *
 * Hand-worked, window 2026-05 (UTC). Register: Ann (alpha), Bo (alpha and beta). Users: ann and bo
 * (their e-mails match the register) and cy (no person: an unmatched uploader).
 *   Sessions: ann 05-02, 05-03 (and 06-01, outside); bo 05-04; cy 05-05.
 *   → organisation 4 sessions (bo's once, though Bo counts on two teams), 3 active users
 *     (ann 2 sessions, bo 1, cy 1); alpha 3 sessions, 2 users; beta 1 session, 1 user.
 *   Seats (the import): Ann copilot from 04-01 and cursor from 05-10; Bo claude from 05-15; Bo
 *   copilot 01-05 to 04-20 (not in May). → holders 2 (Ann 2 seats, Bo 1); alpha 2; beta 1.
 *   Survey "Pulse" 05-01..05-20 (no push API: the rows its service stores): alpha invites Ann and
 *   Bo, both answer; beta invites Bo, who answers. → invitations 3, responses 3; alpha 2 of 2 (so
 *   no score: fewer than 3), beta 1 of 1.
 * Tenant B has one session of its own in May.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { grantBiCredential, revokeBiCredential } from '../../src/bi/credentials.js';
import { biUrl } from '../bi/biUrl.js';
import { buildMember, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { CSV, register } from '../organisation/helpers.js';
import { annBoAndCy } from './helpers.js';
import { mcpClients, structured } from '../mcp/mcpClient.js';

const MAY = 'from=2026-05&to=2026-05';
const TIME: Record<string, string> = { ai_sessions: 'ai_sessions.started_at', seats: 'seats.month', survey_responses: 'survey_responses.month' };

describe('drill-through: AI sessions, AI users, seat holders and survey counts', function () {
  this.timeout(180_000);
  let api: TestServer;
  let tenant: BuiltTenant;
  let other: BuiltTenant;
  let cubeKey: string;
  const users: Record<string, { userId: string; apiKey: string }> = {};
  const people: Record<string, string> = {};
  const teams: Record<string, string> = {};

  before(async () => {
    api = await testServer();
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

    const session = async (key: string, startedAt: string, tool = 'claude-code') => {
      const r = await api.as(key).post('/api/sessions', { tool, model: 'opus', startedAt, endedAt: startedAt.replace('T10', 'T11') });
      expect(r.status, r.text).to.equal(201);
      return r.body.data.id as string;
    };
    await session(users.ann!.apiKey, '2026-05-02T10:00:00Z');
    await session(users.ann!.apiKey, '2026-05-03T10:00:00Z', 'cursor');
    await session(users.ann!.apiKey, '2026-06-01T10:00:00Z');
    await session(users.bo!.apiKey, '2026-05-04T10:00:00Z');
    await session(users.cy!.apiKey, '2026-05-05T10:00:00Z');
    await session((await buildMember(api.databaseUrl, other.tenantId)).apiKey, '2026-05-06T10:00:00Z');

    const seats = await owner.post('/api/seats/imports', [
      'email,tool,assigned_on,revoked_on',
      `${email('ann')},github-copilot,2026-04-01,`,
      `${email('ann')},cursor,2026-05-10,`,
      `${email('bo')},claude,2026-05-15,`,
      `${email('bo')},github-copilot,2026-01-05,2026-04-20`,
    ].join('\n') + '\n', CSV);
    expect(seats.status, seats.text).to.be.oneOf([200, 201]);

    const survey = (await pool.query(`insert into surveys (tenant_id, title, opens_on, closes_on) values ($1, 'Pulse', '2026-05-01', '2026-05-20') returning id`, [tenant.tenantId])).rows[0].id as string;
    for (const [slug, invited] of [['alpha', ['ann', 'bo']], ['beta', ['bo']]] as const) {
      await pool.query(`insert into survey_teams (survey_id, team_id, tenant_id) values ($1, $2, $3)`, [survey, teams[slug], tenant.tenantId]);
      for (const name of invited) {
        await pool.query(`insert into survey_invitations (tenant_id, survey_id, team_id, person_id) values ($1, $2, $3, $4)`, [tenant.tenantId, survey, teams[slug], people[name]]);
        await pool.query(`insert into survey_responses (tenant_id, survey_id, team_id, response_key, q1, q2, q3, q4, q5) values ($1, $2, $3, $4, 5, 5, 5, 5, 5)`, [tenant.tenantId, survey, teams[slug], `${slug}-${name}`]);
      }
    }
  });
  const mcp = mcpClients(() => api.baseUrl);
  after(async () => {
    await mcp.closeAll();
    await api?.close();
  });

  const facts = (query: string, key = tenant.owner.apiKey) => api.as(key).get(`/api/facts?${query}`);
  const cubeValue = async (measure: string, team?: string): Promise<number> => {
    const query = { measures: [measure], timeDimensions: [{ dimension: TIME[measure.split('.')[0]!], dateRange: ['2026-05-01', '2026-05-31'] }], filters: team ? [{ member: 'teams.slug', operator: 'equals', values: [team] }] : [] };
    const loaded = await api.as(cubeKey).post('/cubejs-api/v1/load', { query });
    expect(loaded.status, loaded.text).to.equal(200);
    return Number(loaded.body.data[0]?.[measure] ?? 0);
  };

  it('AI sessions: one row per session (a person on two teams once), the count the cube gives, newest first', async () => {
    const all = await facts(`measure=ai_sessions.ai_sessions&${MAY}`);
    expect(all.status, all.text).to.equal(200);
    expect(all.body.meta).to.include({ total: 4, marked: 0, markedColumn: null, sum: null, kind: 'ai_sessions', page: 1, perPage: 50 });
    expect(all.body.data.map((r: Record<string, unknown>) => [r.startedAt, r.endedAt, r.tool, r.model, r.user, r.personMatched])).to.deep.equal([
      ['2026-05-05T10:00:00.000Z', '2026-05-05T11:00:00.000Z', 'claude-code', 'opus', users.cy!.userId, false],
      ['2026-05-04T10:00:00.000Z', '2026-05-04T11:00:00.000Z', 'claude-code', 'opus', people.bo, true],
      ['2026-05-03T10:00:00.000Z', '2026-05-03T11:00:00.000Z', 'cursor', 'opus', people.ann, true],
      ['2026-05-02T10:00:00.000Z', '2026-05-02T11:00:00.000Z', 'claude-code', 'opus', people.ann, true],
    ]);
    const alpha = await facts(`measure=ai_sessions.ai_sessions&${MAY}&team=alpha`);
    expect(alpha.body.data.map((r: Record<string, unknown>) => r.startedAt)).to.deep.equal(['2026-05-04T10:00:00.000Z', '2026-05-03T10:00:00.000Z', '2026-05-02T10:00:00.000Z']);
    const beta = await facts(`measure=ai_sessions.ai_sessions&${MAY}&team=${teams.beta}`);
    expect(beta.body.meta).to.include({ total: 1, team: teams.beta });
  });

  it('AI active users: one row per person (or unmatched uploader) with their sessions; seat holders with their seats', async () => {
    const usersList = await facts(`measure=ai_sessions.ai_active_users&${MAY}`);
    expect(usersList.body.meta).to.include({ total: 3, kind: 'ai_users' });
    const byId = (rows: Record<string, unknown>[]) => Object.fromEntries(rows.map((r) => [r.id, r]));
    expect(byId(usersList.body.data)).to.deep.equal({
      // By the register's name; the unmatched uploader by their e-mail, said to be outside the register.
      [people.ann!]: { id: people.ann, user: people.ann, name: 'Ann', personMatched: true, sessions: 2 },
      [people.bo!]: { id: people.bo, user: people.bo, name: 'Bo', personMatched: true, sessions: 1 },
      [users.cy!.userId]: { id: users.cy!.userId, user: users.cy!.userId, name: `cy-${tenant.tenantId.slice(0, 8)}@example.com (not in the register)`, personMatched: false, sessions: 1 },
    });
    expect(usersList.body.data[0].id).to.equal(people.ann);
    const holders = await facts(`measure=seats.ai_seat_holders&${MAY}`);
    expect(holders.body.meta).to.include({ total: 2, kind: 'seat_holders' });
    expect(holders.body.data).to.deep.equal([{ id: people.ann, name: 'Ann', seats: 2, person: people.ann }, { id: people.bo, name: 'Bo', seats: 1, person: people.bo }]);
    expect((await facts(`measure=seats.ai_seat_holders&${MAY}&team=beta`)).body.data).to.deep.equal([{ id: people.bo, name: 'Bo', seats: 1, person: people.bo }]);
  });

  it('survey counts: a team\'s month a row, counts only, adding up to the number; the score has none', async () => {
    const responses = await facts(`measure=survey_responses.responses&${MAY}`);
    expect(responses.body.meta).to.include({ total: 2, kind: 'survey_counts' });
    expect(responses.body.meta.sum).to.deep.equal({ column: 'responses', value: 3 });
    expect(responses.body.data).to.deep.equal([
      { id: `${teams.alpha}:2026-05`, team: 'Alpha', month: '2026-05', invitations: 2, responses: 2 },
      { id: `${teams.beta}:2026-05`, team: 'Beta', month: '2026-05', invitations: 1, responses: 1 },
    ]);
    // Nothing a respondent wrote, nor who: only the team, the month and the two counts.
    expect(responses.body.meta.columns.map((c: { key: string }) => c.key)).to.deep.equal(['team', 'month', 'invitations', 'responses']);
    const rate = await facts(`measure=survey_responses.survey_response_rate&${MAY}&team=alpha`);
    expect(rate.body.meta.sum).to.deep.equal({ column: 'invitations', value: 2 });
    // The experience score is the answers': it never opens (alpha's is withheld, 2 responses; none is listed either way).
    expect(await cubeValue('survey_responses.responses', 'alpha')).to.equal(2);
    for (const team of ['', '&team=alpha']) {
      const score = await facts(`measure=survey_responses.team_experience_score&${MAY}${team}`);
      expect(score.status).to.equal(400);
      expect(score.body.error.message).to.match(/^survey_responses\.team_experience_score has no drill-through\./);
    }
  });

  it("every new list counts the cube's number, organisation-wide and per team", async () => {
    const expected: Record<string, [number, number, number]> = {
      // organisation, alpha, beta
      'ai_sessions.ai_sessions': [4, 3, 1],
      'ai_sessions.ai_active_users': [3, 2, 1],
      'seats.ai_seat_holders': [2, 2, 1],
      'survey_responses.responses': [3, 2, 1],
      'survey_responses.invitations': [3, 2, 1],
    };
    for (const [measure, values] of Object.entries(expected)) {
      for (const [i, team] of [undefined, 'alpha', 'beta'].entries()) {
        const value = await cubeValue(measure, team);
        expect(value, `${measure} ${team}`).to.equal(values[i]);
        const res = await facts(`measure=${measure}&${MAY}${team ? `&team=${team}` : ''}`);
        expect(res.status, res.text).to.equal(200);
        expect(res.body.meta.sum ? res.body.meta.sum.value : res.body.meta.total, `${measure} ${team}`).to.equal(value);
      }
    }
  });

  it('the CSV holds the same rows as the JSON, for each new kind', async () => {
    for (const measure of ['ai_sessions.ai_sessions', 'ai_sessions.ai_active_users', 'seats.ai_seat_holders', 'survey_responses.responses']) {
      const json = (await facts(`measure=${measure}&${MAY}`)).body.data as Record<string, unknown>[];
      const csv = await facts(`measure=${measure}&${MAY}&format=csv`);
      expect(csv.status).to.equal(200);
      expect(csv.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
      expect(csv.headers.get('content-disposition')).to.equal(`attachment; filename="facts-${measure.replace('.', '-')}-2026-05-2026-05.csv"`);
      const [header, ...lines] = parse(csv.text) as string[][];
      expect(header, measure).to.deep.equal(Object.keys(json[0]!));
      expect(lines, measure).to.deep.equal(json.map((row) => header!.map((k) => (row[k] === null ? '' : String(row[k])))));
    }
  });

  it("tenant B never sees tenant A's sessions, seats or survey counts, by window or by A's team slug", async () => {
    const mine = await facts(`measure=ai_sessions.ai_sessions&${MAY}`, other.owner.apiKey);
    expect(mine.body.meta.total).to.equal(1);
    expect(mine.body.data[0].startedAt).to.equal('2026-05-06T10:00:00.000Z');
    for (const measure of ['ai_sessions.ai_active_users', 'seats.ai_seat_holders', 'survey_responses.responses']) {
      for (const team of ['', '&team=alpha']) {
        const res = await facts(`measure=${measure}&${MAY}${team}`, other.owner.apiKey);
        // A's team slug is no team of B's: a 404 naming it (an empty list would read as "none").
        if (team !== '') {
          expect([res.status, res.body.error.message], measure).to.deep.equal([404, 'Team not found: "alpha" is no team of this organisation (teams.slug or teams.id)']);
          continue;
        }
        expect(res.status).to.equal(200);
        expect(res.body.meta.total, measure).to.equal(measure === 'ai_sessions.ai_active_users' ? 1 : 0);
      }
    }
  });

  it('list_facts (MCP) answers the same rows and sum', async () => {
    const client = await mcp.connect(tenant.owner.apiKey);
    const answer = structured(await client.callTool({ name: 'list_facts', arguments: { measure: 'survey_responses.responses', from: '2026-05', to: '2026-05' } }));
    const rest = await facts(`measure=survey_responses.responses&${MAY}`);
    expect(answer.rows).to.deep.equal(rest.body.data);
    expect(answer).to.deep.include({ total: 2, sum: { column: 'responses', value: 3 }, kind: 'survey_counts', truncated: false });
    const sessions = structured(await client.callTool({ name: 'list_facts', arguments: { measure: 'ai_sessions.ai_sessions', from: '2026-05', to: '2026-05', team: 'alpha' } }));
    expect(sessions).to.include({ total: 3, kind: 'ai_sessions' });
    const b = structured(await (await mcp.connect(other.owner.apiKey)).callTool({ name: 'list_facts', arguments: { measure: 'seats.ai_seat_holders', from: '2026-05', to: '2026-05' } }));
    expect(b).to.include({ total: 0 });
  });

  it("the bi queries of docs/drill-through-bi.md for the AI lists give the API's lists, run as the tenant's BI role", async () => {
    const sql = [...readFileSync(new URL('../../docs/drill-through-bi.md', import.meta.url), 'utf8').matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((q) => /bi\.(ai_sessions|seats)\b/.test(q));
    expect(sql).to.have.length(2);
    const { pool } = dbFor(api.databaseUrl);
    const { credential, password } = await grantBiCredential(pool, { tenantId: tenant.tenantId, name: 'AI drill docs' });
    const client = new pg.Client({ connectionString: biUrl(api.databaseUrl, credential.user, password) });
    await client.connect();
    try {
      const sessions = await client.query(sql[0]!.replace("'payments'", "'alpha'"));
      const list = await facts(`measure=ai_sessions.ai_sessions&${MAY}&team=alpha`);
      expect(sessions.rows.map((r) => [r.id, r.tool, r.user_key, r.person_matched])).to.deep.equal(list.body.data.map((r: Record<string, unknown>) => [r.id, r.tool, r.user, r.personMatched]));
      expect(sessions.rows).to.have.length(3);
      // Without the team join, the organisation's list: Bo's session once, though he is on two teams.
      const org = await client.query(sql[0]!.replace('JOIN bi.teams t ON t.id = s.team_id', '').replace("t.slug = 'payments' AND ", ''));
      expect(org.rows.map((r) => r.id)).to.deep.equal((await facts(`measure=ai_sessions.ai_sessions&${MAY}`)).body.data.map((r: Record<string, unknown>) => r.id));
      const seats = await client.query(sql[1]!.replace("'payments'", "'alpha'"));
      expect(seats.rows.map((r) => [r.person_id, Number(r.seats)])).to.deep.equal((await facts(`measure=seats.ai_seat_holders&${MAY}&team=alpha`)).body.data.map((r: Record<string, unknown>) => [r.id, r.seats]));
      expect(seats.rows).to.have.length(2);
    } finally {
      await client.end();
      await revokeBiCredential(pool, tenant.tenantId, credential.id);
    }
  });
});
