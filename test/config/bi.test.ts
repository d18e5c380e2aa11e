/** BI access (src/config/bi.ts): DATABASE_URL_BI, BI_PORT, BI_HOST and BI_DATABASE. */
import { expect } from 'chai';
import { parseBi } from '../../src/config/bi.js';
import { loadBiCommandConfig, loadConfig } from '../../src/config/index.js';
import { parse, problems, VALID } from './helpers.js';

const APP = new URL('https://analytics.example.com');

describe('configuration: BI access', () => {
  it('all optional: the host defaults to APP_URL\'s', () => {
    expect(parse({}, (r) => parseBi(r, APP))).to.deep.equal({ value: { databaseUrl: null, publicPort: null, publicHost: 'analytics.example.com', database: null }, problems: [] });
    expect(parse({}, (r) => parseBi(r, null)).value.publicHost).to.equal(null);
    expect(loadConfig(VALID).bi).to.deep.equal({ databaseUrl: null, publicPort: null, publicHost: 'analytics.example.com', database: null });
  });

  it('reads a replica, a port, a host and a BI database name, and checks each', () => {
    const replica = 'postgresql://app:secret@replica.internal:5432/analytics';
    expect(parse({ DATABASE_URL_BI: replica, BI_PORT: '6432', BI_HOST: 'bi.example.com', BI_DATABASE: 'analytics_tools' }, (r) => parseBi(r, APP)).value)
      .to.deep.equal({ databaseUrl: replica, publicPort: 6432, publicHost: 'bi.example.com', database: 'analytics_tools' });
    expect(problems({ ...VALID, DATABASE_URL_BI: 'nonsense', BI_PORT: '0', BI_HOST: 'bi.example.com/x', BI_DATABASE: 'a"b' })).to.deep.equal([
      'DATABASE_URL_BI must have the shape postgresql://<user>:<password>@<host>:<port>/<database>',
      'BI_PORT must be a whole number from 1 to 65535',
      'BI_HOST must be a host name (letters, digits, dots and hyphens)',
      'BI_DATABASE must be a database name (a letter or _, then letters, digits, _, $ or -; at most 63)',
    ]);
  });

  it('the BI commands read it with DATABASE_URL, APP_URL optional', () => {
    expect(loadBiCommandConfig({ DATABASE_URL: VALID.DATABASE_URL, BI_PORT: '6432' })).to.deep.equal({
      databaseUrl: VALID.DATABASE_URL, logLevel: 'info', bi: { databaseUrl: null, publicPort: 6432, publicHost: null, database: null },
    });
  });
});
