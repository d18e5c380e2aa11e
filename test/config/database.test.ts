/** DATABASE_URL and DATABASE_URL_DIRECT (src/config/database.ts). */
import { expect } from 'chai';
import { parseDatabase } from '../../src/config/database.js';
import { loadConfig } from '../../src/config/index.js';
import { parse, problems, VALID } from './helpers.js';

const SHAPE = 'must have the shape postgresql://<user>:<password>@<host>:<port>/<database>';

describe('configuration: database', () => {
  it('reads DATABASE_URL (postgres: or postgresql:) and an optional DATABASE_URL_DIRECT', () => {
    expect(parse({ DATABASE_URL: 'postgres://u:p@h:5432/d' }, parseDatabase)).to.deep.equal({ value: { url: 'postgres://u:p@h:5432/d', directUrl: null }, problems: [] });
    expect(parse({ DATABASE_URL: 'postgresql://u:p@h/d', DATABASE_URL_DIRECT: 'postgresql://u:p@direct/d' }, parseDatabase).value)
      .to.deep.equal({ url: 'postgresql://u:p@h/d', directUrl: 'postgresql://u:p@direct/d' });
    expect(loadConfig(VALID).database).to.deep.equal({ url: VALID.DATABASE_URL, directUrl: null });
  });

  it('checks the shape of both: scheme, host, user and database', () => {
    expect(parse({}, parseDatabase).problems).to.deep.equal(['DATABASE_URL is required']);
    expect(problems({ ...VALID, DATABASE_URL: 'mysql://u:p@h:3306/d' })).to.deep.equal([`DATABASE_URL ${SHAPE}`]);
    for (const bad of ['postgresql://u:p@h:5432/', 'postgresql://h:5432/d', 'not a url']) {
      expect(parse({ DATABASE_URL: bad }, parseDatabase).problems, bad).to.deep.equal([`DATABASE_URL ${SHAPE}`]);
    }
    expect(parse({ DATABASE_URL: VALID.DATABASE_URL, DATABASE_URL_DIRECT: 'nonsense' }, parseDatabase).problems).to.deep.equal([`DATABASE_URL_DIRECT ${SHAPE}`]);
  });
});
