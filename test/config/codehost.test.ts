/** The code-host application and the benchmark corpus's endpoint (src/config/codehost.ts). */
import { expect } from 'chai';
import { parseCodehostApp, parseCorpus } from '../../src/config/codehost.js';
import { loadConfig } from '../../src/config/index.js';
import { parse, problems, VALID } from './helpers.js';

describe('configuration: code host', () => {
  it('the application group: id and private key, with an optional webhook secret and name', () => {
    expect(parse({}, parseCodehostApp)).to.deep.equal({ value: null, problems: [] });
    expect(loadConfig({ ...VALID, CODEHOST_APP_ID: '1', CODEHOST_APP_PRIVATE_KEY: 'pem' }).codehostApp).to.deep.equal({ appId: '1', privateKey: 'pem', webhookSecret: null, name: null, apiUrl: 'https://api.github.com' });
    expect(parse({ CODEHOST_APP_ID: '1', CODEHOST_APP_PRIVATE_KEY: 'pem', CODEHOST_APP_WEBHOOK_SECRET: 's', CODEHOST_APP_NAME: 'da' }, parseCodehostApp).value)
      .to.deep.equal({ appId: '1', privateKey: 'pem', webhookSecret: 's', name: 'da', apiUrl: 'https://api.github.com' });
  });

  it('the application group: its REST API is api.github.com unless CODEHOST_APP_API_URL names another, never plain http in production', () => {
    const app = { CODEHOST_APP_ID: '1', CODEHOST_APP_PRIVATE_KEY: 'pem' };
    expect(parse({ ...app, CODEHOST_APP_API_URL: 'https://ghe.example/api/v3/' }, (r) => parseCodehostApp(r, true)).value?.apiUrl).to.equal('https://ghe.example/api/v3');
    expect(parse({ ...app, CODEHOST_APP_API_URL: 'http://127.0.0.1:4000' }, (r) => parseCodehostApp(r, false)).value?.apiUrl).to.equal('http://127.0.0.1:4000');
    expect(parse({ ...app, CODEHOST_APP_API_URL: 'http://ghe.internal/api/v3' }, (r) => parseCodehostApp(r, true)).problems)
      .to.deep.equal(['CODEHOST_APP_API_URL must use https when NODE_ENV is production']);
    expect(parse({ ...app, CODEHOST_APP_API_URL: 'not a url' }, (r) => parseCodehostApp(r, false)).problems).to.deep.equal(['CODEHOST_APP_API_URL must be an http(s) URL']);
    expect(problems({ ...VALID, CODEHOST_APP_API_URL: 'https://ghe.example/api/v3' })[0]).to.include('missing CODEHOST_APP_ID, CODEHOST_APP_PRIVATE_KEY');
  });

  for (const missing of ['CODEHOST_APP_ID', 'CODEHOST_APP_PRIVATE_KEY']) {
    it(`the application group names ${missing} when the rest is set`, () => {
      const env = { ...VALID, CODEHOST_APP_ID: '1', CODEHOST_APP_PRIVATE_KEY: 'pem', [missing]: undefined };
      const found = problems(env);
      expect(found).to.have.length(1);
      expect(found[0]).to.include('code-host application group (CODEHOST_APP_ID)').and.to.include(`missing ${missing}`);
    });
  }

  it('the application group: webhook secret and name alone are partial', () => {
    expect(problems({ ...VALID, CODEHOST_APP_WEBHOOK_SECRET: 's' })[0]).to.include('missing CODEHOST_APP_ID, CODEHOST_APP_PRIVATE_KEY');
  });

  it('the corpus: GitHub\'s GraphQL API unless overridden, never plain http in production', () => {
    expect(parse({}, (r) => parseCorpus(r, true))).to.deep.equal({ value: { codehostPublicToken: null, codehostPublicGraphqlUrl: 'https://api.github.com/graphql' }, problems: [] });
    expect(parse({ CODEHOST_PUBLIC_TOKEN: 't', CODEHOST_PUBLIC_GRAPHQL_URL: 'http://127.0.0.1:4000/graphql' }, (r) => parseCorpus(r, false)).value)
      .to.deep.equal({ codehostPublicToken: 't', codehostPublicGraphqlUrl: 'http://127.0.0.1:4000/graphql' });
    expect(parse({ CODEHOST_PUBLIC_GRAPHQL_URL: 'http://ghe.internal/api/graphql' }, (r) => parseCorpus(r, true)).problems)
      .to.deep.equal(['CODEHOST_PUBLIC_GRAPHQL_URL must use https when NODE_ENV is production']);
  });
});
