import { and, eq, inArray, lte, sql } from "drizzle-orm";
import { z } from "zod";
import { pullRequestReviewers } from "../db/schema/index.js";
import { ensureProject } from "./events.js";
const Login = z.object({ login: z.string().min(1) });
const PullRequestReviewEvent = z.object({
  action: z.string(),
  repository: z.object({ full_name: z.string().min(3) }),
  review: z.object({
    id: z.number(),
    user: Login.nullish(),
    state: z.string(),
    submitted_at: z.string().nullish()
  }),
  pull_request: z.object({ number: z.number().int(), updated_at: z.string().nullish() })
});
const VERDICTS = ["approved", "changes_requested"];
async function setState(tx, tenantId, projectId, number, reviewer, state, at, over) {
  const newer = sql`${pullRequestReviewers.at} <= excluded.at`;
  await tx.insert(pullRequestReviewers).values({ tenantId, projectId, pullRequestNumber: number, reviewer, state, at }).onConflictDoUpdate({
    target: [pullRequestReviewers.projectId, pullRequestReviewers.pullRequestNumber, pullRequestReviewers.reviewer],
    set: { state, at, updatedAt: sql`now()` },
    setWhere: over ? and(newer, inArray(pullRequestReviewers.state, over)) : newer
  });
}
const whereReviewer = (projectId, number, reviewer) => and(eq(pullRequestReviewers.projectId, projectId), eq(pullRequestReviewers.pullRequestNumber, number), eq(pullRequestReviewers.reviewer, reviewer));
async function applyReviewRequest(tx, tenantId, event) {
  if (event.action !== "review_requested" && event.action !== "review_request_removed") return;
  const reviewer = event.requested_reviewer?.login;
  if (!reviewer) return;
  const project = await ensureProject(tx, tenantId, event.repository.full_name);
  if (!project.syncPullRequests) return;
  const at = new Date(event.pull_request.updated_at ?? Date.now());
  const number = event.pull_request.number;
  if (event.action === "review_requested") {
    await setState(tx, tenantId, project.id, number, reviewer, "requested", at);
  } else {
    await tx.delete(pullRequestReviewers).where(and(whereReviewer(project.id, number, reviewer), eq(pullRequestReviewers.state, "requested"), lte(pullRequestReviewers.at, at)));
  }
}
async function applyPullRequestReview(tx, tenantId, event) {
  const reviewer = event.review.user?.login;
  if (!reviewer) return;
  const project = await ensureProject(tx, tenantId, event.repository.full_name);
  if (!project.syncPullRequests) return;
  const number = event.pull_request.number;
  const at = new Date(event.review.submitted_at ?? event.pull_request.updated_at ?? Date.now());
  const state = event.review.state.toLowerCase();
  if (event.action === "dismissed" || state === "dismissed") {
    await tx.update(pullRequestReviewers).set({ state: "dismissed", updatedAt: sql`now()` }).where(and(whereReviewer(project.id, number, reviewer), inArray(pullRequestReviewers.state, [...VERDICTS]), lte(pullRequestReviewers.at, at)));
    return;
  }
  if (event.action !== "submitted") return;
  if (VERDICTS.includes(state)) await setState(tx, tenantId, project.id, number, reviewer, state, at);
  else if (state === "commented") await setState(tx, tenantId, project.id, number, reviewer, "commented", at, ["requested", "commented", "dismissed"]);
}
export {
  PullRequestReviewEvent,
  applyPullRequestReview,
  applyReviewRequest
};
