import { expect } from 'chai';
import { testServer, type TestServer } from '../helpers/server.js';
import { DEPLOYMENTS, deployment, ISSUES, issue, rows, Sender, serverWithSender } from './helpers.js';

const STR = 'Invalid input: expected string, received number';
const TS = 'Must be an ISO 8601 timestamp with an offset, e.g. 2024-05-01T12:00:00Z';
const SHA = 'Must be 7 to 40 hexadecimal characters';
const OBJ = 'Must be a JSON object';
const BOOL = 'Invalid input: expected boolean, received string';
const EMPTY = 'Must not be empty';
const enumOf = (values: string[]) => `Invalid option: expected one of ${values.map((v) => `"${v}"`).join('|')}`;
const ISSUE_TYPES = ['feature', 'bug', 'chore', 'discovery', 'incident', 'other'];
const ISSUE_STATES = ['open', 'closed', 'in_progress'];
const ENVIRONMENTS = ['production', 'staging', 'development', 'qa', 'preview', 'other'];
const STATUSES = ['pending', 'queued', 'in_progress', 'success', 'failure', 'error', 'inactive'];

const validationBody = (...details: [string, string][]) =>
  JSON.stringify({ error: 'Validation failed', details: details.map(([path, message]) => ({ path, message })) });

type Case = [field: string, value: unknown, message?: string, path?: string];

/** [field, valid value] — each is posted on its own and must be accepted. */
const validIssue: Case[] = [
  ['projectKey', 'acme/web'],
  ['projectKey', 'group/subgroup/repo'],
  ['externalId', 'JIRA-1'],
  ['title', 'x'.repeat(1000)],
  ...ISSUE_TYPES.map((v): Case => ['type', v]),
  ...ISSUE_STATES.map((v): Case => ['state', v]),
  ['number', 42],
  ['body', 'Long description'],
  ['body', ''],
  ['url', 'https://tracker.example.com/JIRA-1'],
  ['authorUsername', 'alice'],
  ['assigneeUsername', 'bob'],
  ['labels', ['payments', 'sev2']],
  ['labels', []],
  ['createdAt', '2024-05-01T12:00:00Z'],
  ['createdAt', '2024-05-01T12:00:00.123+02:00'],
  ['closedAt', '2024-05-02T08:00:00-05:00'],
  ['closedAt', null],
  ['metadata', { causedByDeployment: 'd-1', nested: { list: [1, 'two', null] } }],
  ['metadata', {}],
];

/** [field, invalid value, exact message]. */
const invalidIssue: Case[] = [
  ['projectKey', 'web', 'Must have the form <owner>/<repo>'],
  ['projectKey', 'acme/', 'Must have the form <owner>/<repo>'],
  ['projectKey', 7, STR],
  ['externalId', '', EMPTY],
  ['externalId', 'x'.repeat(256), 'Must be at most 255 characters'],
  ['title', 12, STR],
  ['title', 'x'.repeat(1001), 'Must be at most 1000 characters'],
  ['type', 'story', enumOf(ISSUE_TYPES)],
  ['state', 'done', enumOf(ISSUE_STATES)],
  ['number', 1.5, 'Must be a whole number'],
  ['number', '7', 'Invalid input: expected number, received string'],
  ['number', 0, 'Too small: expected number to be >=1'],
  ['body', 5, STR],
  ['body', null, 'Invalid input: expected string, received null'],
  ['url', 1, STR],
  ['authorUsername', 1, STR],
  ['assigneeUsername', 'x'.repeat(256), 'Must be at most 255 characters'],
  ['labels', 'payments', 'Invalid input: expected array, received string'],
  ['labels', ['ok', 3], STR, 'labels.1'],
  ['labels', ['ok', ''], EMPTY, 'labels.1'],
  ['createdAt', '2024-05-01', TS],
  ['createdAt', '2024-05-01T12:00:00', TS],
  ['createdAt', 1714564800, TS],
  ['closedAt', 'yesterday', TS],
  ['metadata', [1, 2], OBJ],
  ['metadata', 'x', OBJ],
  ['metadata', null, OBJ],
];

const validDeployment: Case[] = [
  ['ref', 'v1.2.3'],
  ['sha', 'abcdef1'],
  ['sha', '9fceb02d0ae598e95dc970b74767f19372d61af8'],
  ['sha', 'ABCDEF1234'],
  ...ENVIRONMENTS.map((v): Case => ['environment', v]),
  ...STATUSES.map((v): Case => ['status', v]),
  ['task', 'migrate'],
  ['description', 'Release 42'],
  ['url', 'https://ci.example.com/run/1'],
  ['creatorUsername', 'ci-bot'],
  ['isProduction', true],
  ['isProduction', false],
  ['isRollback', true],
  ['isRollback', false],
  ['rollbackFromSha', '1234567'],
  ['rollbackFromSha', null],
  ['createdAt', '2024-05-01T12:00:00+00:00'],
  ['metadata', { pipeline: 77 }],
];

const invalidDeployment: Case[] = [
  ['projectKey', '', EMPTY],
  ['projectKey', 'acme/web app', 'Must have the form <owner>/<repo>'],
  ['externalId', 99, STR],
  ['ref', '', EMPTY],
  ['sha', 'abcdef', SHA],
  ['sha', 'a'.repeat(41), SHA],
  ['sha', 'ghijklm', SHA],
  ['environment', 'prod', enumOf(ENVIRONMENTS)],
  ['status', 'done', enumOf(STATUSES)],
  ['task', '', EMPTY],
  ['description', 3, STR],
  ['url', 3, STR],
  ['creatorUsername', 3, STR],
  ['isProduction', 'true', BOOL],
  ['isRollback', 'yes', BOOL],
  ['rollbackFromSha', 'xyz', SHA],
  ['createdAt', 'now', TS],
  ['metadata', [], OBJ],
];

describe('webhook API v1: field rules', () => {
  let api: TestServer, sender: Sender;
  before(async () => ({ api, sender } = await serverWithSender()));
  after(() => api.close());

  for (const [kind, path, build, valid, invalid] of [
    ['issue', ISSUES, issue, validIssue, invalidIssue],
    ['deployment', DEPLOYMENTS, deployment, validDeployment, invalidDeployment],
  ] as const) {
    it(`accepts every valid ${kind} field value`, async () => {
      for (const [field, value] of valid) {
        const res = await sender.post(path, build({ [field]: value }));
        expect(res.status, `${field} = ${JSON.stringify(value)}: ${res.text}`).to.equal(201);
        expect(res.body.success).to.equal(true);
      }
    });

    it(`refuses each invalid ${kind} field with its own detail, byte for byte, writing nothing`, async () => {
      for (const [field, value, message, at] of invalid) {
        const res = await sender.post(path, build({ projectKey: 'never/created', [field]: value }));
        expect(res.status, `${field} = ${JSON.stringify(value)}`).to.equal(400);
        expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
        expect(res.text, `${field} = ${JSON.stringify(value)}`).to.equal(validationBody([at ?? field, message as string]));
      }
      expect(await rows(api, `select 1 from projects where project_key = 'never/created'`)).to.deep.equal([]);
    });

    it(`lists every missing required ${kind} field at once`, async () => {
      const required = kind === 'issue' ? ['projectKey', 'externalId', 'title', 'type', 'state'] : ['projectKey', 'externalId', 'ref', 'sha', 'environment', 'status'];
      const res = await sender.post(path, {});
      expect(res.status).to.equal(400);
      expect(res.text).to.equal(validationBody(...required.map((f): [string, string] => [f, 'Required'])));
    });
  }

  it('lists every invalid field of one request, unknown fields named one by one', async () => {
    const res = await sender.post(ISSUES, issue({ type: 'story', labels: 'x', createdAt: 'today', titel: 'typo', extra: 1 }));
    expect(res.status).to.equal(400);
    expect(res.text).to.equal(
      validationBody(
        ['type', enumOf(ISSUE_TYPES)],
        ['labels', 'Invalid input: expected array, received string'],
        ['createdAt', TS],
        ['titel', 'Unknown field'],
        ['extra', 'Unknown field'],
      ),
    );
  });

  it('refuses a body that is not a JSON object', async () => {
    for (const body of ['[]', '"text"', 'null', '3']) {
      const res = await sender.post(DEPLOYMENTS, body, { 'content-type': 'application/json' });
      expect(res.status, body).to.equal(400);
      const received = body === '[]' ? 'array' : body === 'null' ? 'null' : body === '3' ? 'number' : 'string';
      expect(res.text).to.equal(validationBody(['body', `Invalid input: expected object, received ${received}`]));
    }
  });

  it('refuses a non-JSON content type, malformed JSON and an empty body with a detail', async () => {
    const plain = await sender.post(ISSUES, JSON.stringify(issue()), { 'content-type': 'text/plain' });
    expect(plain.status).to.equal(400);
    expect(plain.text).to.equal(validationBody(['body', 'Content-Type must be application/json']));
    const missing = await sender.post(ISSUES, new TextEncoder().encode(JSON.stringify(issue())));
    expect(missing.status).to.equal(400);
    expect(missing.text).to.equal(validationBody(['body', 'Content-Type must be application/json']));
    const malformed = await sender.post(ISSUES, '{"projectKey": "acme/web",', { 'content-type': 'application/json' });
    expect(malformed.status).to.equal(400);
    expect(malformed.text).to.equal(validationBody(['body', 'Body is not valid JSON']));
    const empty = await sender.post(DEPLOYMENTS, '', { 'content-type': 'application/json' });
    expect(empty.status).to.equal(400);
    expect(empty.text).to.equal(validationBody(['body', 'Body is empty; a JSON object is expected']));
    const charset = await sender.post(ISSUES, JSON.stringify(issue()), { 'content-type': 'application/json; charset=utf-8' });
    expect(charset.status).to.equal(201);
  });

  it('refuses a body above 512 KiB with 413 and writes nothing', async () => {
    const big = issue({ projectKey: 'big/body', body: 'x'.repeat(90_000), metadata: { pad: 'y'.repeat(512 * 1024) } });
    const res = await sender.post(ISSUES, big);
    expect(res.status).to.equal(413);
    expect(res.text).to.equal('{"error":"Payload too large"}');
    expect(await rows(api, `select 1 from projects where project_key = 'big/body'`)).to.deep.equal([]);
    // Just under the limit is accepted (the field limits still apply inside it).
    const fits = await sender.post(ISSUES, issue({ body: 'x'.repeat(100_000), metadata: { pad: 'y'.repeat(400_000) } }));
    expect(fits.status).to.equal(201);
    const tooLong = await sender.post(ISSUES, issue({ body: 'x'.repeat(100_001) }));
    expect(tooLong.text).to.equal(validationBody(['body', 'Must be at most 100000 characters']));
  });

  it('answers an unknown webhook path with the webhook envelope', async () => {
    const res = await sender.post('/api/webhooks/v1/pull-requests', { a: 1 });
    expect(res.status).to.equal(404);
    expect(res.text).to.equal('{"error":"Not found"}');
  });
});

describe('webhook API v1: authentication', () => {
  let api: TestServer;
  before(async () => {
    api = await testServer();
  });
  after(() => api.close());

  it('answers 401 {"error":"Unauthorized"} without a valid API key, writing nothing', async () => {
    const sender = await Sender.create(api);
    const body = issue({ projectKey: 'unauth/x' });
    const attempts: [string, Record<string, string>][] = [
      ['no header', {}],
      ['unknown key', { authorization: 'Bearer gai_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
      ['not a gai_ key', { authorization: 'Bearer some-access-token' }],
      ['basic scheme', { authorization: `Basic ${Buffer.from(`x:${sender.tenant.owner.apiKey}`).toString('base64')}` }],
      ['key without Bearer', { authorization: sender.tenant.owner.apiKey }],
    ];
    for (const [label, headers] of attempts) {
      const res = await api.post(ISSUES, body, headers);
      expect(res.status, label).to.equal(401);
      expect(res.text, label).to.equal('{"error":"Unauthorized"}');
    }
    expect(await rows(api, `select 1 from projects where project_key = 'unauth/x'`)).to.deep.equal([]);
  });

  it('refuses a login session cookie and a revoked key', async () => {
    const { buildSessionCookie } = await import('../helpers/factories.js');
    const sender = await Sender.create(api);
    const cookie = await buildSessionCookie(api.databaseUrl, sender.tenant.owner.userId, sender.tenantId);
    const withCookie = await api.post(DEPLOYMENTS, deployment(), { cookie });
    expect(withCookie.status).to.equal(401);
    expect(withCookie.text).to.equal('{"error":"Unauthorized"}');

    const created = await api.as(sender.tenant.owner.apiKey).post('/api/keys', { name: 'ci' });
    const key = created.body.data.key as string;
    expect((await api.as(key).post(DEPLOYMENTS, deployment())).status).to.equal(201);
    await api.as(sender.tenant.owner.apiKey).delete(`/api/keys/${created.body.data.id}`);
    const revoked = await api.as(key).post(DEPLOYMENTS, deployment());
    expect(revoked.status).to.equal(401);
    expect(revoked.text).to.equal('{"error":"Unauthorized"}');
  });
});
