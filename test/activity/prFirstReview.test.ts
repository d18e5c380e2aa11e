/**
 * A PR's first review (pull_requests.first_review_at; METRICS.md "PR phases", docs/pr-phases.md)
 * is kept by the database's triggers (src/codehost/sql/pull_request_first_review.sql), whatever
 * order the PR's and its reviews' deliveries arrive in. Each delivery goes through the functions the
 * code-host webhook applies (applyPullRequestAndReviewers, applyPullRequestReview), one transaction
 * each, as the webhook runs them; the application sends no first-review statement of its own.
 */
import { expect } from 'chai';
import { PullRequestEvent } from '../../src/codehost/events.js';
import { applyPullRequestAndReviewers, applyPullRequestReview, PullRequestReviewEvent } from '../../src/codehost/reviews.js';
import { freshDatabase } from '../helpers/database.js';
import { buildTenant, dbFor } from '../helpers/factories.js';
import { fixture } from './helpers.js';
import type { Executor } from '../../src/aiSessions/activityLinks.js';
import { until } from '../helpers/until.js';

const REPO = 'acme/first-review';
const T = (hour: number) => `2026-03-02T${String(hour).padStart(2, '0')}:00:00.000Z`;

describe('first review of a PR: kept by the database in any delivery order', function () {
  this.timeout(60_000);
  let databaseUrl: string;
  let tenantId: string;
  let reviewId = 0;

  before(async () => {
    databaseUrl = await freshDatabase();
    tenantId = (await buildTenant(databaseUrl)).tenantId;
  });

  const db = () => dbFor(databaseUrl).db;

  type Apply = (tx: Executor) => Promise<void>;
  /** A `pull_request` delivery of PR `n` by `author` (null: the code host named none), at `updated`. */
  function prDelivery(n: number, author: string | null, updated: number, action = 'opened'): Apply {
    const event = fixture('pull_request.opened');
    Object.assign(event, { action, repository: { ...event.repository, full_name: REPO } });
    Object.assign(event.pull_request, { id: 9_000 + n, number: n, user: author ? { login: author, type: 'User' } : null, created_at: T(1), updated_at: T(updated), requested_reviewers: [] });
    const parsed = PullRequestEvent.parse(event);
    return (tx) => applyPullRequestAndReviewers(tx, tenantId, parsed);
  }
  const pr = (n: number, author: string | null, updated: number, action = 'opened') => db().transaction(prDelivery(n, author, updated, action));

  /** A `pull_request_review` `submitted` by `login` at `hour`; `id` given to redeliver one. */
  function reviewDelivery(n: number, login: string, hour: number, id = ++reviewId): Apply {
    const parsed = PullRequestReviewEvent.parse({
      action: 'submitted',
      repository: { full_name: REPO },
      review: { id, user: { login, type: login.endsWith('-app') ? 'Bot' : 'User' }, state: 'commented', submitted_at: T(hour) },
      pull_request: { number: n, updated_at: T(hour) },
    });
    return (tx) => applyPullRequestReview(tx, tenantId, parsed);
  }
  const review = (n: number, login: string, hour: number, id?: number) => db().transaction(reviewDelivery(n, login, hour, id));

  /** A delivery applied in a transaction that stays open until `commit()`; `isApplied()` once its statements have run. */
  function heldOpen(apply: Apply) {
    let commit = () => {};
    const gate = new Promise<void>((done) => (commit = done));
    let applied = false;
    const committed = db().transaction(async (tx) => {
      await apply(tx);
      applied = true;
      await gate;
    });
    return { isApplied: () => applied, commit, committed };
  }
  /** Sessions of this database waiting on an advisory lock (pg_stat_activity). */
  const waitingOnLock = async () => (await dbFor(databaseUrl).pool.query(
    `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'`)).rows[0].n as number;

  const firstReview = async (n: number): Promise<string | null> => {
    const { rows } = await dbFor(databaseUrl).pool.query(
      `select pr.first_review_at from pull_requests pr join projects p on p.id = pr.project_id where p.tenant_id = $1 and p.project_key = $2 and pr.number = $3`,
      [tenantId, REPO, n]);
    expect(rows, `PR ${n} is stored`).to.have.length(1);
    return rows[0].first_review_at?.toISOString() ?? null;
  };

  it('a review stored before its PR: the PR\'s first delivery finds it', async () => {
    await review(1, 'bob', 5);
    await pr(1, 'ann', 2);
    expect(await firstReview(1)).to.equal(T(5));
  });

  it('the author\'s own review (any case) and a bot\'s (type Bot, or a [bot] login) never count, before or after the PR', async () => {
    await review(2, 'ANN', 3);
    await review(2, 'dependabot[bot]', 3);
    await pr(2, 'ann', 2);
    expect(await firstReview(2)).to.equal(null);
    await review(2, 'Ann', 4);
    await review(2, 'ci-app', 4);
    await review(2, 'renovate[bot]', 4);
    expect(await firstReview(2)).to.equal(null);
    await review(2, 'cat', 9);
    expect(await firstReview(2)).to.equal(T(9));
  });

  it('an author learnt or changed on a later delivery: the first review is recomputed for that author', async () => {
    await pr(3, null, 2);
    await review(3, 'ann', 4);
    await review(3, 'bob', 6);
    // No author known: every reviewer counts.
    expect(await firstReview(3)).to.equal(T(4));
    await pr(3, 'ANN', 7, 'edited');
    expect(await firstReview(3)).to.equal(T(6));
    await pr(3, 'bob', 8, 'edited');
    expect(await firstReview(3)).to.equal(T(4));
    // An older delivery (the upsert skips it) changes nothing, the first review included.
    await pr(3, 'ann', 3, 'edited');
    expect(await firstReview(3)).to.equal(T(4));
  });

  it('a PR and its review written by overlapping transactions, in either order: the second waits for the first and the first review is kept', async () => {
    await pr(20, 'ann', 2); // the repository exists: neither transaction below waits on its row
    for (const [n, first, second] of [[21, prDelivery(21, 'ann', 2), reviewDelivery(21, 'bob', 5)], [22, reviewDelivery(22, 'bob', 5), prDelivery(22, 'ann', 2)]] as const) {
      const a = heldOpen(first);
      await until(`PR ${n}: the first transaction applied`, async () => a.isApplied() || null);
      const b = heldOpen(second);
      // Without the PR's lock the second runs through at once, seeing none of the first's rows.
      await until(`PR ${n}: the second transaction waits for the first, or has run`, async () => (b.isApplied() || (await waitingOnLock()) === 1) || null);
      a.commit();
      await a.committed;
      await until(`PR ${n}: the second transaction applied`, async () => b.isApplied() || null);
      b.commit();
      await b.committed;
      expect(await firstReview(n), `PR ${n}`).to.equal(T(5));
    }
  });

  it('an earlier review delivered late moves it earlier; a later one, or a redelivery, does not', async () => {
    await pr(4, 'ann', 2);
    await review(4, 'bob', 10);
    expect(await firstReview(4)).to.equal(T(10));
    const early = ++reviewId;
    await review(4, 'cat', 6, early);
    expect(await firstReview(4)).to.equal(T(6));
    await review(4, 'dan', 8);
    expect(await firstReview(4)).to.equal(T(6));
    await review(4, 'cat', 6, early);
    expect(await firstReview(4)).to.equal(T(6));
    // A later delivery of the PR recomputes the same moment from the stored reviews.
    await pr(4, 'ann', 11, 'synchronize');
    expect(await firstReview(4)).to.equal(T(6));
    const { rows } = await dbFor(databaseUrl).pool.query(
      `select count(*)::int as n from pull_request_reviews r join projects p on p.id = r.project_id where p.tenant_id = $1 and r.pull_request_number = 4`, [tenantId]);
    expect(rows[0].n).to.equal(3);
  });
});
