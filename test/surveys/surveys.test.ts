import { expect } from 'chai';
import { eq, sql } from 'drizzle-orm';
import { surveyInvitations, surveyResponses, surveys } from '../../src/db/schema/index.js';
import { linkExpiry, signSurveyToken, surveyLinkKey, verifySurveyToken } from '../../src/surveys/links.js';
import { closeDueSurveys, emailInvitations } from '../../src/surveys/service.js';
import { buildMember, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { fakePostmark } from '../helpers/fakePostmark.js';
import { apiError, expectRefusal, expectRefusalPage } from '../helpers/refusals.js';
import { answer, buildTeam, linksOf, openForm } from './helpers.js';
import { serverWithTwoTenants } from '../helpers/suites.js';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe('survey access links', () => {
  const key = surveyLinkKey('postgresql://u:p@h:5432/one');
  const id = '3f1f0c8e-9b1a-4c59-9d0e-0a5c4c8a1b2c';

  it('verifies a signed token and names the invitation', () => {
    const token = signSurveyToken(key, id, new Date(Date.now() + 60_000));
    const check = verifySurveyToken(key, token);
    expect(check.ok).to.equal(true);
    expect(check.ok && check.invitationId).to.equal(id);
  });

  it('refuses a tampered payload or signature', () => {
    const token = signSurveyToken(key, id, new Date(Date.now() + 60_000));
    const [payload, mac] = token.split('.');
    const otherPayload = Buffer.from(`${id.replace('3f', '4f')}.${Math.floor(Date.now() / 1000) + 60}`).toString('base64url');
    expect(verifySurveyToken(key, `${otherPayload}.${mac}`)).to.deep.equal({ ok: false, reason: 'invalid' });
    // The first character of the MAC carries six of its bits: changing it always changes the MAC.
    expect(verifySurveyToken(key, `${payload}.${mac![0] === 'A' ? 'B' : 'A'}${mac!.slice(1)}`)).to.deep.equal({ ok: false, reason: 'invalid' });
    expect(verifySurveyToken(key, 'garbage')).to.deep.equal({ ok: false, reason: 'invalid' });
  });

  it('refuses an expired token', () => {
    const token = signSurveyToken(key, id, new Date(Date.now() - 1000));
    expect(verifySurveyToken(key, token)).to.deep.equal({ ok: false, reason: 'expired' });
  });

  it('a change of DATABASE_URL invalidates every link', () => {
    const token = signSurveyToken(key, id, new Date(Date.now() + 60_000));
    expect(verifySurveyToken(surveyLinkKey('postgresql://u:p@h:5432/two'), token)).to.deep.equal({ ok: false, reason: 'invalid' });
  });

  it('expires at the end of the close day, UTC', () => {
    expect(linkExpiry('2026-03-31').toISOString()).to.equal('2026-04-01T00:00:00.000Z');
  });
});

describe('surveys', () => {
  let api: TestServer, a: BuiltTenant, b: BuiltTenant;
  let alpha: { id: string; slug: string; personIds: string[] };
  let beta: { id: string; slug: string; personIds: string[] };
  before(async () => {
    ({ api, a, b } = await serverWithTwoTenants());
    alpha = await buildTeam(api.databaseUrl, a.tenantId, 'alpha', 4);
    beta = await buildTeam(api.databaseUrl, a.tenantId, 'beta', 2);
  });
  after(() => api.close());

  const create = (key: string, body: Record<string, unknown>) => api.as(key).post('/api/surveys', body);

  it('an owner creates a survey: one invitation per current member of its teams', async () => {
    const res = await create(a.owner.apiKey, { title: 'Q1 pulse', teams: ['alpha', beta.id], opensOn: day(0), closesOn: day(10) });
    expect(res.status).to.equal(201);
    expect(res.body.data).to.include({ title: 'Q1 pulse', opensOn: day(0), closesOn: day(10), status: 'open', closedAt: null });
    expect(res.body.data.counts).to.deep.equal({ invitations: 6, responses: 0 });
    expect(res.body.data.teams).to.deep.equal([
      { id: alpha.id, slug: 'alpha', name: 'Team alpha', invitations: 4, responses: 0 },
      { id: beta.id, slug: 'beta', name: 'Team beta', invitations: 2, responses: 0 },
    ]);
  });

  it('refuses members, unknown or disabled teams, and bad windows', async () => {
    const member = await buildMember(api.databaseUrl, a.tenantId);
    expectRefusal(await create(member.apiKey, { title: 't', teams: ['alpha'], closesOn: day(5) }), 403, apiError('forbidden', 'Only an owner of the tenant can do this'));
    await buildTeam(api.databaseUrl, a.tenantId, 'off', 1, false);
    const bad = await create(a.owner.apiKey, { title: 't', teams: ['alpha', 'nope', 'off'], closesOn: day(5) });
    expect(bad.status).to.equal(400);
    expect(bad.body.error.details).to.deep.equal([
      { path: 'teams', message: 'Unknown team: nope' },
      { path: 'teams', message: 'Team is disabled: off' },
    ]);
    const reversed = await create(a.owner.apiKey, { title: 't', teams: ['alpha'], opensOn: day(5), closesOn: day(4) });
    expect(reversed.body.error.details).to.deep.equal([{ path: 'closesOn', message: 'Must not be before opensOn' }]);
    const malformed = await create(a.owner.apiKey, { title: '', teams: [], closesOn: '2026-13-01' });
    expect(malformed.body.error.details.map((d: any) => d.path)).to.deep.equal(['title', 'teams', 'closesOn']);
  });

  it('the form works without JavaScript, and one response per invitation is kept (a resubmission updates it)', async () => {
    const created = await create(a.owner.apiKey, { title: 'Form test', teams: ['beta'], closesOn: day(3) });
    const [link] = await linksOf(api, a.owner.apiKey, created.body.data.id);
    const path = new URL(link!).pathname;
    const { res, cookie, csrf } = await openForm(api, path);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(res.text).not.to.include('<script');
    expect(res.text).to.include('<legend>1. I can get my work from idea to production without unnecessary waiting.</legend>');
    expect(res.text.match(/type="radio"/g)).to.have.length(25);
    expect(cookie).to.match(/^csrfToken=/);
    expect(csrf).to.have.length(43);

    const first = await answer(api, link!, [5, 4, 3, 2, 1], 'fine');
    expect(first.status).to.equal(200);
    expect(first.text).to.include('were recorded');
    const second = await answer(api, link!, [1, 1, 1, 1, 1]);
    expect(second.text).to.include('were updated');
    const rows = await dbFor(api.databaseUrl).db.select().from(surveyResponses).where(eq(surveyResponses.surveyId, created.body.data.id));
    expect(rows).to.have.length(1);
    expect(rows[0]).to.deep.include({ teamId: beta.id, q1: 1, q5: 1, comment: null });
    // The stored row carries no reference to the invitation or the person.
    expect(Object.keys(rows[0]!).sort()).to.deep.equal(['comment', 'id', 'q1', 'q2', 'q3', 'q4', 'q5', 'responseKey', 'surveyId', 'teamId', 'tenantId']);
    // Reopening shows the person their own answers.
    expect((await api.get(path)).text).to.include('name="q1" value="1" required checked');
  });

  it('a hostile survey title and team name are text on the form and the thank-you page, never markup', async () => {
    const hostile = '<script>alert(1)</script>"><img src=x onerror=alert(1)>';
    const escaped = '&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(1)&gt;';
    const t = await buildTenant(api.databaseUrl);
    const team = await buildTeam(api.databaseUrl, t.tenantId, 'hostile', 1);
    await dbFor(api.databaseUrl).pool.query('update teams set name = $1 where id = $2', [hostile, team.id]);
    const created = await create(t.owner.apiKey, { title: hostile, teams: [team.slug], closesOn: day(3) });
    expect(created.status, created.text).to.equal(201);
    const [link] = await linksOf(api, t.owner.apiKey, created.body.data.id);
    const { res } = await openForm(api, new URL(link!).pathname);
    expect(res.status).to.equal(200);
    expect(res.text).to.include(`<title>${escaped}</title>`);
    expect(res.text).to.include(`<h1>${escaped}</h1>\n<p>Team: ${escaped}. Your answers are anonymous`);
    expect(res.text).not.to.match(/<script|<img/);
    const thanks = await answer(api, link!, [3, 3, 3, 3, 3]);
    expect(thanks.status).to.equal(200);
    expect(thanks.text).to.include(`<p>Your answers to “${escaped}” were recorded.`);
    expect(thanks.text).not.to.match(/<script|<img/);
  });

  it('rejects an incomplete form with the reasons, writing nothing', async () => {
    const created = await create(a.owner.apiKey, { title: 'Incomplete', teams: ['beta'], closesOn: day(3) });
    const [link] = await linksOf(api, a.owner.apiKey, created.body.data.id);
    const path = new URL(link!).pathname;
    const { cookie, csrf } = await openForm(api, path);
    const res = await api.with({ cookie }).post(path, new URLSearchParams({ csrf, q1: '3', q2: '9' }).toString(), { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).to.equal(400);
    expect(res.text).to.include('Statement 2: choose one answer from 1 to 5.');
    expect(res.text).to.include('name="q1" value="3" required checked');
    const rows = await dbFor(api.databaseUrl).db.select().from(surveyResponses).where(eq(surveyResponses.surveyId, created.body.data.id));
    expect(rows).to.have.length(0);
  });

  it('CSRF: a post without the token, with a wrong one, or from another origin is refused and writes nothing', async () => {
    const created = await create(a.owner.apiKey, { title: 'CSRF', teams: ['beta'], closesOn: day(3) });
    const [link] = await linksOf(api, a.owner.apiKey, created.body.data.id);
    const path = new URL(link!).pathname;
    const { cookie, csrf } = await openForm(api, path);
    const answers = { q1: '3', q2: '3', q3: '3', q4: '3', q5: '3' };
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const noToken = await api.with({ cookie }).post(path, new URLSearchParams(answers).toString(), form);
    expect(noToken.status).to.equal(403);
    expect(noToken.text).to.include('This form has expired or was sent from another site.');
    const wrong = await api.with({ cookie }).post(path, new URLSearchParams({ ...answers, csrf: 'x'.repeat(43) }).toString(), form);
    expectRefusalPage(wrong, 403, 'Form expired', 'This form has expired or was sent from another site.');
    const noCookie = await api.post(path, new URLSearchParams({ ...answers, csrf }).toString(), form);
    expectRefusalPage(noCookie, 403, 'Form expired', 'This form has expired or was sent from another site.');
    const crossSite = await api.with({ cookie, origin: 'https://evil.example' }).post(path, new URLSearchParams({ ...answers, csrf }).toString(), form);
    expectRefusalPage(crossSite, 403, 'Form expired', 'This form has expired or was sent from another site.');
    const rows = await dbFor(api.databaseUrl).db.select().from(surveyResponses).where(eq(surveyResponses.surveyId, created.body.data.id));
    expect(rows).to.have.length(0);
  });

  it('a tampered link is 404, an expired one 410, a closed survey 410, a future one 403 — each a clear page', async () => {
    const created = await create(a.owner.apiKey, { title: 'States', teams: ['beta'], closesOn: day(3) });
    const [link] = await linksOf(api, a.owner.apiKey, created.body.data.id);
    const path = new URL(link!).pathname;
    const tampered = await api.get(`${path.slice(0, -3)}abc`);
    expect(tampered.status).to.equal(404);
    expect(tampered.text).to.include('This survey link is not valid.');

    const [invitation] = await dbFor(api.databaseUrl).db.select().from(surveyInvitations).where(eq(surveyInvitations.surveyId, created.body.data.id));
    const key = surveyLinkKey(api.databaseUrl);
    const expired = await api.get(`/s/${signSurveyToken(key, invitation!.id, new Date(Date.now() - 1000))}`);
    expect(expired.status).to.equal(410);
    expect(expired.text).to.include('This survey link has expired');

    const closed = await api.as(a.owner.apiKey).post(`/api/surveys/${created.body.data.id}/close`);
    expect(closed.status).to.equal(200);
    expect(closed.body.data.status).to.equal('closed');
    const afterClose = await api.get(path);
    expect(afterClose.status).to.equal(410);
    expect(afterClose.text).to.include('This survey is closed');
    expectRefusalPage(await answer(api, link!, [3, 3, 3, 3, 3]), 410, 'Survey closed', 'This survey is closed and no longer accepts answers.');

    const future = await create(a.owner.apiKey, { title: 'Later', teams: ['beta'], opensOn: day(2), closesOn: day(4) });
    const [futureLink] = await linksOf(api, a.owner.apiKey, future.body.data.id);
    const notOpen = await api.get(new URL(futureLink!).pathname);
    expect(notOpen.status).to.equal(403);
    expect(notOpen.text).to.include(`It opens on ${day(2)}.`);
  });

  it('anonymity: no API returns a respondent or an answer', async () => {
    const created = await create(a.owner.apiKey, { title: 'Anon', teams: ['alpha'], closesOn: day(3) });
    const links = await linksOf(api, a.owner.apiKey, created.body.data.id);
    await answer(api, links[0]!, [4, 4, 4, 4, 4], 'secret remark');
    const detail = await api.as(a.owner.apiKey).get(`/api/surveys/${created.body.data.id}`);
    const list = await api.as(a.owner.apiKey).get('/api/surveys?perPage=100');
    for (const text of [detail.text, list.text]) {
      for (const personId of alpha.personIds) expect(text).not.to.include(personId);
      expect(text).not.to.include('@example.com');
      expect(text).not.to.include('secret remark');
      expect(text).not.to.match(/"q[1-5]"/);
    }
    expect(detail.body.data.counts).to.deep.equal({ invitations: 4, responses: 1 });
  });

  it('fewer than 3 responses in a month: rate only, no score; from 3 on, the score on 0–100', async () => {
    const team = await buildTeam(api.databaseUrl, a.tenantId, 'gamma', 5);
    const created = await create(a.owner.apiKey, { title: 'Score', teams: ['gamma'], closesOn: day(1) });
    const links = await linksOf(api, a.owner.apiKey, created.body.data.id);
    const month = `${new Date().toISOString().slice(0, 7)}-01`;
    const read = async () => {
      const { rows } = await dbFor(api.databaseUrl).db.execute<any>(sql`select * from survey_team_months where team_id = ${team.id} and month = ${month}::date`);
      return rows[0];
    };
    await answer(api, links[0]!, [5, 5, 5, 5, 5]);
    await answer(api, links[1]!, [1, 1, 1, 1, 1]);
    let row = await read();
    expect(row).to.include({ invitations: 5, responses: 2 });
    expect(Number(row.response_rate)).to.equal(0.4);
    expect(row.experience_score).to.equal(null);
    await answer(api, links[2]!, [4, 4, 3, 3, 2]);
    row = await read();
    expect(row.responses).to.equal(3);
    // Answers mapped to 0–100 ((a − 1) × 25): 100 × 5, 0 × 5, then 75, 75, 50, 50, 25 → 775 over 15 answers.
    expect(Number(row.experience_score)).to.be.closeTo(775 / 15, 1e-9);
  });

  it('survey_results cube: each survey per invited team, the score only from 3 responses, other tenants see nothing', async () => {
    await buildTeam(api.databaseUrl, a.tenantId, 'delta', 3);
    await buildTeam(api.databaseUrl, a.tenantId, 'epsilon', 2);
    const created = await create(a.owner.apiKey, { title: 'Results', teams: ['delta', 'epsilon'], closesOn: day(2) });
    const id = created.body.data.id;
    const links = await linksOf(api, a.owner.apiKey, id);
    for (const link of links) await answer(api, link, [3, 3, 3, 3, 4]);
    const query = {
      measures: ['survey_results.survey_invitations', 'survey_results.survey_responses', 'survey_results.survey_answer_rate', 'survey_results.survey_experience_score'],
      dimensions: ['teams.slug'],
      filters: [{ member: 'survey_results.survey_id', operator: 'equals', values: [id] }],
      order: { 'teams.slug': 'asc' },
    };
    const load = (key: string) => api.as(key).get(`/cubejs-api/v1/load?query=${encodeURIComponent(JSON.stringify(query))}`);
    const res = await load(a.owner.apiKey);
    expect(res.status).to.equal(200);
    // Cube sends numbers as strings; compare them as numbers.
    const asNumber = (v: unknown) => (v === null ? null : Number(v));
    const rows = res.body.data.map((r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'teams.slug' ? v : asNumber(v)])));
    // Answers 3,3,3,3,4 → (50 × 4 + 75) / 5 = 55 for every respondent of delta; epsilon has 2 responses: no score.
    expect(rows).to.deep.equal([
      { 'teams.slug': 'delta', 'survey_results.survey_invitations': 3, 'survey_results.survey_responses': 3, 'survey_results.survey_answer_rate': 1, 'survey_results.survey_experience_score': 55 },
      { 'teams.slug': 'epsilon', 'survey_results.survey_invitations': 2, 'survey_results.survey_responses': 2, 'survey_results.survey_answer_rate': 1, 'survey_results.survey_experience_score': null },
    ]);
    expect((await load(b.owner.apiKey)).body.data).to.deep.equal([]);
  });

  it('tenant separation: another tenant sees none of it', async () => {
    const created = await create(a.owner.apiKey, { title: 'Private', teams: ['alpha'], closesOn: day(3) });
    const id = created.body.data.id;
    expectRefusal(await api.as(b.owner.apiKey).get(`/api/surveys/${id}`), 404, apiError('not_found', 'Survey not found'));
    expectRefusal(await api.as(b.owner.apiKey).post(`/api/surveys/${id}/close`), 404, apiError('not_found', 'Survey not found'));
    expectRefusal(await api.as(b.owner.apiKey).get(`/api/surveys/${id}/links`), 404, apiError('not_found', 'Survey not found'));
    expect((await api.as(b.owner.apiKey).get('/api/surveys')).body.meta.total).to.equal(0);
    expect((await create(b.owner.apiKey, { title: 'x', teams: ['alpha'], closesOn: day(3) })).body.error.details).to.deep.equal([{ path: 'teams', message: 'Unknown team: alpha' }]);
    const [survey] = await dbFor(api.databaseUrl).db.select().from(surveys).where(eq(surveys.id, id));
    expect(survey!.status).to.equal('open');
  });

  it('closes surveys whose close day has passed (the schedule)', async () => {
    const created = await create(a.owner.apiKey, { title: 'Due', teams: ['beta'], closesOn: day(0) });
    expect(await closeDueSurveys(dbFor(api.databaseUrl).db, new Date(Date.now() + 86_400_000))).to.be.greaterThan(0);
    const [survey] = await dbFor(api.databaseUrl).db.select().from(surveys).where(eq(surveys.id, created.body.data.id));
    expect(survey!.status).to.equal('closed');
  });
});

describe('survey invitations by e-mail', () => {
  it('are sent through the mailer when one is configured, each with its own link', async () => {
    const mail = await fakePostmark();
    const api = await testServer({ env: { MAILER_API_KEY: mail.token, MAILER_API_URL: mail.url, LOG_LEVEL: 'error', JOBS_POLL_INTERVAL_MS: '100' } });
    try {
      const t = await buildTenant(api.databaseUrl);
      await buildTeam(api.databaseUrl, t.tenantId, 'mailed', 2);
      const created = await api.as(t.owner.apiKey).post('/api/surveys', { title: 'Mailed', teams: ['mailed'], closesOn: day(2) });
      expect(created.status).to.equal(201);
      // Sent by the surveys.send-invitations job, after the answer.
      await Promise.all(['mailed-0@example.com', 'mailed-1@example.com'].map((to) => mail.waitFor(to, 20_000)));
      expect(mail.messages.map((m) => m.To).sort()).to.deep.equal(['mailed-0@example.com', 'mailed-1@example.com']);
      const link = /(http:\/\/\S+\/s\/\S+)/.exec(mail.messages[0]!.TextBody)![1]!;
      expect((await api.get(new URL(link).pathname)).status).to.equal(200);
      let sent: unknown[] = [];
      for (let waited = 0; sent.length < 2 && waited < 5000; waited += 100) {
        sent = await dbFor(api.databaseUrl).db.select().from(surveyInvitations).where(sql`${surveyInvitations.emailedAt} is not null`);
        if (sent.length < 2) await new Promise((r) => setTimeout(r, 100));
      }
      expect(sent).to.have.length(2);
    } finally {
      await api.close();
      await mail.close();
    }
  });

  it('a failed message fails the sending (so the job retries) and leaves that invitation unsent', async () => {
    const mail = await fakePostmark();
    const api = await testServer({ env: { MAILER_API_KEY: mail.token, MAILER_API_URL: mail.url, LOG_LEVEL: 'silent', JOBS_WORKER_ENABLED: 'false' } });
    try {
      const t = await buildTenant(api.databaseUrl);
      await buildTeam(api.databaseUrl, t.tenantId, 'flaky', 2);
      const created = await api.as(t.owner.apiKey).post('/api/surveys', { title: 'Flaky', teams: ['flaky'], closesOn: day(2) });
      const { db } = dbFor(api.databaseUrl);
      const [survey] = await db.select().from(surveys).where(eq(surveys.id, created.body.data.id));
      const deps = { db, config: api.running.app.config, log: api.running.app.log };
      mail.failWith = { status: 500, errorCode: 500 };
      let error: Error | null = null;
      await emailInvitations(deps, survey!).catch((e: Error) => (error = e));
      expect(error!.message).to.equal('2 of 2 survey invitations not sent (0 sent)');
      mail.failWith = null;
      expect(await emailInvitations(deps, survey!)).to.equal(2);
      expect(await emailInvitations(deps, survey!)).to.equal(0);
    } finally {
      await api.close();
      await mail.close();
    }
  });
});

