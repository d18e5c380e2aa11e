import { loadSealingConfig } from "../config/index.js";
const notionCommands = {
  "notion:verification-token": {
    summary: "Print, once, the webhook verification tokens Notion sent (newest first): paste it into Notion's Verify form and set it as DOCS_WEBHOOK_SECRET.",
    usage: "notion:verification-token",
    async run(_options, env) {
      const { databaseUrl, oauthEncryptionKey } = loadSealingConfig(env);
      const [{ openDatabase }, { takeVerificationTokens }] = await Promise.all([import("../db/client.js"), import("../integrations/notion/verificationTokens.js")]);
      const database = openDatabase(databaseUrl, { max: 1, applicationName: "delivery-analytics-cli", unscoped: "operator" });
      try {
        const tokens = await takeVerificationTokens(database.db, oauthEncryptionKey);
        if (tokens.length === 0) {
          process.stderr.write('No verification token was received in the last 24 hours. In Notion, create the webhook subscription (or choose "Resend token") with the URL shown in Settings \u203A Integrations \u203A Notion, then run this again.\n');
          return 1;
        }
        for (const t of tokens) process.stdout.write(`${JSON.stringify({ receivedAt: t.receivedAt.toISOString(), verificationToken: t.token })}
`);
        if (tokens.length > 1) process.stderr.write("Several tokens arrived (the handshake is unsigned, anyone can post one): use the one that arrived when you created the subscription or resent the token; Notion's Verify form accepts only its own.\n");
        if (tokens.some((t) => t.token === null)) process.stderr.write("A token sealed under another OAUTH_ENCRYPTION_KEY cannot be opened: resend the token from Notion.\n");
        return 0;
      } finally {
        await database.close();
      }
    }
  }
};
export {
  notionCommands
};
