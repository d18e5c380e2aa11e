/**
 * The first /delivery after an instance starts, timed (target: acknowledged and answered within
 * 3 seconds of the command), beside the same command on the now warm instance as the reference
 * measured in the same run. A real `serve` process, fresh (nothing compiled), against a fake
 * Slack; the command is sent the moment the instance says it listens.
 * Run: npm run bench:slack (test/integrations/slackStartup.test.ts checks the answer itself).
 */
import { performance } from 'node:perf_hooks';
import { signSlackRequest } from '../src/integrations/slack/verify.js';
import { spawnServeOnFreePort } from '../test/helpers/cli.js';
import { freshDatabase } from '../test/helpers/database.js';
import { buildTenant, dbFor } from '../test/helpers/factories.js';
import { baseEnv, testServer } from '../test/helpers/server.js';
import { seedFigures } from '../test/integrations/chatDocsSeed.js';
import { fakeSlack } from '../test/integrations/fakes/slack.js';
import { installSlack, SECRET, slackEnv } from '../test/integrations/slackHelpers.js';

const TARGET_MS = 3000;

describe('bench: the first Slack /delivery after a start', function () {
  this.timeout(300_000);
  it('prints the time to acknowledge and to answer, cold and warm', async () => {
    const slack = await fakeSlack();
    const databaseUrl = await freshDatabase();
    const setup = await testServer({ databaseUrl, env: slackEnv(slack) });
    const tenant = await buildTenant(databaseUrl);
    const seed = await seedFigures(dbFor(databaseUrl).pool, tenant.tenantId);
    slack.users.push({ id: 'U1', email: seed.alphaEmail });
    await installSlack(setup, databaseUrl, tenant);
    await setup.close();

    const { child, exited, port } = await spawnServeOnFreePort((free) => ({ ...baseEnv(databaseUrl, free), ...slackEnv(slack) }));
    try {
      const command = async (n: number) => {
        const body = new URLSearchParams({ command: '/delivery', team_id: slack.workspace.id, user_id: 'U1', text: 'alpha 2025-03', response_url: slack.responseUrl() }).toString();
        const started = performance.now();
        const startedAt = Date.now();
        const ack = await fetch(`http://127.0.0.1:${port}/api/integrations/slack/commands`, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded', ...signSlackRequest(SECRET, body) } });
        const ackMs = performance.now() - started;
        if (ack.status !== 200) throw new Error(`acknowledgement ${ack.status}`);
        await slack.waitForResponses(n, 60_000);
        return { ackMs, answerMs: slack.responses[n - 1]!.at - startedAt };
      };
      const cold = await command(1);
      const warm = await command(2);
      const fmt = (ms: number) => `${Math.round(ms)} ms`;
      console.log(`      cold (first after start): acknowledged ${fmt(cold.ackMs)}, answered ${fmt(cold.answerMs)} (target ${TARGET_MS} ms: ${cold.answerMs < TARGET_MS ? 'met' : 'NOT met'})`);
      console.log(`      warm (reference):         acknowledged ${fmt(warm.ackMs)}, answered ${fmt(warm.answerMs)}`);
      console.log(`      ratio cold ÷ warm answer: ${(cold.answerMs / Math.max(1, warm.answerMs)).toFixed(2)}`);
    } finally {
      child.kill('SIGTERM');
      await exited;
      await slack.close();
    }
  });
});
