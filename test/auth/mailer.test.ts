import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { MailerError, sendMail } from '../../src/mail/mailer.js';
import { fakePostmark } from '../helpers/fakePostmark.js';
import { baseEnv } from '../helpers/server.js';

const env = (extra: Record<string, string> = {}) => ({ ...baseEnv('postgresql://u:p@127.0.0.1:5432/d', 3000), APP_URL: 'https://analytics.acme.example', ...extra });
const mail = { to: 'ada@example.com', subject: 'Hello', text: 'secret-link-text', html: '<p>secret-link-html</p>' };

describe('mailer (Postmark API)', () => {
  it('config: Postmark by default, sender from APP_URL; MAILER_API_URL must be http(s)', () => {
    const config = loadConfig(env());
    expect(config.mailerApiKey).to.equal(null);
    expect(config.mailerApiUrl).to.equal('https://api.postmarkapp.com');
    expect(config.mailerFrom).to.equal('Delivery Analytics <no-reply@analytics.acme.example>');
    const custom = loadConfig(env({ MAILER_API_KEY: 'k', MAILER_API_URL: 'http://127.0.0.1:9999/relay/', MAILER_FROM: 'Ops <ops@acme.example>' }));
    expect(custom.mailerApiUrl).to.equal('http://127.0.0.1:9999/relay');
    expect(custom.mailerFrom).to.equal('Ops <ops@acme.example>');
    expect(() => loadConfig(env({ MAILER_API_URL: 'smtp://mail.example' })))
      .to.throw(ConfigError).with.property('problems').that.deep.equals(['MAILER_API_URL must be an http(s) URL']);
  });

  it('sends one message with the server token and reports failures without the key or the body', async () => {
    const fake = await fakePostmark('the-server-token');
    try {
      const ok = await sendMail(loadConfig(env({ MAILER_API_KEY: 'the-server-token', MAILER_API_URL: fake.url })), mail);
      expect(ok).to.deep.equal({ messageId: 'fake-1' });
      expect(fake.messages).to.deep.equal([
        { From: 'Delivery Analytics <no-reply@analytics.acme.example>', To: 'ada@example.com', Subject: 'Hello', TextBody: 'secret-link-text', HtmlBody: '<p>secret-link-html</p>', MessageStream: 'outbound' },
      ]);

      const wrongKey = loadConfig(env({ MAILER_API_KEY: 'wrong-token-value', MAILER_API_URL: fake.url }));
      const error = await sendMail(wrongKey, mail).then(() => null, (e: Error) => e);
      expect(error).to.be.instanceOf(MailerError);
      expect(error!.message).to.equal('mail API answered 401 (ErrorCode 10: Bad or missing API token)');

      fake.failWith = { status: 422, errorCode: 406 };
      const refused = await sendMail(loadConfig(env({ MAILER_API_KEY: 'the-server-token', MAILER_API_URL: fake.url })), mail).then(() => null, (e: Error) => e);
      expect(refused!.message).to.equal('mail API answered 422 (ErrorCode 406: Simulated failure)');
      for (const e of [error!, refused!]) expect(e.message).not.to.match(/secret-link|token-value/);
    } finally {
      await fake.close();
    }
    const down = await sendMail(loadConfig(env({ MAILER_API_KEY: 'k', MAILER_API_URL: fake.url })), mail).then(() => null, (e: Error) => e);
    expect(down).to.be.instanceOf(MailerError);
    expect(down!.message).to.match(/^mail API unreachable/);
  });
});
