class MailerError extends Error {
}
const TIMEOUT_MS = 1e4;
function mailerConfigured(config) {
  return config.mailerApiKey !== null;
}
function emailSignInAvailable(config) {
  return mailerConfigured(config) || !config.production;
}
async function sendMail(config, mail) {
  if (config.mailerApiKey === null) throw new MailerError("no mailer configured (MAILER_API_KEY is unset)");
  let res;
  try {
    res = await fetch(`${config.mailerApiUrl}/email`, {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/json", "x-postmark-server-token": config.mailerApiKey },
      body: JSON.stringify({ From: config.mailerFrom, To: mail.to, Subject: mail.subject, TextBody: mail.text, HtmlBody: mail.html, MessageStream: "outbound" }),
      signal: AbortSignal.timeout(TIMEOUT_MS)
    });
  } catch (error) {
    throw new MailerError(`mail API unreachable: ${error.name}`);
  }
  const body = await res.json().catch(() => null);
  if (!res.ok || !body || body.ErrorCode !== 0) {
    throw new MailerError(`mail API answered ${res.status} (ErrorCode ${body?.ErrorCode ?? "?"}: ${String(body?.Message ?? "").slice(0, 200)})`);
  }
  return { messageId: String(body.MessageID ?? "") };
}
export {
  MailerError,
  emailSignInAvailable,
  mailerConfigured,
  sendMail
};
