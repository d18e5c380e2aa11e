/**
 * The AI session page in Chromium: the summary with its model and date, "Summary pending" until the
 * job has answered, a re-run for the uploader and owners (not for another member), no transcript,
 * another tenant's session not found, and "AI features are off" on a server without a model.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seriousAxe } from './axe.js';
import { expect } from 'chai';
import type { Page, Request } from 'playwright-core';
import type { Env } from '../../src/config/index.js';
import { aiEnv, isAssessment, GOOD_ASSESSMENT, sessionBody, startFakes, until as untilValue, type Fakes } from '../ai/helpers.js';
import { buildMember, buildSessionCookie, twoTenants, type BuiltTenant } from '../helpers/factories.js';
import type { TestServer } from '../helpers/server.js';
import { pageAs, personTab, screenshot, serverAndBrowser, until } from './browser.js';

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

/** axe-core's serious and critical violations on the page as it is. */
async function axeViolations(page: Page): Promise<string[]> {
  const result = await seriousAxe(page).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}
const summaryText = (page: Page) => page.getByTestId('session-summary').locator('p').first().innerText().then(norm);
const alertText = (page: Page) => page.getByRole('alert').locator('p').first().innerText().then((t) => norm(t).replace(/ · request \S+$/, ''));

async function upload(server: TestServer, key: string, body = sessionBody()): Promise<string> {
  const created = await server.as(key).post('/api/sessions', body);
  expect(created.status).to.equal(201);
  return created.body.data.id;
}

describe('web app: an AI session\'s summary (Chromium)', function () {
  this.timeout(120_000);
  const options: { env: Env } = { env: {} };
  let fakes: Fakes;
  before(async () => {
    fakes = await startFakes();
    // The model answers when the test releases it, within the timeout, so that the page is seen before the summary exists.
    Object.assign(options.env, aiEnv(fakes, { AI_TIMEOUT_SECONDS: '20' }));
  });
  const suite = serverAndBrowser(options);
  let a: BuiltTenant;
  let b: BuiltTenant;
  after(async () => {
    await fakes?.close();
  });
  before(async () => {
    ({ a, b } = await twoTenants(suite.server.databaseUrl, { a: 'Sessions A', b: 'Sessions B' }));
  });
  // The file's tabs (personTab), one page at a time; 'owner' for the page a test keeps while others look.
  const tabAs = async (userId: string, tenantId: string, kind = 'plain') => personTab(suite, await buildSessionCookie(suite.server.databaseUrl, userId, tenantId), kind);
  const answer = (summary: string, after?: Promise<unknown>) => {
    fakes.a.respond = (r) => (isAssessment(r) ? { text: JSON.stringify(GOOD_ASSESSMENT) } : { text: summary, ...(after ? { after } : {}) });
  };

  it('shows "Summary pending" until the job has answered, then the summary with its model and date; an owner re-runs it', async () => {
    let release = () => {};
    answer('Attempted: fix the login test.', new Promise<void>((done) => (release = done)));
    const id = await upload(suite.server, a.owner.apiKey);
    const page = await tabAs(a.owner.userId, a.tenantId);
    await page.goto('/app/ai');
    await page.getByRole('link', { name: 'The sessions' }).click();
    await page.getByRole('heading', { name: 'AI sessions', level: 1 }).waitFor();
    const row = page.getByTestId('sessions').locator('tbody tr');
    await until(() => row.locator('td').allInnerTexts().then((cells) => cells.slice(0, 4)), [a.owner.email, 'claude-code', '—', '—']);
    await row.getByRole('link').click();
    expect(new URL(page.url()).pathname).to.equal(`/app/ai/sessions/${id}`);
    await until(() => summaryText(page), 'Summary pending: it appears here when the model has answered.');
    release();
    // The page asks again by itself until the summary is stored.
    await until(() => summaryText(page), 'Attempted: fix the login test.', 20_000);
    const stored = (await suite.server.as(a.owner.apiKey).get(`/api/sessions/${id}`)).body.data.summary;
    expect(await page.getByTestId('summary-model').innerText()).to.equal('gpt-a');
    expect(await page.getByTestId('summary-date').getAttribute('datetime')).to.equal(stored.createdAt);
    expect(await page.getByTestId('summary-date').innerText()).to.equal(await page.evaluate((iso) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }), stored.createdAt));
    await until(() => page.getByTestId('assessment').innerText().then(norm), '100 / 100 · Tests pass. (gpt-a)');
    await screenshot(page, 'ai-session');
    expect(await axeViolations(page)).to.deep.equal([]);

    answer('Attempted: a newer summary.');
    const asked = fakes.a.requests.length;
    await page.getByRole('button', { name: 'Re-run summary' }).click();
    await until(() => page.getByRole('status').filter({ hasText: 'Re-run requested' }).count(), 1);
    await until(() => summaryText(page), 'Attempted: a newer summary.', 20_000);
    expect(fakes.a.requests.slice(asked).filter((r) => !isAssessment(r))).to.have.length(1);
    const newer = (await suite.server.as(a.owner.apiKey).get(`/api/sessions/${id}`)).body.data.summary;
    expect(newer.createdAt > stored.createdAt).to.equal(true);
    expect(await page.getByTestId('summary-date').getAttribute('datetime')).to.equal(newer.createdAt);
  });

  it('offers the re-run to the uploader, not to another member; another tenant gets not found', async () => {
    answer('Attempted: the member\'s own work.');
    const uploader = await buildMember(suite.server.databaseUrl, a.tenantId);
    const other = await buildMember(suite.server.databaseUrl, a.tenantId);
    const id = await upload(suite.server, uploader.apiKey);
    await untilValue('the summary', async () => (await suite.server.as(uploader.apiKey).get(`/api/sessions/${id}`)).body.data.summary);

    const mine = await tabAs(uploader.userId, a.tenantId);
    await mine.goto(`/app/ai/sessions/${id}`);
    await until(() => summaryText(mine), 'Attempted: the member\'s own work.');
    expect(await mine.getByRole('button', { name: 'Re-run summary' }).count()).to.equal(1);

    const theirs = await tabAs(other.userId, a.tenantId);
    await theirs.goto(`/app/ai/sessions/${id}`);
    await until(() => summaryText(theirs), 'Attempted: the member\'s own work.');
    expect(await theirs.getByRole('button', { name: /Re-run/ }).count()).to.equal(0);

    // The page reads the session's `actions` (the policy table's rules applied to the record), not
    // the role or the uploader's id: shown an answer that allows it, the same member gets the button.
    expect((await suite.server.as(uploader.apiKey).get(`/api/sessions/${id}`)).body.data.actions).to.deep.equal(['session.readTranscript', 'session.delete']);
    expect((await suite.server.as(other.apiKey).get(`/api/sessions/${id}`)).body.data.actions).to.deep.equal([]);
    const detail = `**/api/sessions/${id}`;
    await theirs.route(detail, async (route) => {
      const response = await route.fetch();
      const json = await response.json();
      json.data.actions = ['session.readTranscript'];
      await route.fulfill({ response, json });
    });
    await theirs.reload();
    await until(() => theirs.getByRole('button', { name: 'Re-run summary' }).count(), 1);
    await theirs.unroute(detail);

    const outsider = await tabAs(b.owner.userId, b.tenantId);
    await outsider.goto(`/app/ai/sessions/${id}`);
    await until(() => alertText(outsider), 'Session not found');
    expect(await outsider.getByTestId('session-summary').count()).to.equal(0);
  });

  it('shows a failed assessment with its reason (an unreadable answer, a refusal) and a Retry for the uploader and owners, not other members; the list says failed', async () => {
    // Model A answers the assessment with text that is not the rubric's JSON; model B refuses it (400).
    fakes.a.respond = (r) => (isAssessment(r) ? { text: 'I would rather not score this.' } : { text: 'Attempted: a refused review.' });
    fakes.b.respond = (r) => (isAssessment(r) ? { status: 400, message: 'sk-provider-secret-echo: request refused' } : { text: 'unused' });
    const uploader = await buildMember(suite.server.databaseUrl, a.tenantId);
    const other = await buildMember(suite.server.databaseUrl, a.tenantId);
    const id = await upload(suite.server, uploader.apiKey);
    const reason = 'No model answered: gpt-a: its answer could not be read (not the expected form); claude-b: the provider refused the request (HTTP 400)';
    await untilValue('the failure', async () => (await suite.server.as(uploader.apiKey).get(`/api/sessions/${id}`)).body.data.reviewFailed.assessment);

    const owner = await tabAs(a.owner.userId, a.tenantId, 'owner');
    await owner.goto('/app/ai/sessions');
    const row = owner.getByTestId('sessions').locator('tbody tr', { has: owner.locator(`a[href*="${id}"]`) });
    await until(() => row.locator('td').allInnerTexts(), [uploader.email, 'claude-code', '—', '—', 'Failed (open the session to see why)', '—']);
    await screenshot(owner, 'ai-sessions-failed');
    await row.getByRole('link').click();
    const failed = owner.getByTestId('assessment-failed');
    await failed.waitFor();
    const shown = norm(await failed.locator('p').first().innerText());
    expect(shown).to.match(/^The quality assessment failed at .+: (.+)\. It is tried again automatically\.$/);
    expect(shown).to.contain(reason);
    expect(shown).to.not.contain('sk-provider-secret-echo');
    expect(await owner.getByTestId('assessment').count()).to.equal(0);
    expect(await axeViolations(owner)).to.deep.equal([]);
    await screenshot(owner, 'ai-session-failed');

    const mine = await tabAs(uploader.userId, a.tenantId);
    await mine.goto(`/app/ai/sessions/${id}`);
    await mine.getByTestId('assessment-failed').waitFor();
    expect(await mine.getByTestId('assessment-failed').getByRole('button', { name: 'Retry' }).count()).to.equal(1);
    const theirs = await tabAs(other.userId, a.tenantId);
    await theirs.goto(`/app/ai/sessions/${id}`);
    await theirs.getByTestId('assessment-failed').waitFor();
    expect(await theirs.getByTestId('assessment-failed').getByRole('button', { name: 'Retry' }).count()).to.equal(0);

    // The owner's Retry, with the models answering again: the score replaces the failure. The
    // assessment is held until the page has said "Retry requested", which it shows only until the score arrives.
    let release = () => {};
    const released = new Promise<void>((done) => (release = done));
    fakes.a.respond = (r) => (isAssessment(r) ? { text: JSON.stringify(GOOD_ASSESSMENT), after: released } : { text: 'Attempted: a refused review.' });
    fakes.b.respond = () => ({ text: 'unused' });
    await failed.getByRole('button', { name: 'Retry' }).click();
    await until(() => owner.getByRole('status').filter({ hasText: 'Retry requested' }).count(), 1);
    // The failure is gone as soon as the retry's job is queued (the page asks again every 2 s); the
    // request is still said, until the score arrives.
    await until(() => owner.getByTestId('assessment-failed').count(), 0);
    expect(await owner.getByTestId('assessment-requested').innerText()).to.equal('Retry requested; the result appears here when the model has answered.');
    release();
    await owner.reload();
    await until(() => owner.getByTestId('assessment').innerText().then(norm), '100 / 100 · Tests pass. (gpt-a)', 20_000);
    expect(await owner.getByTestId('assessment-failed').count()).to.equal(0);
  });

  it('asks the API only for the session its address names: an encoded path in the address stays one segment', async () => {
    const page = await tabAs(a.owner.userId, a.tenantId);
    const asked: string[] = [];
    const onRequest = (r: Request) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/api/')) asked.push(path);
    };
    page.on('request', onRequest);
    await page.goto('/app/ai/sessions/..%2F..%2Fkeys');
    await page.getByRole('alert').waitFor();
    expect(asked).to.include('/api/sessions/..%2F..%2Fkeys');
    expect(asked).to.not.include('/api/keys');
    page.off('request', onRequest);
  });

  it('says there is nothing to summarise without a transcript', async () => {
    const id = await upload(suite.server, a.owner.apiKey, { tool: 'cursor', startedAt: '2026-03-11T09:00:00Z' } as never);
    const page = await tabAs(a.owner.userId, a.tenantId);
    await page.goto(`/app/ai/sessions/${id}`);
    await until(() => summaryText(page), 'No transcript was uploaded with this session, so there is nothing to summarise.');
    expect(await page.getByRole('button', { name: /Re-run/ }).count()).to.equal(0);
  });
});

describe('web app: an AI session without a model (Chromium)', function () {
  this.timeout(120_000);
  // Transcripts are stored (a local object store), but no model is configured.
  const suite = serverAndBrowser({ env: { LOCAL_OBJECT_STORE_DIR: mkdtempSync(join(tmpdir(), 'sessions-web-')) } });

  it('says "AI features are off" and offers no re-run', async () => {
    const { a } = await twoTenants(suite.server.databaseUrl);
    const created = await suite.server.as(a.owner.apiKey).post('/api/sessions', sessionBody());
    expect(created.status).to.equal(201);
    const page = await pageAs(suite, a.owner.userId, a.tenantId);
    await page.goto(`/app/ai/sessions/${created.body.data.id}`);
    await until(() => summaryText(page), 'AI features are off: no model provider is configured (Settings › AI).');
    expect(await page.getByRole('button', { name: /Re-run/ }).count()).to.equal(0);
  });
});
