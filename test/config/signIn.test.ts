/** The four sign-in providers (src/config/signIn.ts). */
import { expect } from 'chai';
import { parseSignIn } from '../../src/config/signIn.js';
import { loadConfig } from '../../src/config/index.js';
import { parse, problems, VALID } from './helpers.js';

describe('configuration: sign-in providers', () => {
  const GITHUB = { CODEHOST_CLIENT_ID: 'gh-id', CODEHOST_CLIENT_SECRET: 'gh-secret' };
  const GOOGLE = { IDP1_CLIENT_ID: 'g-id', IDP1_CLIENT_SECRET: 'g-secret', IDP1_REDIRECT_URI: 'https://analytics.example.com/auth/google/callback' };
  const GITLAB = { CODEHOST2_CLIENT_ID: 'gl-id', CODEHOST2_CLIENT_SECRET: 'gl-secret', CODEHOST2_REDIRECT_URI: 'https://analytics.example.com/auth/gitlab/callback' };
  const MICROSOFT = { IDP2_CLIENT_ID: 'ms-id', IDP2_CLIENT_SECRET: 'ms-secret' };

  it('parseSignIn alone: e-mail as given, callbacks under APP_URL, no provider without its group', () => {
    expect(parse({}, (r) => parseSignIn(r, 'https://a.example', false, true))).to.deep.equal({
      value: { email: true, codehost: null, idp1: null, codehost2: null, idp2: null }, problems: [],
    });
    expect(parse(MICROSOFT, (r) => parseSignIn(r, 'https://a.example/x', false, false)).value.idp2?.redirectUri).to.equal('https://a.example/x/auth/microsoft/callback');
  });

  const GROUPS: Record<string, string[]> = {
    codehost: ['CODEHOST_CLIENT_ID', 'CODEHOST_CLIENT_SECRET'],
    idp1: ['IDP1_CLIENT_ID', 'IDP1_CLIENT_SECRET', 'IDP1_REDIRECT_URI'],
    codehost2: ['CODEHOST2_CLIENT_ID', 'CODEHOST2_CLIENT_SECRET', 'CODEHOST2_REDIRECT_URI'],
    idp2: ['IDP2_CLIENT_ID', 'IDP2_CLIENT_SECRET'],
  };
  for (const [label, names] of Object.entries(GROUPS)) {
    for (const missing of names) {
      it(`${label}: names ${missing} when the rest is set`, () => {
        const env: Record<string, string | undefined> = { ...VALID };
        for (const n of names) if (n !== missing) env[n] = 'value';
        const found = problems(env);
        expect(found).to.have.length(1);
        expect(found[0]).to.include(`${label} (`).and.to.include(`missing ${missing}`);
      });
    }
  }

  it('complete groups: the providers with their default endpoints and redirect URIs', () => {
    const config = loadConfig({ ...VALID, ...GITHUB, ...GOOGLE, ...GITLAB, ...MICROSOFT });
    expect(config.signIn).to.deep.equal({
      email: false,
      codehost: { clientId: 'gh-id', clientSecret: 'gh-secret', redirectUri: 'https://analytics.example.com/auth/github/callback', overridden: false, baseUrl: 'https://github.com', apiUrl: 'https://api.github.com' },
      idp1: { clientId: 'g-id', clientSecret: 'g-secret', redirectUri: 'https://analytics.example.com/auth/google/callback', overridden: false, issuer: 'https://accounts.google.com' },
      codehost2: { clientId: 'gl-id', clientSecret: 'gl-secret', redirectUri: 'https://analytics.example.com/auth/gitlab/callback', overridden: false, issuer: 'https://gitlab.com' },
      idp2: { clientId: 'ms-id', clientSecret: 'ms-secret', redirectUri: 'https://analytics.example.com/auth/microsoft/callback', overridden: false, tenant: 'organizations', issuer: 'https://login.microsoftonline.com/organizations/v2.0' },
    });
  });

  it('overrides: GitHub Enterprise (API under /api/v3 unless CODEHOST_API_URL), self-managed GitLab, IDP2_TENANT, issuers', () => {
    const config = loadConfig({
      ...VALID, ...GITHUB, ...GOOGLE, ...GITLAB, ...MICROSOFT,
      CODEHOST_BASE_URL: 'https://ghe.example.com/', CODEHOST2_BASE_URL: 'https://gitlab.example.com', IDP1_ISSUER: 'https://idp.example.com/google', IDP2_TENANT: 'contoso.onmicrosoft.com',
    });
    expect(config.signIn.codehost).to.include({ baseUrl: 'https://ghe.example.com', apiUrl: 'https://ghe.example.com/api/v3', overridden: true });
    expect(config.signIn.codehost2).to.include({ issuer: 'https://gitlab.example.com', overridden: true });
    expect(config.signIn.idp1).to.include({ issuer: 'https://idp.example.com/google', overridden: true });
    expect(config.signIn.idp2).to.include({ tenant: 'contoso.onmicrosoft.com', issuer: 'https://login.microsoftonline.com/contoso.onmicrosoft.com/v2.0', overridden: false });
    const api = loadConfig({ ...VALID, ...GITHUB, CODEHOST_API_URL: 'https://api.ghe.example.com', ...MICROSOFT, IDP2_ISSUER: 'https://login.example.com/tenant/v2.0' });
    expect(api.signIn.codehost).to.include({ baseUrl: 'https://github.com', apiUrl: 'https://api.ghe.example.com', overridden: true });
    expect(api.signIn.idp2).to.include({ issuer: 'https://login.example.com/tenant/v2.0', overridden: true });
  });

  const OVERRIDES: Record<string, [string, string]> = {
    CODEHOST_BASE_URL: ['codehost (', 'missing CODEHOST_CLIENT_ID, CODEHOST_CLIENT_SECRET'],
    CODEHOST_API_URL: ['codehost (', 'missing CODEHOST_CLIENT_ID, CODEHOST_CLIENT_SECRET'],
    IDP1_ISSUER: ['idp1 (', 'missing IDP1_CLIENT_ID, IDP1_CLIENT_SECRET, IDP1_REDIRECT_URI'],
    CODEHOST2_BASE_URL: ['codehost2 (', 'missing CODEHOST2_CLIENT_ID, CODEHOST2_CLIENT_SECRET, CODEHOST2_REDIRECT_URI'],
    IDP2_TENANT: ['idp2 (', 'missing IDP2_CLIENT_ID, IDP2_CLIENT_SECRET'],
    IDP2_ISSUER: ['idp2 (', 'missing IDP2_CLIENT_ID, IDP2_CLIENT_SECRET'],
  };
  for (const [name, [label, missing]] of Object.entries(OVERRIDES)) {
    it(`${name} alone makes its group partial (boot error)`, () => {
      const value = name === 'IDP2_TENANT' ? 'organizations' : 'https://override.example.com';
      const found = problems({ ...VALID, [name]: value });
      expect(found).to.have.length(1);
      expect(found[0]).to.include(label).and.to.include(missing).and.to.include(`(set: ${name})`);
    });
  }

  it('refuses malformed overrides, a path as tenant, and plain http in production', () => {
    expect(problems({ ...VALID, ...GITHUB, CODEHOST_BASE_URL: 'github.com' })).to.deep.equal(['CODEHOST_BASE_URL must be an http(s) URL']);
    expect(problems({ ...VALID, ...MICROSOFT, IDP2_TENANT: '../common' })).to.deep.equal(['IDP2_TENANT must be a tenant id, a domain, organizations, common or consumers']);
    expect(problems({ ...VALID, ...GOOGLE, IDP1_REDIRECT_URI: 'not a url' })).to.deep.equal(['IDP1_REDIRECT_URI must be an http(s) URL']);
    expect(problems({ ...VALID, NODE_ENV: 'production', MAILER_API_KEY: 'm', ...GITLAB, CODEHOST2_BASE_URL: 'http://gitlab.internal' }))
      .to.deep.equal(['CODEHOST2_BASE_URL must use https when NODE_ENV is production']);
  });
});
