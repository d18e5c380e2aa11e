/**
 * Every action of the policy table (src/auth/policies.ts), refused to a member on every surface
 * that reaches it: the HTTP API on a real server (the member's API key and their session cookie),
 * the service function called directly with the member's principal, MCP (no tool reaches an
 * action: the member's tool list is pinned) and the CLI (operator commands act as system work; the
 * remote ones only read exports). The actions are enumerated from the table itself, so a new
 * action fails here until its surfaces are listed below and its rule in docs/authorization.md.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { ACTIONS, can, policies, TENANT_ACTIONS, type Action, type TenantAction } from '../../src/auth/policies.js';
import { systemActor, type TenantPrincipal } from '../../src/auth/principal.js';
import { principalFromApiKey } from '../../src/apiKeys/principal.js';
import { listApiKeys, revokeApiKey } from '../../src/apiKeys/service.js';
import { asSystem, withTenant } from '../../src/db/tenancy.js';
import { AppError } from '../../src/errors.js';
import { importRegister } from '../../src/organisation/registerImport.js';
import { enqueueRegisterImport } from '../../src/organisation/registerImportJobs.js';
import { importSeats } from '../../src/organisation/seats.js';
import { assignProject, updateTeam } from '../../src/organisation/teams.js';
import { addManualMembership, removeManualMembership } from '../../src/organisation/memberships.js';
import { setManualIdentities } from '../../src/organisation/identities.js';
import { closeSurvey, createSurvey, surveyLinks } from '../../src/surveys/service.js';
import { changeSettings, completeConnect, connectUrl, disconnect, jiraAdminWebhook, startBackfill } from '../../src/integrations/trackers/service.js';
import { completeSlackInstall, ownedSlackConnection, slackAuthorizeUrl } from '../../src/integrations/slack/install.js';
import { completeNotionConnect, notionAuthorizeUrl, ownedNotionConnection } from '../../src/integrations/notion/install.js';
import { claimInstallation, linkInstallation, previewSetup, unlinkInstallation } from '../../src/codehost/installations.js';
import { billingOverview } from '../../src/billing/service.js';
import { renameTenant } from '../../src/tenants/service.js';
import { saveAiSettings } from '../../src/ai/settings.js';
import { saveAttributionSettings, signalCounts } from '../../src/aiAttribution/service.js';
import { removeSource, saveSource } from '../../src/aiVendors/service.js';
import { changeMemberRole, listMembers, removeMember } from '../../src/members/members.js';
import { createInvitation, listInvitations, revokeInvitation } from '../../src/members/invitations.js';
import { biCredentialsFor } from '../../src/bi/credentials.js';
import { addCell, deleteNotebook, updateNotebook } from '../../src/ai/notebook/service.js';
import { deleteSession, findSession, readTranscript, rerunSessionReview } from '../../src/aiSessions/service.js';
import { buildMember, buildSessionCookie, buildTenant, dbFor, type BuiltTenant, type BuiltUser } from '../helpers/factories.js';
import { fakePaddle, PADDLE_ENV, type FakePaddle } from '../helpers/fakePaddle.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { runCli } from '../helpers/cli.js';
import { setDeploymentSource, setOrganisationPattern } from '../../src/deploymentSources/service.js';
import { mcpClients } from '../mcp/mcpClient.js';

const OWNER_ONLY = 'Only an owner of the tenant can do this';
const NOT_YOURS = 'You do not have permission to do this';
const SETUP_PAGE = 'Only an owner of the tenant can link a code-host installation';
const NOWHERE = '00000000-0000-4000-8000-000000000000';
const REGISTER = 'external_ref,email,display_name,employment_type,supplier_name,cost_centre_code,location_country,team_slug,team_name,org_unit_slug,org_unit_name,valid_from,codehost_usernames\nP1,p1@example.com,One,employee,,,,alpha,Alpha,,,,\n';
const SEATS = 'external_ref,tool,assigned_on\nP1,copilot,2026-01-01\n';

interface Request {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  type?: string;
  /** The refusal's words when the surface uses its own (the code host's setup page). */
  message?: string;
}

type ServiceCall = (member: TenantPrincipal) => unknown;

interface Surfaces {
  /** What a member is answered: refused (403), or allowed everything (`member.list`), or shown only their own (`key.listAll`). */
  member: 'refused' | 'allowed' | 'narrowed';
  /** The requests that reach the action. */
  http: Request[];
  /** The service functions that check it, called as the member. */
  service: ServiceCall[];
  /** CLI commands that reach it: operator commands, which act as system work (no member there). */
  cli: string[];
}

/** What the test built: the records of the owner that target actions look at. */
interface Built {
  t: BuiltTenant;
  ownerKeyId: string;
  notebookId: string;
  invitationId: string;
  sessionId: string;
}

/** The read-only analytics tools every member has over MCP; none of them reaches a policy action. */
const MCP_TOOLS = ['compare_ai_assisted', 'cube_metadata', 'cube_query', 'cube_sql', 'list_dimension_values', 'list_dimensions', 'list_facts', 'list_measures', 'team_baseline', 'team_benchmark', 'team_open_source_benchmark'];

/**
 * Every CLI command: operator commands hold DATABASE_URL and act as system work on a tenant (the
 * actions they reach are named); remote commands send the logged-in user's key to the HTTP API,
 * and none of them reaches an action (they read exports and the caller's own account).
 */
const CLI_COMMANDS: Record<string, { runs: 'operator' | 'remote' | 'server'; reaches: Action[] }> = {
  serve: { runs: 'server', reaches: [] },
  migrate: { runs: 'server', reaches: [] },
  dev: { runs: 'server', reaches: [] },
  'tenant:create': { runs: 'operator', reaches: [] },
  'user:add': { runs: 'operator', reaches: ['member.manage'] },
  'register:import': { runs: 'operator', reaches: ['register.import'] },
  'seats:import': { runs: 'operator', reaches: ['seats.import'] },
  'project:assign': { runs: 'operator', reaches: ['team.manage'] },
  'export:team-roster': { runs: 'remote', reaches: [] },
  'export:team-baseline': { runs: 'remote', reaches: [] },
  'codehost:link': { runs: 'operator', reaches: ['codehost.link'] },
  'bi:grant': { runs: 'operator', reaches: ['bi.manage'] },
  'bi:revoke': { runs: 'operator', reaches: ['bi.manage'] },
  'bi:rotate': { runs: 'operator', reaches: ['bi.manage'] },
  login: { runs: 'remote', reaches: [] },
  whoami: { runs: 'remote', reaches: [] },
  'sessions:capture': { runs: 'remote', reaches: [] },
  logout: { runs: 'remote', reaches: [] },
  'notion:verification-token': { runs: 'operator', reaches: [] },
};

function surfacesOf(api: TestServer, b: Built): Record<Action, Surfaces> {
  const app = api.running.app;
  const { db, pool } = app.database;
  const deps = { db, config: app.config, log: app.log };
  const { tenantId } = b.t;
  const ownerId = b.t.owner.userId;
  const cliOf = (action: Action) => Object.entries(CLI_COMMANDS).filter(([, c]) => c.reaches.includes(action)).map(([name]) => name);
  const trackers = (kind: 'jira' | 'linear'): Request[] => [
    { method: 'GET', path: `/api/integrations/${kind}/connect` },
    { method: 'GET', path: `/api/integrations/${kind}/callback?code=c&state=s` },
    { method: 'DELETE', path: `/api/integrations/${kind}` },
    { method: 'PATCH', path: `/api/integrations/${kind}/connections/${NOWHERE}`, body: { backfillMonths: 3 } },
    { method: 'POST', path: `/api/integrations/${kind}/connections/${NOWHERE}/backfill` },
  ];
  const table: Record<Action, Omit<Surfaces, 'cli'>> = {
    'key.listAll': {
      member: 'narrowed',
      http: [{ method: 'GET', path: '/api/keys' }],
      service: [(m) => listApiKeys(db, m, { page: 1, perPage: 100 })],
    },
    'key.revoke': {
      member: 'refused',
      http: [{ method: 'DELETE', path: `/api/keys/${b.ownerKeyId}` }],
      service: [(m) => revokeApiKey(db, m, b.ownerKeyId)],
    },
    'tenant.manage': {
      member: 'refused',
      http: [{ method: 'PATCH', path: `/api/tenants/${tenantId}`, body: { name: 'Renamed' } }],
      service: [(m) => renameTenant(db, m, tenantId, 'Renamed')],
    },
    'deploymentSource.manage': {
      member: 'refused',
      http: [
        { method: 'PUT', path: '/api/deployment-sources/organisation', body: { pattern: { workflow: 'deploy.yml' } } },
        { method: 'PUT', path: `/api/deployment-sources/${NOWHERE}`, body: { source: 'workflow_runs', workflow: 'deploy.yml' } },
      ],
      service: [(m) => setOrganisationPattern(db, m, { workflow: 'deploy.yml', branch: null }), (m) => setDeploymentSource(db, m, NOWHERE, { source: 'workflow_runs', workflow: 'deploy.yml' })],
    },
    'member.list': {
      member: 'allowed',
      http: [{ method: 'GET', path: '/api/members' }],
      service: [(m) => listMembers(db, m, { page: 1, perPage: 25 })],
    },
    'member.manage': {
      member: 'refused',
      http: [
        { method: 'PATCH', path: `/api/members/${ownerId}`, body: { role: 'member' } },
        { method: 'DELETE', path: `/api/members/${ownerId}` },
      ],
      service: [(m) => changeMemberRole(db, m, ownerId, 'member'), (m) => removeMember(db, m, ownerId)],
    },
    'invitation.manage': {
      member: 'refused',
      http: [
        { method: 'GET', path: '/api/invitations' },
        { method: 'POST', path: '/api/invitations', body: { email: 'new@example.com', role: 'member' } },
        { method: 'DELETE', path: `/api/invitations/${b.invitationId}` },
      ],
      service: [
        (m) => listInvitations(db, m, { page: 1, perPage: 25 }),
        (m) => createInvitation(app, m, { email: 'new@example.com', role: 'member' }),
        (m) => revokeInvitation(db, m, b.invitationId),
      ],
    },
    'register.import': {
      member: 'refused',
      http: [
        { method: 'POST', path: '/api/register/imports', body: REGISTER, type: 'text/csv' },
        { method: 'POST', path: '/api/register/imports?mode=async', body: REGISTER, type: 'text/csv' },
      ],
      service: [(m) => importRegister(db, m, REGISTER), (m) => enqueueRegisterImport(app, m, REGISTER)],
    },
    'seats.import': {
      member: 'refused',
      http: [{ method: 'POST', path: '/api/seats/imports', body: SEATS, type: 'text/csv' }],
      service: [(m) => importSeats(db, m, SEATS)],
    },
    'team.manage': {
      member: 'refused',
      http: [
        { method: 'PATCH', path: `/api/teams/${NOWHERE}`, body: { enabled: false } },
        { method: 'POST', path: `/api/teams/${NOWHERE}/members`, body: { personId: NOWHERE } },
        { method: 'DELETE', path: `/api/teams/${NOWHERE}/members/${NOWHERE}` },
      ],
      service: [
        (m) => updateTeam(db, m, NOWHERE, { enabled: false }),
        (m) => addManualMembership(db, m, NOWHERE, NOWHERE),
        (m) => removeManualMembership(db, m, NOWHERE, NOWHERE),
        (m) => assignProject(db, m, 'acme/app', 'alpha'),
      ],
    },
    'person.manage': {
      member: 'refused',
      http: [{ method: 'PATCH', path: `/api/people/${NOWHERE}`, body: { identities: [] } }],
      service: [(m) => setManualIdentities(db, m, NOWHERE, [])],
    },
    'survey.manage': {
      member: 'refused',
      http: [
        { method: 'POST', path: '/api/surveys', body: { title: 'Pulse', teams: ['alpha'], closesOn: '2099-01-31' } },
        { method: 'POST', path: `/api/surveys/${NOWHERE}/close` },
        { method: 'GET', path: `/api/surveys/${NOWHERE}/links` },
      ],
      service: [
        (m) => createSurvey(deps, m, { title: 'Pulse', teams: ['alpha'], opensOn: '2099-01-01', closesOn: '2099-01-31' }),
        (m) => closeSurvey(db, m, NOWHERE),
        (m) => surveyLinks(deps, m, NOWHERE),
      ],
    },
    'integration.manage': {
      member: 'refused',
      http: [
        ...trackers('jira'),
        ...trackers('linear'),
        { method: 'GET', path: `/api/integrations/jira/connections/${NOWHERE}/admin-webhook` },
        { method: 'GET', path: '/api/integrations/slack/connect' },
        { method: 'GET', path: '/api/integrations/slack/callback?code=c&state=s' },
        { method: 'GET', path: `/api/integrations/slack/connections/${NOWHERE}/channels` },
        { method: 'PUT', path: `/api/integrations/slack/connections/${NOWHERE}/digests`, body: { teamId: NOWHERE, channel: null } },
        { method: 'DELETE', path: `/api/integrations/slack/connections/${NOWHERE}` },
        { method: 'GET', path: '/api/integrations/notion/connect' },
        { method: 'GET', path: '/api/integrations/notion/callback?code=c&state=s' },
        { method: 'GET', path: `/api/integrations/notion/connections/${NOWHERE}/pages` },
        { method: 'PUT', path: `/api/integrations/notion/connections/${NOWHERE}/parent`, body: { pageId: '0123456789abcdef0123456789abcdef' } },
        { method: 'POST', path: `/api/integrations/notion/connections/${NOWHERE}/publish`, body: {} },
        { method: 'DELETE', path: `/api/integrations/notion/connections/${NOWHERE}` },
      ],
      service: [
        (m) => connectUrl(app, m, 'jira'),
        (m) => completeConnect(app, m, 'linear', { code: 'c', state: 's' }),
        (m) => disconnect(app, m, 'jira', undefined),
        (m) => changeSettings(app, m, 'linear', NOWHERE, { backfillMonths: 3 }),
        (m) => startBackfill(app, m, 'jira', NOWHERE),
        (m) => jiraAdminWebhook(app, m, NOWHERE),
        (m) => slackAuthorizeUrl(app, m),
        (m) => completeSlackInstall(app, m, 'c', 's'),
        (m) => ownedSlackConnection(app, m, NOWHERE),
        (m) => notionAuthorizeUrl(app, m),
        (m) => completeNotionConnect(app, m, 'c', 's'),
        (m) => ownedNotionConnection(app, m, NOWHERE),
      ],
    },
    'codehost.link': {
      member: 'refused',
      http: [
        { method: 'POST', path: '/api/integrations/codehost/installations', body: { installationId: 7 } },
        { method: 'DELETE', path: '/api/integrations/codehost/installations/7' },
        { method: 'GET', path: '/api/integrations/codehost/setup?installation_id=7', message: SETUP_PAGE },
        { method: 'POST', path: '/api/integrations/codehost/setup', body: 'installation_id=7', type: 'application/x-www-form-urlencoded', message: SETUP_PAGE },
      ],
      service: [
        (m) => linkInstallation(db, m, 7),
        (m) => claimInstallation(db, m, 7),
        (m) => previewSetup(db, m, 7),
        (m) => unlinkInstallation(db, m, 7),
      ],
    },
    'billing.manage': {
      member: 'refused',
      http: [{ method: 'GET', path: '/api/billing' }],
      service: [(m) => billingOverview(app, m)],
    },
    'bi.manage': {
      member: 'refused',
      http: [
        { method: 'GET', path: '/api/bi/credentials' },
        { method: 'POST', path: '/api/bi/credentials', body: { name: 'finance' } },
        { method: 'POST', path: `/api/bi/credentials/${NOWHERE}/rotate` },
        { method: 'DELETE', path: `/api/bi/credentials/${NOWHERE}` },
      ],
      service: [(m) => biCredentialsFor(pool, m)],
    },
    'ai.manage': {
      member: 'refused',
      http: [
        { method: 'PUT', path: '/api/ai/settings', body: { provider: null, models: [], monthlyTokenBudget: null } },
        { method: 'PUT', path: '/api/ai/vendors/cursor', body: { apiKey: 'key_cursor_0123' } },
        { method: 'DELETE', path: '/api/ai/vendors/cursor' },
        { method: 'POST', path: '/api/ai/vendors/cursor/pull' },
      ],
      service: [
        (m) => saveAiSettings(db, app.config, m, { provider: null, models: [], monthlyTokenBudget: null }),
        (m) => saveSource(app, m, 'cursor', { apiKey: 'key_cursor_0123' }, { pace: { sleep: async () => {}, maxWaitSeconds: 0 }, signal: new AbortController().signal }),
        (m) => removeSource(db, m, 'cursor'),
      ],
    },
    'aiAttribution.manage': {
      member: 'refused',
      http: [{ method: 'PUT', path: '/api/ai/attribution/settings', body: { labels: ['copilot-made'] } }],
      service: [(m) => saveAttributionSettings(db, m, { labels: ['copilot-made'] })],
    },
    'aiAttribution.signals': {
      member: 'refused',
      http: [{ method: 'GET', path: '/api/ai/attribution/signals?from=2026-05&to=2026-05' }],
      service: [(m) => signalCounts(pool, m, { from: '2026-05', to: '2026-05' })],
    },
    'notebook.change': {
      member: 'refused',
      http: [
        { method: 'PATCH', path: `/api/notebooks/${b.notebookId}`, body: { title: 'Mine now' } },
        { method: 'POST', path: `/api/notebooks/${b.notebookId}/cells`, body: { question: 'How many deployments?' } },
        { method: 'DELETE', path: `/api/notebooks/${b.notebookId}` },
      ],
      service: [
        (m) => updateNotebook(db, m, b.notebookId, { title: 'Mine now' }),
        (m) => addCell(db, m, b.notebookId, 'How many deployments?'),
        (m) => deleteNotebook(db, m, b.notebookId),
      ],
    },
    'session.readTranscript': {
      member: 'refused',
      http: [
        { method: 'GET', path: `/api/sessions/${b.sessionId}?include=transcript` },
        { method: 'POST', path: `/api/sessions/${b.sessionId}/summary` },
        { method: 'POST', path: `/api/sessions/${b.sessionId}/assessment` },
      ],
      service: [async (m) => readTranscript(app, m, await findSession(db, m, b.sessionId)), (m) => rerunSessionReview(app, m, 'summary', b.sessionId)],
    },
    'session.delete': {
      member: 'refused',
      http: [{ method: 'DELETE', path: `/api/sessions/${b.sessionId}` }],
      service: [(m) => deleteSession(app, m, b.sessionId)],
    },
  };
  return Object.fromEntries(Object.entries(table).map(([action, s]) => [action, { ...s, cli: cliOf(action as Action) }])) as Record<Action, Surfaces>;
}

describe('authorization: every policy action on every surface', function () {
  this.timeout(120_000);
  let paddle: FakePaddle;
  let api: TestServer;
  let built: Built;
  let member: BuiltUser;
  let memberCookie: string;
  let memberPrincipal: TenantPrincipal;
  let surfaces: Record<Action, Surfaces>;
  let asBuilt: Record<string, unknown>;
  const mcp = mcpClients(() => api.baseUrl);

  before(async () => {
    paddle = await fakePaddle();
    api = await testServer({
      env: {
        ...PADDLE_ENV,
        BILLING_API_URL: paddle.url,
        JOBS_WORKER_ENABLED: 'false',
        LOCAL_OBJECT_STORE_DIR: mkdtempSync(join(tmpdir(), 'policies-objects-')),
        // Every integration configured, so each path reaches its rule (an unconfigured one is a 404 for everyone).
        TRACKER1_CLIENT_ID: 'jira-client', TRACKER1_SECRET: 'jira-secret', TRACKER1_REDIRECT_URI: 'http://127.0.0.1:9/api/integrations/jira/callback',
        TRACKER2_CLIENT_ID: 'linear-client', TRACKER2_CLIENT_SECRET: 'linear-secret',
        CHAT_CLIENT_ID: 'slack-client', CHAT_CLIENT_SECRET: 'slack-secret', CHAT_SIGNING_SECRET: 'slack-signing-secret',
        DOCS_CLIENT_ID: 'notion-client', DOCS_CLIENT_SECRET: 'notion-secret',
        CODEHOST_APP_ID: '1048576', CODEHOST_APP_PRIVATE_KEY: '-----BEGIN RSA PRIVATE KEY-----\ntest-only\n-----END RSA PRIVATE KEY-----', CODEHOST_APP_NAME: 'delivery-analytics',
      },
    });
    const t = await buildTenant(api.databaseUrl);
    member = await buildMember(api.databaseUrl, t.tenantId);
    memberCookie = await buildSessionCookie(api.databaseUrl, member.userId, t.tenantId);
    const owner = api.as(t.owner.apiKey);
    const keys = await owner.get('/api/keys');
    const notebook = await owner.post('/api/notebooks', { title: 'Owner’s notebook', shared: true });
    const invitation = await owner.post('/api/invitations', { email: 'invited@example.com', role: 'member' });
    const session = await owner.post('/api/sessions', {
      tool: 'claude-code', model: 'claude-sonnet-4-5', startedAt: '2026-11-02T09:00:00Z', endedAt: '2026-11-02T09:10:00Z',
      transcript: JSON.stringify({ type: 'user', message: { role: 'user', content: 'Add retries' } }),
    });
    expect([keys.status, notebook.status, invitation.status, session.status]).to.deep.equal([200, 201, 201, 201]);
    const ownerKey = keys.body.data.find((k: { createdBy: { userId: string } }) => k.createdBy.userId === t.owner.userId);
    built = { t, ownerKeyId: ownerKey.id, notebookId: notebook.body.data.id, invitationId: invitation.body.data.id, sessionId: session.body.data.id };
    memberPrincipal = (await asSystem('authentication', () => principalFromApiKey(api.running.app.database.db, member.apiKey))) as TenantPrincipal;
    expect(memberPrincipal.role).to.equal('member');
    surfaces = surfacesOf(api, built);
    asBuilt = await untouched();
    const { invitations, ...rest } = asBuilt;
    expect(rest).to.deep.equal({ tenant: 'as built', role: 'owner', keyActive: true, notebook: 'Owner’s notebook', sessions: 1, teams: 0, people: 0, surveys: 0, imports: 0, settings: 0, jobs: 0 });
    expect(invitations).to.match(/^invited@example\.com [0-9a-f]{64}$/);
  });
  after(async () => {
    await mcp.closeAll();
    await api?.close();
    await paddle?.close();
  });

  it('lists the surfaces of exactly the actions of the policy table, and docs/authorization.md documents each', () => {
    expect(Object.keys(surfaces).sort()).to.deep.equal([...ACTIONS].sort());
    const doc = readFileSync(new URL('../../docs/authorization.md', import.meta.url), 'utf8');
    expect(ACTIONS.filter((action) => !doc.includes(`\`${action}\``)), 'actions missing from docs/authorization.md').to.deep.equal([]);
  });

  it('GET /api/users/me lists for the member exactly the tenant actions its surfaces allow, for the owner every one', async () => {
    const allowed = TENANT_ACTIONS.filter((action) => surfaces[action].member === 'allowed');
    expect(allowed).to.deep.equal(['member.list']);
    for (const as of ['key', 'cookie'] as const) expect((await send({ method: 'GET', path: '/api/users/me' }, as)).body.data.actions, as).to.deep.equal(allowed);
    expect((await api.as(built.t.owner.apiKey).get('/api/users/me')).body.data.actions).to.deep.equal(TENANT_ACTIONS);
  });

  /** The tenant's state that the actions guard; after every test it is as built (nothing refused went through). */
  const untouched = async () => {
    const { rows } = await dbFor(api.databaseUrl).pool.query(
      `select case when t.name = $6 then 'as built' else t.name end as tenant,
              (select role from tenant_memberships where tenant_id = $1 and user_id = $2) as role,
              (select revoked_at is null from api_keys where id = $3) as "keyActive",
              (select title from notebooks where id = $4) as notebook,
              (select count(*)::int from ai_sessions where id = $5) as sessions,
              (select string_agg(email || ' ' || token_hash, ',') from invitations where tenant_id = $1 and revoked_at is null) as invitations,
              (select count(*)::int from teams where tenant_id = $1) as teams,
              (select count(*)::int from people where tenant_id = $1) as people,
              (select count(*)::int from surveys where tenant_id = $1) as surveys,
              (select count(*)::int from register_imports where tenant_id = $1) + (select count(*)::int from seat_imports where tenant_id = $1) as imports,
              (select count(*)::int from ai_settings where tenant_id = $1) as settings,
              (select count(*)::int from pgboss.job where name = 'register.import' and data->>'tenantId' = $1::text) as jobs
         from tenants t where t.id = $1`,
      [built.t.tenantId, built.t.owner.userId, built.ownerKeyId, built.notebookId, built.sessionId, built.t.name],
    );
    return rows[0];
  };

  const send = (request: Request, as: 'key' | 'cookie') => {
    const headers: Record<string, string> = as === 'key'
      ? { authorization: `Bearer ${member.apiKey}` }
      : { cookie: memberCookie, origin: api.running.app.config.appUrl };
    if (request.type) headers['content-type'] = request.type;
    return api.request(request.method, request.path, request.body, headers);
  };

  /** The service call's outcome: what it threw, or `{ok: true}`. */
  const asMember = async (call: ServiceCall): Promise<{ code: string; message: string } | { ok: true }> => {
    try {
      await withTenant(built.t.tenantId, async () => call(memberPrincipal));
      return { ok: true };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return { code: error.code, message: error.message };
    }
  };

  for (const action of ACTIONS) {
    it(`${action}: what a member is answered over HTTP (API key and session cookie) and by the service functions`, async () => {
      const s = surfaces[action];
      expect(s, `no surfaces listed for ${action}`).to.be.an('object');
      expect(s.http.length + s.service.length, 'an action nothing reaches').to.be.above(0);
      if (s.member === 'refused') {
        for (const request of s.http) {
          for (const as of ['key', 'cookie'] as const) {
            expectRefusal(await send(request, as), 403, apiError('forbidden', request.message ?? policies[action].refusal), `${request.method} ${request.path} (${as})`);
          }
        }
        for (const [i, call] of s.service.entries()) {
          expect(await asMember(call), `service call ${i}`).to.deep.equal({ code: 'forbidden', message: policies[action].refusal });
        }
      } else if (s.member === 'allowed') {
        for (const request of s.http) for (const as of ['key', 'cookie'] as const) expect((await send(request, as)).status, `${request.path} (${as})`).to.equal(200);
        for (const call of s.service) expect(await asMember(call)).to.deep.equal({ ok: true });
      } else {
        // Narrowed: the member is not refused, and sees only what is theirs.
        for (const request of s.http) {
          for (const as of ['key', 'cookie'] as const) {
            const res = await send(request, as);
            expect(res.status).to.equal(200);
            expect(res.body.data.map((k: { createdBy: { userId: string } }) => k.createdBy.userId), `${request.path} (${as})`).to.deep.equal([member.userId]);
          }
        }
        const { rows } = await withTenant(built.t.tenantId, () => listApiKeys(api.running.app.database.db, memberPrincipal, { page: 1, perPage: 100 }));
        expect(rows.map((r) => r.userId)).to.deep.equal([member.userId]);
      }
      expect(await untouched()).to.deep.equal(asBuilt);
    });
  }

  it('MCP: a member’s tools are the read-only analytics tools, none of which reaches a policy action', async () => {
    const client = await mcp.connect(member.apiKey);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).to.deep.equal(MCP_TOOLS);
  });

  it('CLI: every command is classified; operator commands act as system work, which every rule lets through', async () => {
    const help = await runCli(['help'], {});
    const names = [...help.stdout.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1]);
    expect(names.sort()).to.deep.equal(Object.keys(CLI_COMMANDS).sort());
    const operator = systemActor(built.t.tenantId, 'cli');
    for (const action of new Set(Object.values(CLI_COMMANDS).flatMap((c) => c.reaches))) {
      expect(can(operator, action as TenantAction), action).to.equal(true);
      expect(CLI_COMMANDS[surfaces[action].cli[0]!]?.runs, action).to.equal('operator');
    }
  });
});
