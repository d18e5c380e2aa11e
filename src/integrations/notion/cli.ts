import { loadSealingConfig } from '../../config/index.js';
import type { Command } from '../../cli/commands.js';

/**
 * The operator's side of Notion's webhook set-up (docs/integrations-chat-docs.md): the token Notion
 * posted when the subscription was created, shown once. It goes to stdout only, for the operator's
 * terminal; it is a secret (it signs every Notion delivery).
 */
export const notionCommands: Record<string, Command> = {
  'notion:verification-token': {
    summary: 'Print, once, the webhook verification tokens Notion sent (newest first): paste it into Notion\'s Verify form and set it as DOCS_WEBHOOK_SECRET.',
    usage: 'notion:verification-token',
    async run(_options, env) {
      const { databaseUrl, oauthEncryptionKey } = loadSealingConfig(env);
      const [{ openDatabase }, { takeVerificationTokens }] = await Promise.all([import('../../db/client.js'), import('./verificationTokens.js')]);
      const database = openDatabase(databaseUrl, { max: 1, applicationName: 'delivery-analytics-cli', unscoped: 'operator' });
      try {
        const tokens = await takeVerificationTokens(database.db, oauthEncryptionKey);
        if (tokens.length === 0) {
          process.stderr.write('No verification token was received in the last 24 hours. In Notion, create the webhook subscription (or choose "Resend token") with the URL shown in Settings › Integrations › Notion, then run this again.\n');
          return 1;
        }
        for (const t of tokens) process.stdout.write(`${JSON.stringify({ receivedAt: t.receivedAt.toISOString(), verificationToken: t.token })}\n`);
        if (tokens.length > 1) process.stderr.write('Several tokens arrived (the handshake is unsigned, anyone can post one): use the one that arrived when you created the subscription or resent the token; Notion\'s Verify form accepts only its own.\n');
        if (tokens.some((t) => t.token === null)) process.stderr.write('A token sealed under another OAUTH_ENCRYPTION_KEY cannot be opened: resend the token from Notion.\n');
        return 0;
      } finally {
        await database.close();
      }
    },
  },
};
