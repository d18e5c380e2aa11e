import { expect } from 'chai';
import type { Pool } from 'pg';
import { sha256 } from '../../src/auth/secrets.js';
import { WebhookBatcher, type BatchRow } from '../../src/webhooks/batch.js';
import type { DeploymentWebhook, IssueWebhook } from '../../src/webhooks/schemas.js';
import { DEPLOYMENT_KIND, ISSUE_KIND } from '../../src/webhooks/service.js';
import { freshDatabase } from '../helpers/database.js';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { deployment as aDeployment, issue as anIssue } from './helpers.js';

/** The real pool, counting each statement's number of requests (the length of its `ord` array). */
function counting(pool: Pool) {
  const sizes: number[] = [];
  return {
    sizes,
    query: ((config: { values: unknown[][] }) => {
      sizes.push(config.values[0]!.length);
      return pool.query(config as never);
    }) as unknown as Pool['query'],
  };
}

// The suite's request bodies, typed as the validated input the batcher receives.
const issue = (over: Partial<IssueWebhook> = {}) => anIssue(over) as IssueWebhook;
const deployment = (over: Partial<DeploymentWebhook> = {}) => aDeployment({ sha: 'ABCDEF1', ...over }) as DeploymentWebhook;

describe('webhook API v1: requests written together in one statement', () => {
  let url: string;
  let pool: Pool;
  let t: BuiltTenant;
  before(async () => {
    url = await freshDatabase();
    pool = dbFor(url).pool;
    t = await buildTenant(url);
  });

  /** One request goes alone; the ones submitted while it runs wait and go together as one statement. */
  async function together<I extends { externalId: string }>(batcher: WebhookBatcher<I>, first: [string, I], rest: [string, I][]) {
    const head = batcher.submit(...first);
    const tail = rest.map(([key, input]) => batcher.submit(key, input));
    return [await head, ...(await Promise.all(tail))];
  }

  it('answers each request of a batch on its own: counts by rank, unknown key, limit passed, records', async () => {
    const other = await buildTenant(url);
    const key = sha256(t.owner.apiKey);
    const nearly = sha256(other.owner.apiKey);
    await pool.query(`update api_keys set webhook_minute_points = 98, webhook_minute_resets_at = now() + interval '40 seconds' where key_hash = $1`, [nearly]);
    const db = counting(pool);
    const batcher = new WebhookBatcher(db, 'test-batch-issues', ISSUE_KIND);
    const rows = await together(batcher, [key, issue({ externalId: 'first' })], [
      [key, issue({ externalId: 'a' })],
      [sha256('gai_unknown'), issue({ externalId: 'ghost' })],
      [nearly, issue({ externalId: 'n1', projectKey: 'other/web' })],
      [key, issue({ externalId: 'b' })],
      [nearly, issue({ externalId: 'n2', projectKey: 'other/web' })],
      [nearly, issue({ externalId: 'n3', projectKey: 'other/web' })],
    ]);
    expect(db.sizes).to.deep.equal([1, 6]);
    const [first, a, ghost, n1, b, n2, n3] = rows as (BatchRow | undefined)[];
    expect([first, a, b].map((r) => [r!.minute_points, r!.hour_points, r!.tenant_id, r!.created])).to.deep.equal([
      [1, 1, t.tenantId, true], [2, 2, t.tenantId, true], [3, 3, t.tenantId, true],
    ]);
    expect(ghost).to.equal(undefined);
    // 98 counted before: the 99th and 100th are written, the 101st is refused and writes nothing.
    expect([n1, n2, n3].map((r) => [r!.minute_points, r!.tenant_id, r!.record_id !== null])).to.deep.equal([
      [99, other.tenantId, true], [100, other.tenantId, true], [101, other.tenantId, false],
    ]);
    expect(n3!.minute_reset).to.be.within(35, 40);
    const { rows: stored } = await pool.query(`select external_id, tenant_id from issues order by external_id`);
    expect(stored).to.deep.equal([
      { external_id: 'a', tenant_id: t.tenantId }, { external_id: 'b', tenant_id: t.tenantId },
      { external_id: 'first', tenant_id: t.tenantId }, { external_id: 'n1', tenant_id: other.tenantId }, { external_id: 'n2', tenant_id: other.tenantId },
    ]);
    const { rows: counted } = await pool.query(`select webhook_minute_points as m, webhook_hour_points as h from api_keys where key_hash = any($1) order by m`, [[key, nearly]]);
    expect(counted).to.deep.equal([{ m: 3, h: 3 }, { m: 101, h: 3 }]);
  });

  it('numbers the issues of one batch: explicit kept, moved and new take the next numbers in order, existing keep theirs', async () => {
    const key = sha256(t.owner.apiKey);
    const db = counting(pool);
    const batcher = new WebhookBatcher(db, 'test-batch-numbers', ISSUE_KIND);
    // An existing project with issues 1 and 2 (in another project: "moved").
    await batcher.submit(key, issue({ projectKey: 'num/old', externalId: 'old-1' }));
    await batcher.submit(key, issue({ projectKey: 'num/other', externalId: 'moving' }));
    await batcher.submit(key, issue({ projectKey: 'num/old', externalId: 'old-2' }));
    await new Promise(setImmediate); // the last statement's slot is freed after its requests are answered
    db.sizes.length = 0;
    const rows = await together(batcher, [key, issue({ projectKey: 'num/x', externalId: 'x' })], [
      [key, issue({ projectKey: 'num/old', externalId: 'new-a' })],
      [key, issue({ projectKey: 'num/old', externalId: 'old-1', title: 'renamed' })],
      [key, issue({ projectKey: 'num/old', externalId: 'explicit', number: 7 })],
      [key, issue({ projectKey: 'num/old', externalId: 'moving' })],
      [key, issue({ projectKey: 'num/new', externalId: 'fresh-1' })],
      [key, issue({ projectKey: 'num/new', externalId: 'fresh-5', number: 5 })],
      [key, issue({ projectKey: 'num/new', externalId: 'fresh-2' })],
    ]);
    expect(db.sizes).to.deep.equal([1, 7]);
    expect(rows.map((r) => r!.created)).to.deep.equal([true, true, false, true, false, true, true, true]);
    const { rows: numbers } = await pool.query(`select p.project_key, i.external_id, i.number, i.title from issues i join projects p on p.id = i.project_id
      where p.project_key like 'num/%' order by p.project_key, i.number`);
    expect(numbers.map((r) => `${r.project_key} ${r.external_id} ${r.number}`)).to.deep.equal([
      'num/new fresh-5 5', 'num/new fresh-1 6', 'num/new fresh-2 7',
      'num/old old-1 1', 'num/old old-2 2', 'num/old explicit 7', 'num/old new-a 8', 'num/old moving 9',
      'num/x x 1',
    ]);
    const { rows: seqs } = await pool.query(`select project_key, issue_seq from projects where project_key in ('num/old', 'num/new') order by project_key`);
    expect(seqs).to.deep.equal([{ project_key: 'num/new', issue_seq: 7 }, { project_key: 'num/old', issue_seq: 9 }]);
  });

  it('sends a second request for the same externalId in the next statement, in order', async () => {
    const key = sha256(t.owner.apiKey);
    const db = counting(pool);
    const batcher = new WebhookBatcher(db, 'test-batch-same', DEPLOYMENT_KIND);
    const rows = await together(batcher, [key, deployment({ externalId: 'lead' })], [
      [key, deployment({ externalId: 'same', ref: 'one' })],
      [key, deployment({ externalId: 'same', ref: 'two' })],
      [key, deployment({ externalId: 'else' })],
    ]);
    expect(db.sizes).to.deep.equal([1, 2, 1]);
    expect(rows.map((r) => r!.created)).to.deep.equal([true, true, false, true]);
    const { rows: stored } = await pool.query(`select ref, sha from deployments where external_id = 'same'`);
    expect(stored).to.deep.equal([{ ref: 'two', sha: 'abcdef1' }]);
  });

  it('when a statement fails, runs each of its requests alone: only the faulty one fails', async () => {
    const key = sha256(t.owner.apiKey);
    const db = counting(pool);
    const batcher = new WebhookBatcher(db, 'test-batch-fail', DEPLOYMENT_KIND);
    const head = batcher.submit(key, deployment({ externalId: 'ok-0' }));
    // Not a timestamp (validation would refuse it; here it stands for any statement error).
    const results = await Promise.allSettled([
      batcher.submit(key, deployment({ externalId: 'ok-1' })),
      batcher.submit(key, deployment({ externalId: 'bad', createdAt: 'not a time' })),
      batcher.submit(key, deployment({ externalId: 'ok-2' })),
    ]);
    await head;
    expect(db.sizes).to.deep.equal([1, 3, 1, 1, 1]);
    expect(results.map((r) => r.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
    const { rows: stored } = await pool.query(`select external_id from deployments where external_id in ('ok-1', 'ok-2', 'bad') order by 1`);
    expect(stored.map((r) => r.external_id)).to.deep.equal(['ok-1', 'ok-2']);
  });
});
