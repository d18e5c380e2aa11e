/**
 * Code-host review events → where each reviewer of a pull request stands (pull_request_reviewers),
 * the source of an open PR's waiting state on the open-work page (docs/open-work.md):
 * - `pull_request` `review_requested` / `review_request_removed` of a person: asked, or no longer
 *   (kept as `dismissed`: no longer counts);
 * - `pull_request_review` `submitted`: approved, changes requested or commented (a comment does not
 *   undo an approval or a change request, as on the code host); `dismissed`: that verdict no longer holds.
 * A request of a team (`requested_team`) names no person: it is not kept, so it never makes a PR
 * wait on nobody. Each change carries the code host's moment; an older delivery changes nothing newer.
 */
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import { pullRequestReviewers, pullRequestReviews } from '../db/schema/index.js';
import type { Executor } from '../aiSessions/activityLinks.js';
import { applyPullRequest, ensureProject, Time, type PullRequestEvent } from './events.js';

export type ReviewerState = (typeof pullRequestReviewers.$inferSelect)['state'];

const Login = z.object({ login: z.string().min(1), type: z.string().nullish() });

/** A review as the code host gives it, in its event and in `GET …/pulls/{n}/reviews` (the backfill). */
export const Review = z.object({
  id: z.number(),
  user: Login.nullish(),
  state: z.string(),
  submitted_at: Time,
});

export const PullRequestReviewEvent = z.object({
  action: z.string(),
  repository: z.object({ full_name: z.string().min(3) }),
  review: Review,
  pull_request: z.object({ number: z.number().int(), updated_at: Time }),
});

const VERDICTS = ['approved', 'changes_requested'] as const;

/**
 * Sets a reviewer's state when the stored one is not newer (and, if given, is one of `over`). A
 * dismissal holds at its own moment: only a strictly newer state replaces it, so the dismissed
 * review's own `submitted` (same `submitted_at`), replayed under a new delivery id, cannot bring
 * its verdict back.
 */
async function setState(tx: Executor, tenantId: string, projectId: string, number: number, reviewer: string, state: ReviewerState, at: Date, over?: ReviewerState[]): Promise<void> {
  const newer = sql`(${pullRequestReviewers.at} < excluded.at OR (${pullRequestReviewers.at} = excluded.at AND ${pullRequestReviewers.state} <> 'dismissed'))`;
  await tx
    .insert(pullRequestReviewers)
    .values({ tenantId, projectId, pullRequestNumber: number, reviewer, state, at })
    .onConflictDoUpdate({
      target: [pullRequestReviewers.projectId, pullRequestReviewers.pullRequestNumber, pullRequestReviewers.reviewer],
      set: { state, at, updatedAt: sql`now()` },
      setWhere: over ? and(newer, inArray(pullRequestReviewers.state, over)) : newer,
    });
}

const whereReviewer = (projectId: string, number: number, reviewer: string) =>
  and(eq(pullRequestReviewers.projectId, projectId), eq(pullRequestReviewers.pullRequestNumber, number), eq(pullRequestReviewers.reviewer, reviewer));

/** `review_requested` / `review_request_removed` of a person, after the PR itself was applied. */
export async function applyReviewRequest(tx: Executor, tenantId: string, event: z.infer<typeof PullRequestEvent>): Promise<void> {
  if (event.action !== 'review_requested' && event.action !== 'review_request_removed') return;
  const reviewer = event.requested_reviewer?.login;
  if (!reviewer) return;
  const project = await ensureProject(tx, tenantId, event.repository.full_name);
  if (!project.syncPullRequests) return;
  const at = new Date(event.pull_request.updated_at ?? Date.now());
  const number = event.pull_request.number;
  if (event.action === 'review_requested') {
    await setState(tx, tenantId, project.id, number, reviewer, 'requested', at);
  } else {
    // Withdrawn before an answer: the person no longer counts (`dismissed`, which no view shows).
    // The row stays, with the removal's moment, so the request re-sent or delivered late cannot
    // bring it back; kept even when the request was never seen, for the same reason.
    await setState(tx, tenantId, project.id, number, reviewer, 'dismissed', at, ['requested']);
  }
}

/** A GitHub App's account (`type` Bot, or a login ending in `[bot]`): its reviews are no one's pickup. */
export const isBot = (user: { login: string; type?: string | null }): boolean => user.type === 'Bot' || user.login.toLowerCase().endsWith('[bot]');

const SUBMITTED = new Set(['approved', 'changes_requested', 'commented', 'dismissed']);

/**
 * Keeps a submitted review (pull_request_reviews; docs/pr-phases.md). When it is someone else's
 * than the PR's author and not a bot's, its insert trigger moves the PR's first review to it if
 * earlier (src/codehost/sql/pull_request_first_review.sql). A review met again (a redelivery, the
 * backfill) inserts nothing and changes nothing. A pending review (not submitted) is not kept.
 */
export async function recordReview(tx: Executor, tenantId: string, projectId: string, number: number, review: z.infer<typeof Review>): Promise<void> {
  const state = review.state.toLowerCase();
  if (!review.user || !review.submitted_at || !SUBMITTED.has(state)) return;
  await tx.insert(pullRequestReviews)
    .values({ tenantId, projectId, pullRequestNumber: number, reviewId: review.id, reviewer: review.user.login, reviewerIsBot: isBot(review.user), state: state as 'approved', submittedAt: new Date(review.submitted_at) })
    .onConflictDoNothing();
}

export async function applyPullRequestReview(tx: Executor, tenantId: string, event: z.infer<typeof PullRequestReviewEvent>): Promise<void> {
  const reviewer = event.review.user?.login;
  if (!reviewer) return;
  const project = await ensureProject(tx, tenantId, event.repository.full_name);
  if (!project.syncPullRequests) return;
  const number = event.pull_request.number;
  const at = new Date(event.review.submitted_at ?? event.pull_request.updated_at ?? Date.now());
  const state = event.review.state.toLowerCase();
  if (event.action === 'submitted') await recordReview(tx, tenantId, project.id, number, event.review);
  if (event.action === 'dismissed' || state === 'dismissed') {
    // The dismissed review's verdict, unless the reviewer has given a newer one since.
    await tx.update(pullRequestReviewers).set({ state: 'dismissed', at: sql`greatest(${pullRequestReviewers.at}, ${at})`, updatedAt: sql`now()` })
      .where(and(whereReviewer(project.id, number, reviewer), inArray(pullRequestReviewers.state, [...VERDICTS]), lte(pullRequestReviewers.at, at)));
    return;
  }
  if (event.action !== 'submitted') return;
  if ((VERDICTS as readonly string[]).includes(state)) await setState(tx, tenantId, project.id, number, reviewer, state as ReviewerState, at);
  // A comment answers a request, but leaves an approval or a change request standing.
  else if (state === 'commented') await setState(tx, tenantId, project.id, number, reviewer, 'commented', at, ['requested', 'commented', 'dismissed']);
}

/** A `pull_request` event: the PR, then the reviewer a review request names (the webhook's and the backfill's path). */
export async function applyPullRequestAndReviewers(tx: Executor, tenantId: string, event: z.infer<typeof PullRequestEvent>): Promise<void> {
  await applyPullRequest(tx, tenantId, event);
  await applyReviewRequest(tx, tenantId, event);
}
