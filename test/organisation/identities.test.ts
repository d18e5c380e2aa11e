import { expect } from 'chai';
import { buildMember, type BuiltTenant } from '../helpers/factories.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import type { TestServer } from '../helpers/server.js';
import { CSV, REGISTER_HEADER } from './helpers.js';
import { serverWithTwoTenants } from '../helpers/suites.js';

const withUsernames = (...rows: string[]) => `${REGISTER_HEADER},codehost_usernames\n${rows.join('\n')}\n`;

describe('Person identities: register usernames and manual identities', function () {
  this.timeout(60_000);
  let api: TestServer, a: BuiltTenant, b: BuiltTenant;
  before(async () => ({ api, a, b } = await serverWithTwoTenants()));
  after(() => api.close());

  const person = async (ref: string) => (await api.as(a.owner.apiKey).get('/api/people')).body.data.find((p: any) => p.externalRef === ref);
  const ids = (p: any) => p.identities.map((i: any) => `${i.source}:${i.kind}:${i.value}`);

  it('imports code-host usernames, keeps manual identities through imports, and refuses clashes', async () => {
    const owner = api.as(a.owner.apiKey);
    let res = await owner.post('/api/register/imports', withUsernames(
      'P1,p1@example.com,One,employee,,,,alpha,Alpha,,,,"octo-cat;OctoDev"',
      'P1,p1@example.com,One,employee,,,,beta,Beta,,,,octodev octo-cat',
      'P2,p2@example.com,Two,employee,,,,alpha,Alpha,,,,',
    ), CSV);
    expect(res.status).to.equal(201);
    const p1 = await person('P1');
    expect(ids(p1)).to.deep.equal(['register:codehost_username:octo-cat', 'register:codehost_username:octodev', 'register:email:p1@example.com']);

    res = await owner.patch(`/api/people/${p1.id}`, { identities: [{ kind: 'codehost_username', value: 'Side-Account' }, { kind: 'email', value: 'One@Old.example' }] });
    expect(res.status).to.equal(200);
    expect(ids(res.body.data)).to.deep.equal([
      'register:codehost_username:octo-cat', 'register:codehost_username:octodev', 'manual:codehost_username:side-account',
      'manual:email:one@old.example', 'register:email:p1@example.com',
    ]);

    // Without the column the usernames stay; with it they become exactly the file's. Manual ones stay either way.
    await owner.post('/api/register/imports', `${REGISTER_HEADER}\nP1,p1@example.com,One,employee,,,,alpha,Alpha,,,\n`, CSV);
    expect(ids(await person('P1'))).to.have.length(5);
    await owner.post('/api/register/imports', withUsernames('P1,p1@example.com,One,employee,,,,alpha,Alpha,,,,octo-cat'), CSV);
    expect(ids(await person('P1'))).to.deep.equal([
      'register:codehost_username:octo-cat', 'manual:codehost_username:side-account', 'manual:email:one@old.example', 'register:email:p1@example.com',
    ]);

    const clash = await owner.post('/api/register/imports', withUsernames(
      'P2,p2@example.com,Two,employee,,,,alpha,Alpha,,,,side-account',
      'P3,p3@example.com,Three,employee,,,,alpha,Alpha,,,,bad/name octo-cat',
    ), CSV);
    expect(clash.status).to.equal(400);
    expect(clash.body.error.details.map((d: any) => [d.line, d.column, d.message])).to.deep.equal([
      [3, 'codehost_usernames', '"bad/name" is not a code-host username'],
    ]);
    const manualClash = await owner.post('/api/register/imports', withUsernames('P2,p2@example.com,Two,employee,,,,alpha,Alpha,,,,side-account'), CSV);
    expect(manualClash.body.error.details).to.deep.equal([
      { path: 'line 2, codehost_usernames', line: 2, column: 'codehost_usernames', message: '"side-account" is a manual identity of person "P1"' },
    ]);

    const p2 = await person('P2');
    const taken = await owner.patch(`/api/people/${p2.id}`, { identities: [{ kind: 'codehost_username', value: 'OCTO-CAT' }] });
    expect(taken.status).to.equal(409);
    expect(taken.body).to.deep.equal({ error: { code: 'conflict', message: '"octo-cat" already identifies person "P1"' } });
    const invalid = await owner.patch(`/api/people/${p2.id}`, { identities: [{ kind: 'slack', value: 'x' }, { kind: 'email', value: 'nope' }] });
    expectRefusal(invalid, 400, { error: { code: 'validation_failed', message: 'Validation failed', details: [{ path: 'identities.0.kind', message: "Invalid discriminator value. Expected 'email' | 'codehost_username'" }, { path: 'identities.1.value', message: 'Must be an e-mail address' }] } });
  });

  it('PATCH /api/people/:id is owner-only; another tenant gets 404 for GET and PATCH', async () => {
    await api.as(a.owner.apiKey).post('/api/register/imports', `${REGISTER_HEADER}\nQ1,q1@example.com,Q,employee,,,,gamma,Gamma,,,\n`, CSV);
    const q1 = await person('Q1');
    const member = await buildMember(api.databaseUrl, a.tenantId);
    expect((await api.as(member.apiKey).get(`/api/people/${q1.id}`)).body.data.externalRef).to.equal('Q1');
    expectRefusal(await api.as(member.apiKey).patch(`/api/people/${q1.id}`, { identities: [] }), 403, apiError('forbidden', 'Only an owner of the tenant can do this'));
    expect((await api.as(b.owner.apiKey).get(`/api/people/${q1.id}`)).body).to.deep.equal({ error: { code: 'not_found', message: 'Person not found' } });
    expectRefusal(await api.as(b.owner.apiKey).patch(`/api/people/${q1.id}`, { identities: [{ kind: 'email', value: 'steal@example.com' }] }), 404, apiError('not_found', 'Person not found'));
    expect(ids(await person('Q1'))).to.deep.equal(['register:email:q1@example.com']);
  });
});
