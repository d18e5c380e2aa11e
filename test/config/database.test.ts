/** DATABASE_URL, DATABASE_URL_DIRECT and DATABASE_POOL_SIZE (src/config/database.ts). */
import { expect } from 'chai';
import { parseDatabase } from '../../src/config/database.js';
import { loadConfig } from '../../src/config/index.js';
import { parse, problems, VALID } from './helpers.js';

const SHAPE = 'must have the shape postgresql://<user>:<password>@<host>:<port>/<database>';

describe('configuration: database', () => {
  it('reads DATABASE_URL (postgres: or postgresql:) and an optional DATABASE_URL_DIRECT', () => {
    expect(parse({ DATABASE_URL: 'postgres://u:p@h:5432/d' }, parseDatabase)).to.deep.equal({ value: { url: 'postgres://u:p@h:5432/d', directUrl: null, poolSize: 10 }, problems: [] });
    expect(parse({ DATABASE_URL: 'postgresql://u:p@h/d', DATABASE_URL_DIRECT: 'postgresql://u:p@direct/d' }, parseDatabase).value)
      .to.deep.equal({ url: 'postgresql://u:p@h/d', directUrl: 'postgresql://u:p@direct/d', poolSize: 10 });
    expect(loadConfig(VALID).database).to.deep.equal({ url: VALID.DATABASE_URL, directUrl: null, poolSize: 10 });
  });

  it('checks the shape of both: scheme, host, user and database', () => {
    expect(parse({}, parseDatabase).problems).to.deep.equal(['DATABASE_URL is required']);
    expect(problems({ ...VALID, DATABASE_URL: 'mysql://u:p@h:3306/d' })).to.deep.equal([`DATABASE_URL ${SHAPE}`]);
    for (const bad of ['postgresql://u:p@h:5432/', 'postgresql://h:5432/d', 'not a url']) {
      expect(parse({ DATABASE_URL: bad }, parseDatabase).problems, bad).to.deep.equal([`DATABASE_URL ${SHAPE}`]);
    }
    expect(parse({ DATABASE_URL: VALID.DATABASE_URL, DATABASE_URL_DIRECT: 'nonsense' }, parseDatabase).problems).to.deep.equal([`DATABASE_URL_DIRECT ${SHAPE}`]);
  });

  it('reads DATABASE_POOL_SIZE, a whole number from 2 to 100, and refuses anything else by name', () => {
    expect(parse({ DATABASE_URL: VALID.DATABASE_URL, DATABASE_POOL_SIZE: '3' }, parseDatabase).value.poolSize).to.equal(3);
    expect(parse({ DATABASE_URL: VALID.DATABASE_URL, DATABASE_POOL_SIZE: '100' }, parseDatabase).value.poolSize).to.equal(100);
    for (const bad of ['1', '101', '0', '-3', '2.5', 'ten']) {
      expect(parse({ DATABASE_URL: VALID.DATABASE_URL, DATABASE_POOL_SIZE: bad }, parseDatabase).problems, bad).to.deep.equal(['DATABASE_POOL_SIZE must be a whole number from 2 to 100']);
    }
  });
});
