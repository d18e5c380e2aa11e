import { expect } from 'chai';
import { parseBilling } from '../../src/config/billing.js';
import { loadConfig } from '../../src/config/index.js';
import { PADDLE_ENV } from '../helpers/fakePaddle.js';
import { parse, problems, VALID as BASE } from './helpers.js';

/** Paddle Billing (src/config/billing.ts). */
describe('configuration: billing', () => {
  it('is off without the flag, whatever else is set', () => {
    expect(loadConfig({ ...BASE, ...PADDLE_ENV, BILLING_ENABLED: 'false', BILLING_API_URL: 'http://127.0.0.1:9' }).billing).to.equal(null);
    expect(loadConfig(BASE).billing).to.equal(null);
  });

  it('the flag requires every billing variable; the variables without the flag are ignored', () => {
    expect(parse({ BILLING_ENABLED: 'true', BILLING_API_KEY: 'k' }, (r) => parseBilling(r, false))).to.deep.equal({
      value: null,
      problems: ['billing group (BILLING_ENABLED) is partially configured: missing BILLING_WEBHOOK_SECRET, BILLING_CLIENT_TOKEN, BILLING_INDIVIDUAL_PRICE_ID, BILLING_SMALL_TEAM_PRICE_ID, BILLING_LARGE_TEAM_PRICE_ID, BILLING_ENTERPRISE_PRICE_ID'],
    });
    expect(loadConfig({ ...BASE, BILLING_API_KEY: 'k' }).billing).to.equal(null);
  });

  it('on, reads the group into plans and defaults the API to Paddle’s', () => {
    expect(loadConfig({ ...BASE, ...PADDLE_ENV }).billing).to.deep.equal({
      apiKey: PADDLE_ENV.BILLING_API_KEY,
      webhookSecret: PADDLE_ENV.BILLING_WEBHOOK_SECRET,
      clientToken: PADDLE_ENV.BILLING_CLIENT_TOKEN,
      priceIds: { individual: 'pri_individual', small_team: 'pri_small_team', large_team: 'pri_large_team', enterprise: 'pri_enterprise' },
      apiUrl: 'https://api.paddle.com',
    });
    expect(loadConfig({ ...BASE, ...PADDLE_ENV, BILLING_API_URL: 'https://sandbox-api.paddle.com/' }).billing?.apiUrl).to.equal('https://sandbox-api.paddle.com');
  });

  it('on, reports only the names that are missing, and refuses a plain-http API in production', () => {
    expect(problems({ ...BASE, BILLING_ENABLED: 'true', BILLING_API_KEY: 'k', BILLING_WEBHOOK_SECRET: 's', BILLING_CLIENT_TOKEN: 't', BILLING_SMALL_TEAM_PRICE_ID: 'p' })).to.deep.equal([
      'billing group (BILLING_ENABLED) is partially configured: missing BILLING_INDIVIDUAL_PRICE_ID, BILLING_LARGE_TEAM_PRICE_ID, BILLING_ENTERPRISE_PRICE_ID',
    ]);
    expect(problems({ ...BASE, ...PADDLE_ENV, NODE_ENV: 'production', BILLING_API_URL: 'http://paddle.internal' })).to.deep.equal(['BILLING_API_URL must use https when NODE_ENV is production']);
    expect(problems({ ...BASE, ...PADDLE_ENV, BILLING_API_URL: 'not a url' })).to.deep.equal(['BILLING_API_URL must be an http(s) URL']);
  });
});
