/**
 * Slack end to end against a fake Slack on loopback: the OAuth v2 install with a sealed token,
 * every inbound request verified (good, bad, stale, missing secret), url_verification, uninstall
 * and revocation, and /delivery acknowledged at once with the figures posted to response_url.
 */
import { expect } from 'chai';
import { signSlackRequest } from '../../src/integrations/slack/verify.js';
import { buildMember, buildSessionCookie, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { seedFigures, type Seed } from './chatDocsSeed.js';
import { fakeSlack, type FakeSlack } from './fakes/slack.js';
import { installSlack, SECRET, slackEnv } from './slackHelpers.js';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('Slack (chat tool)', function () {
  this.timeout(60_000);
  let slack: FakeSlack;
  let api: TestServer;
  let a: BuiltTenant;
  let b: BuiltTenant;
  let seed: Seed;

  const post = (path: string, body: string, type: string, headers: Record<string, string> = signSlackRequest(SECRET, body)) =>
    api.post(path, body, { 'content-type': type, ...headers });
  const command = (fields: Record<string, string>) => {
    const body = form({ command: '/delivery', team_id: slack.workspace.id, user_id: 'U1', text: '', response_url: slack.responseUrl(), ...fields });
    return post('/api/integrations/slack/commands', body, 'application/x-www-form-urlencoded');
  };

  before(async () => {
    slack = await fakeSlack();
    api = await testServer({ env: slackEnv(slack) });
    a = await buildTenant(api.databaseUrl);
    b = await buildTenant(api.databaseUrl);
    seed = await seedFigures(dbFor(api.databaseUrl).pool, a.tenantId);
    slack.users.push({ id: 'U1', email: seed.alphaEmail.toUpperCase() }, { id: 'U2', email: seed.bothEmail }, { id: 'U3', email: 'stranger@example.org' }, { id: 'U4', email: seed.alphaEmail, confirmed: false });
  });
  after(async () => {
    await api?.close();
    await slack?.close();
  });

  describe('switched off or without the signing secret', () => {
    let off: TestServer;
    let noSecret: TestServer;
    before(async () => {
      off = await testServer({ databaseUrl: api.databaseUrl });
      noSecret = await testServer({ databaseUrl: api.databaseUrl, env: slackEnv(slack, { CHAT_SIGNING_SECRET: '' }) });
    });
    after(async () => {
      await off?.close();
      await noSecret?.close();
    });

    it('an unconfigured chat tool has no paths: connect, callback, commands and events are 404; the status says off', async () => {
      const cookie = await buildSessionCookie(api.databaseUrl, a.owner.userId, a.tenantId);
      for (const [method, path] of [['GET', '/api/integrations/slack/connect'], ['GET', '/api/integrations/slack/callback?code=x&state=y'], ['POST', '/api/integrations/slack/commands'], ['POST', '/api/integrations/slack/events']] as const) {
        const res = await off.request(method, path, method === 'POST' ? 'x=1' : undefined, { cookie, 'content-type': 'application/x-www-form-urlencoded' });
        expect(res.status, path).to.equal(404);
      }
      const status = await off.as(a.owner.apiKey).get('/api/integrations/slack');
      expect(status.body.data).to.include({ enabled: false, requestsAccepted: false });
    });

    it('without CHAT_SIGNING_SECRET inbound requests are refused with 503 (even correctly signed ones), and the status says so', async () => {
      const body = JSON.stringify({ type: 'url_verification', challenge: 'abc' });
      for (const path of ['/api/integrations/slack/events', '/api/integrations/slack/commands']) {
        const res = await noSecret.post(path, body, { 'content-type': 'application/json', ...signSlackRequest(SECRET, body) });
        expect(res.status).to.equal(503);
        expect(res.body).to.deep.equal({ error: { code: 'unavailable', message: 'Slack requests are refused: CHAT_SIGNING_SECRET is not set on this server' } });
      }
      expect((await noSecret.as(a.owner.apiKey).get('/api/integrations/slack')).body.data).to.include({ enabled: true, requestsAccepted: false });
    });
  });

  describe('request verification', () => {
    const body = JSON.stringify({ type: 'url_verification', challenge: 'challenge-3f9a', token: 'legacy' });

    it('answers url_verification with the challenge when the signature is good', async () => {
      const res = await post('/api/integrations/slack/events', body, 'application/json');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ challenge: 'challenge-3f9a' });
    });

    it('refuses a bad signature, a stale timestamp, missing headers and a body changed after signing with 401', async () => {
      const stale = signSlackRequest(SECRET, body, Math.floor(Date.now() / 1000) - 301);
      const cases: Record<string, string>[] = [
        signSlackRequest('another-secret', body),
        stale,
        {},
        { 'x-slack-request-timestamp': String(Math.floor(Date.now() / 1000)) },
      ];
      for (const headers of cases) {
        const res = await post('/api/integrations/slack/events', body, 'application/json', headers);
        expect(res.status).to.equal(401);
        expect(res.body).to.deep.equal({ error: { code: 'unauthorized', message: 'Invalid Slack request signature' } });
      }
      const tampered = await post('/api/integrations/slack/events', body.replace('3f9a', '0000'), 'application/json', signSlackRequest(SECRET, body));
      expect(tampered.status).to.equal(401);
      // Within the five minutes the request is still good.
      const recent = await post('/api/integrations/slack/events', body, 'application/json', signSlackRequest(SECRET, body, Math.floor(Date.now() / 1000) - 290));
      expect(recent.status).to.equal(200);
    });
  });

  describe('install', () => {
    it('only an owner starts the install; the state binds the callback to that owner and tenant', async () => {
      const member = await buildMember(api.databaseUrl, a.tenantId);
      const memberCookie = await buildSessionCookie(api.databaseUrl, member.userId, a.tenantId);
      expect((await api.get('/api/integrations/slack/connect', { cookie: memberCookie })).status).to.equal(403);
      const ownerCookie = await buildSessionCookie(api.databaseUrl, a.owner.userId, a.tenantId);
      const start = await api.get('/api/integrations/slack/connect', { cookie: ownerCookie });
      const authorize = new URL(start.headers.get('location') as string);
      expect(`${authorize.origin}${authorize.pathname}`).to.equal(slack.authorizeUrl);
      expect(Object.fromEntries(authorize.searchParams)).to.include({
        client_id: slack.clientId,
        scope: 'commands,chat:write,chat:write.public,users:read,users:read.email,channels:read',
        redirect_uri: `${api.baseUrl}/api/integrations/slack/callback`,
      });
      // Tenant B's owner cannot complete A's authorization.
      const { code } = slack.issueCode();
      const bCookie = await buildSessionCookie(api.databaseUrl, b.owner.userId, b.tenantId);
      const stolen = await api.get(`/api/integrations/slack/callback?code=${code}&state=${encodeURIComponent(authorize.searchParams.get('state') as string)}`, { cookie: bCookie });
      expect(stolen.status).to.equal(403);
      expect((await dbFor(api.databaseUrl).pool.query('select count(*)::int as n from integration_connections')).rows[0].n).to.equal(0);
    });

    it('stores the bot token sealed, one connection for the workspace; another tenant cannot take the same workspace', async () => {
      const done = await installSlack(api, api.databaseUrl, a);
      expect(done).to.deep.equal({ status: 302, location: `${api.baseUrl}/app/settings/integrations?slack=connected` });
      const { rows } = await dbFor(api.databaseUrl).pool.query(`select * from integration_connections where kind = 'slack'`);
      expect(rows).to.have.length(1);
      expect(rows[0]).to.include({ tenant_id: a.tenantId, external_id: slack.workspace.id, display_name: 'Acme Workspace', state: 'active' });
      const token = [...slack.tokens][0] as string;
      expect(JSON.stringify(rows[0])).not.to.contain(token);
      expect(JSON.stringify(rows[0])).not.to.contain('xoxb-');

      const taken = await installSlack(api, api.databaseUrl, b);
      expect(taken.status).to.equal(409);
      const status = await api.as(b.owner.apiKey).get('/api/integrations/slack');
      expect(status.body.data.connections).to.deep.equal([]);
      const mine = await api.as(a.owner.apiKey).get('/api/integrations/slack');
      expect(mine.body.data.connections.map((c: any) => [c.kind, c.externalId, c.state])).to.deep.equal([['slack', slack.workspace.id, 'active']]);
      expect(JSON.stringify(mine.body)).not.to.contain('xoxb-');
    });

    it('tenant B cannot see, configure or delete tenant A\'s connection (404)', async () => {
      const id = (await api.as(a.owner.apiKey).get('/api/integrations/slack')).body.data.connections[0].id;
      const asB = api.as(b.owner.apiKey);
      expect((await asB.get(`/api/integrations/slack/connections/${id}/channels`)).status).to.equal(404);
      expect((await asB.put(`/api/integrations/slack/connections/${id}/digests`, { teamId: seed.alpha, channel: 'C0GENERAL' })).status).to.equal(404);
      expect((await asB.delete(`/api/integrations/slack/connections/${id}`)).status).to.equal(404);
      const channels = await api.as(a.owner.apiKey).get(`/api/integrations/slack/connections/${id}/channels`);
      expect(channels.body.data).to.deep.equal([{ id: 'C0GENERAL', name: 'general' }, { id: 'C0DELIVERY', name: 'delivery' }]);
    });
  });

  describe('/delivery', () => {
    it('acknowledges within three seconds, then posts the team\'s figures with n beside medians and a link to the team page', async () => {
      const before = slack.responses.length;
      const started = Date.now();
      const ack = await command({ user_id: 'U1', text: 'alpha 2025-03' });
      const ackMs = Date.now() - started;
      expect(ack.status).to.equal(200);
      expect(ack.body).to.deep.equal({ response_type: 'ephemeral', text: 'Looking up the figures for “alpha 2025-03”…' });
      expect(ackMs).to.be.below(3000);
      await slack.waitForResponses(before + 1);
      const answer = slack.responses[before]!;
      console.log(`      /delivery: acknowledged in ${ackMs} ms, answer posted ${answer.at - started} ms after the command`);
      expect(answer.body).to.deep.equal({
        response_type: 'ephemeral',
        replace_original: true,
        text: [
          '*Team alpha* — 2025-03',
          '*DORA*',
          '• Production deployments: 2',
          '• Lead time for changes p50: 3.0 d (n = 3)',
          '• Change failure rate: 33% (n = 3)',
          '• Time to restore p50: no value (n = 0)',
          '*Flow*',
          '• PRs merged: 3',
          '• PR cycle time p50: 2.0 h (n = 3)',
          '• Issues closed: 0',
          '• Issue lead time p50: no value (n = 0)',
          `<${api.baseUrl}/app/teams/${seed.alpha}|Open the team page>`,
        ].join('\n'),
      });
    });

    it('without a team: the person\'s only team; with several teams the person is asked to name one', async () => {
      const before = slack.responses.length;
      await command({ user_id: 'U1', text: '2025-02' });
      await command({ user_id: 'U2', text: '' });
      await slack.waitForResponses(before + 2);
      const texts = slack.responses.slice(before).map((r) => r.body.text as string);
      expect(texts.find((t) => t.startsWith('*Team alpha* — 2025-02'))).to.contain('• PRs merged: 1\n• PR cycle time p50: 1.0 h (n = 1)');
      expect(texts).to.include('You belong to several teams (`alpha`, `beta`); name one: `/delivery <team> [YYYY-MM]`.');
    });

    it('refuses politely a user without a matching verified e-mail', async () => {
      const before = slack.responses.length;
      await command({ user_id: 'U3', text: 'alpha' });
      await command({ user_id: 'U4', text: 'alpha' });
      await slack.waitForResponses(before + 2);
      for (const r of slack.responses.slice(before)) {
        expect(r.body.text).to.equal('Sorry, I could not match your Slack account to a person of this organisation by a verified e-mail address, so I cannot show its figures. Ask an owner to add your work e-mail to the register.');
      }
    });

    it('reads only the installing tenant: a team of another tenant is unknown; an unknown workspace gets a notice and no job', async () => {
      const other = await seedFigures(dbFor(api.databaseUrl).pool, b.tenantId);
      await dbFor(api.databaseUrl).pool.query(`update teams set slug = 'only-in-b' where id = $1`, [other.beta]);
      const before = slack.responses.length;
      await command({ user_id: 'U1', text: 'only-in-b 2025-03' });
      await slack.waitForResponses(before + 1);
      expect(slack.responses[before]!.body.text).to.equal('No team “only-in-b” here. Usage: `/delivery [team] [YYYY-MM]`, the team by its slug or name.');
      const unknown = await command({ team_id: 'TNOTHERE', user_id: 'U1', text: 'alpha' });
      expect(unknown.body.text).to.equal('This Slack workspace is not connected to Delivery Analytics. An owner connects it under Settings › Integrations.');
    });
  });

  describe('survey by direct message', () => {
    it('sends each member the same personal signed link by Slack DM; the link opens the survey; no chat workspace, no chat sending', async () => {
      const closesOn = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
      const before = slack.messages.length;
      const created = await api.as(a.owner.apiKey).post('/api/surveys', { title: 'Spring pulse', teams: ['alpha'], closesOn, sendBy: 'chat' });
      expect(created.status).to.equal(201);
      await slack.waitForMessages(before + 2);
      const dms = slack.messages.slice(before).sort((x, y) => x.channel.localeCompare(y.channel));
      expect(dms.map((m) => m.channel)).to.deep.equal(['U1', 'U2']);
      const links = dms.map((m) => /<(http[^|]+)\|Open the survey>/.exec(m.text)?.[1] as string);
      expect(new Set(links).size).to.equal(2);
      for (const [i, m] of dms.entries()) {
        expect(m.text).to.equal(`*Survey: Spring pulse*\n5 short questions about how your team delivers software; answers are anonymous.\n<${links[i]}|Open the survey> (until ${closesOn}). The link is yours alone: please do not forward it.`);
        expect(links[i]!.startsWith(`${api.baseUrl}/s/`)).to.equal(true);
        const page = await fetch(links[i]!);
        expect(page.status).to.equal(200);
        expect(await page.text()).to.contain('Spring pulse');
      }
      const sent = await dbFor(api.databaseUrl).pool.query(`select count(*)::int as n from survey_invitations where survey_id = $1 and chat_sent_at is not null and emailed_at is null`, [created.body.data.id]);
      expect(sent.rows[0].n).to.equal(2);
      const refused = await api.as(b.owner.apiKey).post('/api/surveys', { title: 'x', teams: ['alpha'], closesOn, sendBy: 'chat' });
      expect(refused.status).to.equal(400);
    });
  });

  describe('uninstall', () => {
    it('tokens_revoked for user tokens only changes nothing; app_uninstalled removes the connection and its token', async () => {
      const event = (type: string, extra: Record<string, unknown> = {}) => JSON.stringify({ type: 'event_callback', team_id: slack.workspace.id, event: { type, ...extra } });
      const userOnly = await post('/api/integrations/slack/events', event('tokens_revoked', { tokens: { oauth: ['U1'] } }), 'application/json');
      expect(userOnly.body).to.deep.equal({ ok: true, handled: 'ignored' });
      const gone = await post('/api/integrations/slack/events', event('app_uninstalled'), 'application/json');
      expect(gone.body).to.deep.equal({ ok: true, handled: 'removed' });
      expect((await dbFor(api.databaseUrl).pool.query(`select count(*)::int as n from integration_connections where kind = 'slack'`)).rows[0].n).to.equal(0);
      const again = await post('/api/integrations/slack/events', event('tokens_revoked', { tokens: { bot: ['UBOT'] } }), 'application/json');
      expect(again.body).to.deep.equal({ ok: true, handled: 'unknown workspace' });
      // Reinstalled, then revoked: removed again.
      expect((await installSlack(api, api.databaseUrl, a)).status).to.equal(302);
      const revoked = await post('/api/integrations/slack/events', event('tokens_revoked', { tokens: { bot: ['UBOT'] } }), 'application/json');
      expect(revoked.body).to.deep.equal({ ok: true, handled: 'removed' });
    });
  });
});
