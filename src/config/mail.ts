/** The mailer (a Postmark-compatible API): sign-in links, invitations, survey links. */
import { parseHttpUrl, withoutTrailingSlash, type Reader } from './reader.js';

export interface MailConfig {
  mailerApiKey: string | null;
  /** Origin of the Postmark-compatible mail API (MAILER_API_URL; an addition to the spec, for tests and relays). */
  mailerApiUrl: string;
  /** Sender of sign-in e-mails (MAILER_FROM; an addition: Postmark sends only from a confirmed sender). */
  mailerFrom: string;
}

/** `appUrl` gives the default sender's domain (no-reply@ APP_URL's host). */
export function parseMail(r: Reader, appUrl: URL | null): MailConfig {
  const apiUrl = parseHttpUrl(r, 'MAILER_API_URL', r.get('MAILER_API_URL'));
  return {
    mailerApiKey: r.get('MAILER_API_KEY'),
    mailerApiUrl: apiUrl ? withoutTrailingSlash(apiUrl) : 'https://api.postmarkapp.com',
    mailerFrom: r.get('MAILER_FROM') ?? `Delivery Analytics <no-reply@${appUrl?.hostname ?? ''}>`,
  };
}
