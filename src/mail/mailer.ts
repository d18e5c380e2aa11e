/**
 * Outgoing e-mail through Postmark's HTTP API (https://postmarkapp.com/developer/user-guide/send-email-with-api):
 * `POST {MAILER_API_URL}/email` with header `X-Postmark-Server-Token: MAILER_API_KEY` and a JSON
 * message; 200 with `ErrorCode: 0` means accepted, any other status or error code is a failure.
 * Chosen because a single request with a server token needs no SDK; MAILER_API_URL exists so tests
 * can point it at a local server speaking the same API.
 */
import type { Config } from '../config/index.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export class MailerError extends Error {}

const TIMEOUT_MS = 10_000;

export function mailerConfigured(config: Readonly<Config>): boolean {
  return config.mailerApiKey !== null;
}

/** E-mail sign-in can be used: a mailer, or development with the links in the log (docs/auth.md). */
export function emailSignInAvailable(config: Readonly<Config>): boolean {
  return mailerConfigured(config) || !config.production;
}

/** Sends one message; throws MailerError (never carrying the message body or the key) on failure. */
export async function sendMail(config: Readonly<Config>, mail: Mail): Promise<{ messageId: string }> {
  if (config.mailerApiKey === null) throw new MailerError('no mailer configured (MAILER_API_KEY is unset)');
  let res: Response;
  try {
    res = await fetch(`${config.mailerApiUrl}/email`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', 'x-postmark-server-token': config.mailerApiKey },
      body: JSON.stringify({ From: config.mailerFrom, To: mail.to, Subject: mail.subject, TextBody: mail.text, HtmlBody: mail.html, MessageStream: 'outbound' }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new MailerError(`mail API unreachable: ${(error as Error).name}`);
  }
  const body = (await res.json().catch(() => null)) as { ErrorCode?: number; Message?: string; MessageID?: string } | null;
  if (!res.ok || !body || body.ErrorCode !== 0) {
    throw new MailerError(`mail API answered ${res.status} (ErrorCode ${body?.ErrorCode ?? '?'}: ${String(body?.Message ?? '').slice(0, 200)})`);
  }
  return { messageId: String(body.MessageID ?? '') };
}
