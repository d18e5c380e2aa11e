/** The mailer (src/config/mail.ts). */
import { expect } from 'chai';
import { parseMail } from '../../src/config/mail.js';
import { loadConfig } from '../../src/config/index.js';
import { parse, VALID } from './helpers.js';

describe('configuration: mail', () => {
  it('off without MAILER_API_KEY; Postmark\'s API and a no-reply sender at APP_URL\'s host by default', () => {
    expect(parse({}, (r) => parseMail(r, new URL('https://analytics.example.com/x')))).to.deep.equal({
      value: { mailerApiKey: null, mailerApiUrl: 'https://api.postmarkapp.com', mailerFrom: 'Delivery Analytics <no-reply@analytics.example.com>' },
      problems: [],
    });
  });

  it('reads the key, an API override without its trailing slash, and the sender; e-mail sign-in follows the key', () => {
    const config = loadConfig({ ...VALID, MAILER_API_KEY: 'm', MAILER_API_URL: 'http://127.0.0.1:3333/', MAILER_FROM: 'Analytics <a@example.com>' });
    expect(config).to.deep.include({ mailerApiKey: 'm', mailerApiUrl: 'http://127.0.0.1:3333', mailerFrom: 'Analytics <a@example.com>' });
    expect(config.signIn.email).to.equal(true);
    expect(parse({ MAILER_API_URL: 'postmark' }, (r) => parseMail(r, null)).problems).to.deep.equal(['MAILER_API_URL must be an http(s) URL']);
  });
});
