/**
 * Model choice: AI_MODELS tried in order against fake OpenAI, Anthropic and Google servers (next
 * model on 429, 5xx, timeout, bad JSON; not on 400), every attempt stored; the organisation's own
 * provider and key (Settings › AI) win over the environment's.
 */
import { expect } from 'chai';
import { buildMember, buildTenant, type BuiltTenant } from '../helpers/factories.js';
import { capturedLog } from '../helpers/server.js';
import type { FakeRequest, Reply } from './fakes/server.js';
import { aiServerSuite, GOOD_ASSESSMENT, isAssessment, SECRET_LINE, sessionBody, until } from './helpers.js';

describe('AI model choice and fallback', function () {
  this.timeout(60_000);
  const log = capturedLog('info');
  const suite = aiServerSuite(() => (r) => (isAssessment(r) ? { text: JSON.stringify(GOOD_ASSESSMENT) } : { text: `summary by ${r.body.model ?? 'gemini'}` }), { logger: log.logger, env: { AI_TIMEOUT_SECONDS: '3' } });

  /** Uploads a session and waits until both reviews are stored (or only the one named). */
  async function review(tenant: BuiltTenant, wait: 'both' | 'assessment' = 'both') {
    const created = await suite.api.as(tenant.owner.apiKey).post('/api/sessions', sessionBody());
    expect(created.status).to.equal(201);
    const id = created.body.data.id as string;
    const session = await until('the reviews', async () => {
      const res = await suite.api.as(tenant.owner.apiKey).get(`/api/sessions/${id}`);
      return res.body.data.assessment && (wait === 'assessment' || res.body.data.summary) ? res.body.data : null;
    });
    const calls = await suite.pool.query(`select feature, provider, model, outcome, status, input_tokens, output_tokens from ai_calls where tenant_id = $1 order by created_at, feature`, [tenant.tenantId]);
    return { id, session, calls: calls.rows };
  }

  const summaryCalls = (calls: { feature: string }[]) => calls.filter((c) => c.feature === 'summary').map((c: any) => `${c.provider}:${c.model}:${c.outcome}${c.status ? `:${c.status}` : ''}`);
  const scripted = (reply: Reply) => (r: FakeRequest): Reply => (isAssessment(r) ? { text: JSON.stringify(GOOD_ASSESSMENT) } : reply);

  it('stores the first model\'s summary and the rubric score, with the attempt logged without prompt text', async () => {
    const tenant = await buildTenant(suite.api.databaseUrl);
    const { session, calls } = await review(tenant);
    expect(session.summary).to.include({ text: 'summary by gpt-a', model: 'gpt-a' });
    expect(session.summary.createdAt).to.match(/^\d{4}-\d\d-\d\dT/);
    expect(session.assessment).to.deep.include({ score: 100, taskCompleted: true, testsRun: true, reworkNeeded: false, riskyActions: false, rationale: 'Tests pass.', model: 'gpt-a' });
    expect(summaryCalls(calls)).to.deep.equal(['openai:gpt-a:ok']);
    expect(calls.find((c) => c.feature === 'summary')).to.include({ input_tokens: 11, output_tokens: 7 });
    expect(suite.fakes.a.requests[0]?.headers.authorization).to.equal('Bearer env-key-a');
    const line = log.lines().find((l) => (l.ai as any)?.tenantId === tenant.tenantId && (l.ai as any)?.feature === 'summary');
    expect(line?.ai).to.deep.include({ provider: 'openai', model: 'gpt-a', outcome: 'ok', inputTokens: 11, outputTokens: 7 });
    expect(log.text()).not.to.include(SECRET_LINE);
  });

  it('moves to the next model on a 429, then on a 5xx', async () => {
    suite.fakes.a.respond = scripted({ status: 429 });
    suite.fakes.b.respond = scripted({ status: 503 });
    const { session, calls } = await review(await buildTenant(suite.api.databaseUrl));
    expect(session.summary).to.include({ text: 'summary by gemini', model: 'gemini-c' });
    expect(summaryCalls(calls)).to.deep.equal(['openai:gpt-a:rate_limited:429', 'anthropic:claude-b:server_error:503', 'google:gemini-c:ok']);
    expect(suite.fakes.c.requests[0]?.path).to.equal('/v1beta/models/gemini-c:generateContent');
  });

  it('moves to the next model when one does not answer in AI_TIMEOUT_SECONDS', async () => {
    suite.fakes.a.respond = scripted({ hangMs: 5000 });
    const { session, calls } = await review(await buildTenant(suite.api.databaseUrl));
    expect(session.summary.model).to.equal('claude-b');
    expect(summaryCalls(calls)).to.deep.equal(['openai:gpt-a:timeout', 'anthropic:claude-b:ok']);
  });

  it('moves to the next model when the structured answer is not valid JSON of the rubric', async () => {
    suite.fakes.a.respond = (r) => (isAssessment(r) ? { text: 'I think it went well!' } : { text: 'summary by gpt-a' });
    suite.fakes.b.respond = (r) => (isAssessment(r) ? { text: JSON.stringify({ ...GOOD_ASSESSMENT, testsRun: 'yes' }) } : { text: 'unused' });
    suite.fakes.c.respond = () => ({ text: JSON.stringify({ ...GOOD_ASSESSMENT, riskyActions: true }) });
    const { session, calls } = await review(await buildTenant(suite.api.databaseUrl));
    expect(session.assessment).to.include({ score: 80, riskyActions: true, model: 'gemini-c' });
    expect(calls.filter((c) => c.feature === 'assessment').map((c) => `${c.provider}:${c.outcome}`)).to.deep.equal(['openai:invalid_output', 'anthropic:invalid_output', 'google:ok']);
  });

  it('does not move on after a 400: the next model would get the same request', async () => {
    suite.fakes.a.respond = scripted({ status: 400, message: 'context length exceeded' });
    const tenant = await buildTenant(suite.api.databaseUrl);
    const { id, calls } = await review(tenant, 'assessment');
    await until('the failed summary attempt', async () => (await suite.pool.query(`select 1 from ai_calls where tenant_id = $1 and feature = 'summary'`, [tenant.tenantId])).rowCount);
    const after = await suite.pool.query(`select feature, provider, outcome, status from ai_calls where tenant_id = $1 and feature = 'summary'`, [tenant.tenantId]);
    expect(after.rows).to.deep.equal([{ feature: 'summary', provider: 'openai', outcome: 'client_error', status: 400 }]);
    expect(suite.fakes.b.requests.filter((r) => !isAssessment(r))).to.have.length(0);
    expect(suite.fakes.c.requests).to.have.length(0);
    expect((await suite.api.as(tenant.owner.apiKey).get(`/api/sessions/${id}`)).body.data.summary).to.equal(null);
    void calls;
  });

  describe('the organisation\'s provider and key (Settings › AI)', () => {
    it('win over the environment, are sealed at rest and never shown again', async () => {
      const tenant = await buildTenant(suite.api.databaseUrl);
      const other = await buildTenant(suite.api.databaseUrl);
      const saved = await suite.api.as(tenant.owner.apiKey).put('/api/ai/settings', { provider: 'openai', models: ['org-model'], apiKey: 'org-secret-key-1', monthlyTokenBudget: null });
      expect(saved.status).to.equal(200);
      expect(saved.body.data).to.deep.include({ provider: 'openai', models: ['org-model'], apiKeySet: true, source: 'organisation', features: { sessionReviews: true, notebook: true } });
      expect(saved.text).not.to.include('org-secret-key-1');
      const stored = await suite.pool.query('select api_key_sealed from ai_settings where tenant_id = $1', [tenant.tenantId]);
      expect(stored.rows[0].api_key_sealed).to.be.a('string').and.not.include('org-secret-key-1');

      const { session } = await review(tenant);
      expect(session.summary.model).to.equal('org-model');
      const summaryRequest = suite.fakes.a.requests.find((r) => !isAssessment(r));
      expect(summaryRequest?.headers.authorization).to.equal('Bearer org-secret-key-1');
      expect(summaryRequest?.body.model).to.equal('org-model');

      // Keeping the key: a save without apiKey; another tenant sees the environment's choice.
      const kept = await suite.api.as(tenant.owner.apiKey).put('/api/ai/settings', { provider: 'openai', models: ['org-model', 'org-model-2'], monthlyTokenBudget: 50000 });
      expect(kept.body.data).to.include({ apiKeySet: true, monthlyTokenBudget: 50000 });
      expect((await suite.api.as(other.owner.apiKey).get('/api/ai/settings')).body.data).to.deep.include({ provider: null, apiKeySet: false, source: 'environment' });
    });

    it('are an owner\'s to change; a provider needs models and a key', async () => {
      const tenant = await buildTenant(suite.api.databaseUrl);
      const member = await buildMember(suite.api.databaseUrl, tenant.tenantId);
      const refused = await suite.api.as(member.apiKey).put('/api/ai/settings', { provider: 'openai', models: ['m'], apiKey: 'member-key-123', monthlyTokenBudget: null });
      expect(refused.status).to.equal(403);
      expect((await suite.api.as(member.apiKey).get('/api/ai/settings')).status).to.equal(200);
      const invalid = await suite.api.as(tenant.owner.apiKey).put('/api/ai/settings', { provider: 'anthropic', models: [], monthlyTokenBudget: null });
      expect(invalid.status).to.equal(400);
      expect(invalid.body.error.details).to.deep.equal([
        { path: 'models', message: 'Name at least one model of the provider' },
        { path: 'apiKey', message: 'The provider needs an API key' },
      ]);
      const unknown = await suite.api.as(tenant.owner.apiKey).put('/api/ai/settings', { provider: 'compatible', models: ['m'], apiKey: 'k-12345678', monthlyTokenBudget: null });
      expect(unknown.status).to.equal(400);
    });
  });

  describe('session reviews on demand', () => {
    it('re-runs a summary for the uploader (202), 404 for another tenant, 403 for another member', async () => {
      const tenant = await buildTenant(suite.api.databaseUrl);
      const other = await buildTenant(suite.api.databaseUrl);
      const member = await buildMember(suite.api.databaseUrl, tenant.tenantId);
      const { id, session } = await review(tenant);
      suite.fakes.a.respond = scripted({ text: 'a newer summary' });
      expect((await suite.api.as(other.owner.apiKey).post(`/api/sessions/${id}/summary`)).status).to.equal(404);
      expect((await suite.api.as(other.owner.apiKey).get(`/api/sessions/${id}`)).status).to.equal(404);
      expect((await suite.api.as(member.apiKey).post(`/api/sessions/${id}/summary`)).status).to.equal(403);
      const rerun = await suite.api.as(tenant.owner.apiKey).post(`/api/sessions/${id}/summary`);
      expect(rerun.status).to.equal(202);
      expect(rerun.body.data).to.include({ sessionId: id, kind: 'summary' });
      const newer = await until('the new summary', async () => {
        const res = await suite.api.as(tenant.owner.apiKey).get(`/api/sessions/${id}`);
        return res.body.data.summary.text === 'a newer summary' ? res.body.data.summary : null;
      });
      expect(newer.createdAt > session.summary.createdAt).to.equal(true);
    });
  });

  describe('the monthly token budget', () => {
    it('refuses further calls once the month\'s tokens reach it', async () => {
      const tenant = await buildTenant(suite.api.databaseUrl);
      await suite.api.as(tenant.owner.apiKey).put('/api/ai/settings', { provider: null, models: [], monthlyTokenBudget: 1000 });
      await suite.pool.query(`insert into ai_calls (tenant_id, feature, provider, model, outcome, input_tokens, output_tokens, duration_ms) values ($1, 'summary', 'openai', 'gpt-a', 'ok', 900, 100, 5)`, [tenant.tenantId]);
      const created = await suite.api.as(tenant.owner.apiKey).post('/api/sessions', sessionBody());
      const id = created.body.data.id;
      // Both review jobs have run (and been refused by the budget) before anything is counted.
      await until('both review jobs refused', async () => {
        const { rows } = await suite.pool.query(`select state::text from pgboss.job where name in ('ai.session-summary', 'ai.session-assessment') and data->>'sessionId' = $1 and state in ('retry', 'failed', 'completed')`, [id]);
        return rows.length === 2;
      });
      expect(suite.fakes.a.requests).to.have.length(0);
      expect((await suite.api.as(tenant.owner.apiKey).get(`/api/sessions/${id}`)).body.data.summary).to.equal(null);
    });
  });
});
