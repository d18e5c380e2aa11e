/** APP_URL, PORT, HOST and TRUSTED_PROXIES (src/config/http.ts). */
import { expect } from 'chai';
import { parseAppUrl, parseListener } from '../../src/config/http.js';
import { loadConfig } from '../../src/config/index.js';
import { parse, problems, VALID } from './helpers.js';

describe('configuration: addresses', () => {
  it('APP_URL is required, an http(s) URL, https in production; the config keeps it without a trailing slash', () => {
    expect(parse({}, (r) => parseAppUrl(r, false)).problems).to.deep.equal(['APP_URL is required']);
    expect(parse({ APP_URL: 'analytics.example.com' }, (r) => parseAppUrl(r, false)).problems).to.deep.equal(['APP_URL must be an http(s) URL']);
    expect(parse({ APP_URL: 'http://a.example' }, (r) => parseAppUrl(r, true)).problems).to.deep.equal(['APP_URL must use https when NODE_ENV is production']);
    expect(problems({ ...VALID, NODE_ENV: 'production', APP_URL: 'http://analytics.example.com' })).to.deep.equal(['APP_URL must use https when NODE_ENV is production']);
    expect(problems({ ...VALID, NODE_ENV: 'production' })).to.deep.equal([]);
    expect(loadConfig({ ...VALID, APP_URL: 'https://example.com/analytics/' }).appUrl).to.equal('https://example.com/analytics');
  });

  it('PORT and HOST: 3000 on every interface unless set', () => {
    expect(parse({}, parseListener).value).to.deep.equal({ port: 3000, host: '0.0.0.0', trustedProxies: [] });
    expect(parse({ PORT: '8080', HOST: '127.0.0.1' }, parseListener).value).to.include({ port: 8080, host: '127.0.0.1' });
    expect(parse({ PORT: '65536' }, parseListener).problems).to.deep.equal(['PORT must be a whole number from 0 to 65535']);
  });

  describe('TRUSTED_PROXIES', () => {
    it('trusts no proxy when unset', () => {
      expect(loadConfig(VALID).trustedProxies).to.deep.equal([]);
    });

    it('reads addresses and CIDR networks of both families', () => {
      expect(parse({ TRUSTED_PROXIES: '172.30.0.0/16, ::1,10.0.0.1' }, parseListener).value.trustedProxies).to.deep.equal([
        { address: '172.30.0.0', prefix: 16, family: 4 },
        { address: '::1', prefix: 128, family: 6 },
        { address: '10.0.0.1', prefix: 32, family: 4 },
      ]);
    });

    for (const bad of ['traefik', '10.0.0.0/33', '10.0.0.0/8/1', '::1/129', '10.0.0.0/x']) {
      it(`refuses ${bad}`, () => {
        expect(problems({ ...VALID, TRUSTED_PROXIES: bad })).to.deep.equal([
          'TRUSTED_PROXIES must be a comma-separated list of IP addresses or CIDR networks (e.g. 172.30.0.0/16,::1)',
        ]);
      });
    }
  });
});
