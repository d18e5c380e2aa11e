/**
 * `GET /api/sessions?team=`: the sessions of a team's members, as the ai_sessions cube counts them
 * for it (issue 46 point 5: the AI sessions page follows the team picker), with the window's
 * `from`/`to`; an unknown team, or another tenant's, is named in a 404, never an empty list.
 */
import { expect } from 'chai';
import { buildMember, type BuiltTenant, type BuiltUser } from '../helpers/factories.js';
import { serverWithTwoTenants } from '../helpers/suites.js';
import type { TestServer } from '../helpers/server.js';

const HEADER = 'external_ref,email,display_name,employment_type,supplier_name,cost_centre_code,location_country,team_slug,team_name,team_external_ref,team_cost_centre_code,org_unit_slug';

describe('AI sessions filtered by team', function () {
  let api: TestServer;
  let a: BuiltTenant;
  let b: BuiltTenant;
  let ann: BuiltUser;
  let bo: BuiltUser;
  const teamIds: Record<string, string> = {};
  let bTeam: string;
  const ids: Record<string, string> = {};

  const register = async (tenant: BuiltTenant, rows: string[]) => {
    const imported = await api.as(tenant.owner.apiKey).post('/api/register/imports', [HEADER, ...rows].join('\n') + '\n', { 'content-type': 'text/csv' });
    expect(imported.status).to.equal(201);
    const listed = (await api.as(tenant.owner.apiKey).get('/api/teams?perPage=100')).body.data as { slug: string; id: string }[];
    return Object.fromEntries(listed.map((t) => [t.slug, t.id]));
  };
  const upload = async (user: BuiltUser, startedAt: string) => {
    const res = await api.as(user.apiKey).post('/api/sessions', { tool: 'claude-code', startedAt });
    expect(res.status).to.equal(201);
    return res.body.data.id as string;
  };
  const listed = async (query: string, key = a.owner.apiKey) => {
    const res = await api.as(key).get(`/api/sessions?${query}`);
    expect(res.status, res.text).to.equal(200);
    return { ids: (res.body.data as { id: string }[]).map((s) => s.id), total: res.body.meta.total as number };
  };

  before(async () => {
    ({ api, a, b } = await serverWithTwoTenants({}, { a: 'Sessions Team A', b: 'Sessions Team B' }));
    ann = await buildMember(api.databaseUrl, a.tenantId);
    bo = await buildMember(api.databaseUrl, a.tenantId);
    Object.assign(teamIds, await register(a, [
      `ann,${ann.email},Ann,employee,,CC-1,NL,alpha,Alpha,,,eng`,
      `bo,${bo.email},Bo,employee,,CC-2,NL,beta,Beta,,,eng`,
    ]));
    bTeam = (await register(b, [`zed,zed@example.com,Zed,employee,,CC-9,NL,alpha,Alpha B,,,eng`])).alpha as string;
    ids.annMarch = await upload(ann, '2026-03-10T09:00:00Z');
    ids.annMay = await upload(ann, '2026-05-02T09:00:00Z');
    ids.boMarch = await upload(bo, '2026-03-11T09:00:00Z');
    // The owner is on no team: the organisation's list has the session, no team's does.
    ids.ownerMarch = await upload(a.owner, '2026-03-12T09:00:00Z');
  });
  after(async () => {
    await api?.close();
  });

  it('lists the sessions of the team\'s members, by id or slug, within from/to', async () => {
    expect(await listed(`team=${teamIds.alpha}`)).to.deep.equal({ ids: [ids.annMay, ids.annMarch], total: 2 });
    expect(await listed(`team=${teamIds.alpha!.toUpperCase()}`)).to.deep.equal({ ids: [ids.annMay, ids.annMarch], total: 2 });
    expect(await listed('team=beta')).to.deep.equal({ ids: [ids.boMarch], total: 1 });
    // The web app's window: from its first day, to the day after its last (exclusive).
    expect(await listed(`team=${teamIds.alpha}&from=2026-03-01&to=2026-04-01`)).to.deep.equal({ ids: [ids.annMarch], total: 1 });
    expect(await listed('from=2026-03-01&to=2026-04-01')).to.deep.equal({ ids: [ids.ownerMarch, ids.boMarch, ids.annMarch], total: 3 });
  });

  it('keeps to the sessions the ai_sessions cube counts for the team in the same window', async () => {
    const res = await api.as(a.owner.apiKey).post('/cubejs-api/v1/load', {
      query: { measures: ['ai_sessions.ai_sessions'], dimensions: ['teams.slug'], timeDimensions: [{ dimension: 'ai_sessions.started_at', dateRange: ['2026-03-01', '2026-05-31'] }], order: { 'teams.slug': 'asc' } },
    });
    expect(res.status, res.text).to.equal(200);
    const counted = Object.fromEntries((res.body.data as Record<string, unknown>[]).map((r) => [String(r['teams.slug']), Number(r['ai_sessions.ai_sessions'])]));
    expect({ alpha: counted.alpha, beta: counted.beta }).to.deep.equal({
      alpha: (await listed(`team=${teamIds.alpha}&from=2026-03-01&to=2026-06-01`)).total,
      beta: (await listed(`team=${teamIds.beta}&from=2026-03-01&to=2026-06-01`)).total,
    });
  });

  it('names an unknown team, or another tenant\'s, in a 404 rather than answering an empty list', async () => {
    const refused = async (team: string) => {
      const res = await api.as(a.owner.apiKey).get(`/api/sessions?team=${team}`);
      return { status: res.status, code: res.body.error?.code, message: res.body.error?.message, details: res.body.error?.details };
    };
    const notFound = (team: string) => ({ status: 404, code: 'not_found', message: `Team not found: "${team}" is no team of this organisation (teams.slug or teams.id)`, details: [{ path: 'query.team', message: 'No such team' }] });
    expect(await refused(bTeam)).to.deep.equal(notFound(bTeam));
    expect(await refused('gamma')).to.deep.equal(notFound('gamma'));
    // Tenant B's own team lists none of tenant A's sessions.
    expect(await listed(`team=${bTeam}`, b.owner.apiKey)).to.deep.equal({ ids: [], total: 0 });
  });
});
