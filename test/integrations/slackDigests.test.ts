/**
 * Weekly digests across three instances on one database: every instance tries to claim the same
 * Monday window (the schedulers' own claim), one wins, the fan-out runs on whichever worker takes
 * it, and each team's digest reaches its channel once, even when the fan-out and a digest job run
 * a second time.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { expect } from 'chai';
import { bossOver } from '../../src/jobs/boss.js';
import { DIGEST_SCHEDULE } from '../../src/integrations/slack/digest.js';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { freshDatabase } from '../helpers/database.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { seedFigures, type Seed } from './chatDocsSeed.js';
import { fakeSlack, type FakeSlack } from './fakes/slack.js';
import { installSlack, slackEnv } from './slackHelpers.js';

describe('Slack weekly digests across three instances', function () {
  this.timeout(120_000);
  let slack: FakeSlack;
  let instances: TestServer[] = [];
  let a: BuiltTenant;
  let seed: Seed;
  let databaseUrl: string;

  before(async () => {
    slack = await fakeSlack();
    databaseUrl = await freshDatabase();
    // Instances of one deployment share APP_URL (the balancer's address).
    const env = slackEnv(slack, { JOBS_POLL_INTERVAL_MS: '200', APP_URL: 'https://delivery.example.com' });
    instances = [await testServer({ databaseUrl, env }), await testServer({ databaseUrl, env }), await testServer({ databaseUrl, env })];
    a = await buildTenant(databaseUrl);
    seed = await seedFigures(dbFor(databaseUrl).pool, a.tenantId);
    expect((await installSlack(instances[0]!, databaseUrl, a)).status).to.equal(302);
  });
  after(async () => {
    for (const i of instances) await i.close();
    await slack?.close();
  });

  it('one window, one digest per team and channel, whatever runs twice', async () => {
    const asA = instances[1]!.as(a.owner.apiKey);
    const id = (await asA.get('/api/integrations/slack')).body.data.connections[0].id;
    expect((await asA.put(`/api/integrations/slack/connections/${id}/digests`, { teamId: seed.alpha, channel: 'C0DELIVERY' })).status).to.equal(200);
    expect((await asA.put(`/api/integrations/slack/connections/${id}/digests`, { teamId: seed.beta, channel: 'C0GENERAL' })).status).to.equal(200);
    const invalid = await asA.put(`/api/integrations/slack/connections/${id}/digests`, { teamId: seed.beta, channel: '#general' });
    expect(invalid.status).to.equal(400);

    // Monday 2025-03-10 07:00 UTC: the digest of the week 2025-03-03 to 2025-03-09.
    const window = Date.parse('2025-03-10T07:00:00Z');
    const claims = await Promise.all(instances.map((i) => i.running.worker!.scheduler.claim(DIGEST_SCHEDULE, window)));
    expect(claims.filter((c) => c !== null)).to.have.length(1);
    await slack.waitForMessages(2, 30_000);
    // A fan-out retried after a crash, and one digest job run again: nothing more is posted.
    const boss = bossOver(dbFor(databaseUrl).pool);
    const again = [
      await boss.send('slack.digests-due', { schedule: DIGEST_SCHEDULE.name, windowStart: new Date(window).toISOString() }),
      await boss.send('slack.digest', { tenantId: a.tenantId, connectionId: id, teamId: seed.alpha, channel: 'C0DELIVERY', weekStart: '2025-03-03' }),
    ];
    // Both re-sent jobs, and whatever the fan-out enqueued, have run to completion before counting.
    const pool = dbFor(databaseUrl).pool;
    for (const end = Date.now() + 30_000; ; await delay(100)) {
      const { rows: [row] } = await pool.query(`select count(*) filter (where id = any($1::uuid[]) and state = 'completed')::int as done,
          count(*) filter (where state <> 'completed')::int as pending
        from pgboss.job where name in ('slack.digest', 'slack.digests-due')`, [again]);
      if (row.done === 2 && row.pending === 0) break;
      if (Date.now() > end) throw new Error(`timed out waiting for the re-sent digest jobs: ${JSON.stringify(row)}`);
    }

    expect(slack.messages.map((m) => m.channel).sort()).to.deep.equal(['C0DELIVERY', 'C0GENERAL']);
    const alpha = slack.messages.find((m) => m.channel === 'C0DELIVERY')!;
    expect(alpha.text).to.equal([
      '*Team alpha* — week of 2025-03-03 to 2025-03-09',
      '• Production deployments: 2 (+2 on the week before)',
      '• Lead time for changes p50: 3.0 d (n = 3)',
      '• Change failure rate: 33% (n = 3)',
      '• Time to restore p50: no value (n = 0)',
      '• PRs merged: 1 (−1 on the week before)',
      '• PR cycle time p50: 4.0 h (n = 1) (+167% on the week before)',
      '• Issues closed: 0 (±0 on the week before)',
      '• Issue lead time p50: no value (n = 0)',
      '*Month to date* (2025-03-01 to 2025-03-09)',
      '• Production deployments: 2',
      '• Lead time for changes p50: 3.0 d (n = 3)',
      '• Change failure rate: 33% (n = 3)',
      '• Time to restore p50: no value (n = 0)',
      '• PRs merged: 3',
      '• PR cycle time p50: 2.0 h (n = 3)',
      '• Issues closed: 0',
      '• Issue lead time p50: no value (n = 0)',
      `<https://delivery.example.com/app/teams/${seed.alpha}|Open the team page>`,
    ].join('\n'));
    const rows = await dbFor(databaseUrl).pool.query(`select team_id, channel, week_start::text, message_ts is not null as posted from chat_digest_posts order by channel`);
    expect(rows.rows).to.deep.equal([
      { team_id: seed.alpha, channel: 'C0DELIVERY', week_start: '2025-03-03', posted: true },
      { team_id: seed.beta, channel: 'C0GENERAL', week_start: '2025-03-03', posted: true },
    ]);
  });
});
