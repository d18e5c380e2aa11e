import { AppError } from "../errors.js";
const OWNER_ONLY = "Only an owner of the tenant can do this";
const NOT_YOURS = "You do not have permission to do this";
const owner = (p) => p.role === "owner";
const anyone = (_p) => true;
const ownerOrAuthor = (p, record) => p.role === "owner" || record.userId === p.userId;
const policies = {
  /** Owners see and revoke every key of the tenant; members only their own. */
  "key.listAll": { allows: owner, refusal: NOT_YOURS },
  "key.revoke": { allows: ownerOrAuthor, refusal: NOT_YOURS },
  /** The organisation's name. */
  "tenant.manage": { allows: owner, refusal: OWNER_ONLY },
  /** Which source a project's deployments come from (webhook API, code-host deployments, workflow runs, releases). */
  "deploymentSource.manage": { allows: owner, refusal: OWNER_ONLY },
  /** Any member sees who belongs to the tenant; only owners change roles, remove people or invite. */
  "member.list": { allows: anyone, refusal: NOT_YOURS },
  "member.manage": { allows: owner, refusal: NOT_YOURS },
  "invitation.manage": { allows: owner, refusal: NOT_YOURS },
  /** The register and the AI-seat file define who counts: owners import them (sync or as a job). */
  "register.import": { allows: owner, refusal: OWNER_ONLY },
  "seats.import": { allows: owner, refusal: OWNER_ONLY },
  /** Teams: enabling them, their projects and their manual members. */
  "team.manage": { allows: owner, refusal: OWNER_ONLY },
  /** A person's manual identities (which e-mail and code-host accounts are theirs). */
  "person.manage": { allows: owner, refusal: OWNER_ONLY },
  /** Creating and closing surveys, and the personal links (each one a respondent's credential). */
  "survey.manage": { allows: owner, refusal: OWNER_ONLY },
  /** Trackers (Jira, Linear), Slack and Notion: connecting, settings, backfills and disconnecting. */
  "integration.manage": { allows: owner, refusal: OWNER_ONLY },
  /** Linking a code-host installation to the tenant (API and setup page) and unlinking it. */
  "codehost.link": { allows: owner, refusal: OWNER_ONLY },
  /** The subscription: plan, seats, checkout. */
  "billing.manage": { allows: owner, refusal: OWNER_ONLY },
  /** BI credentials read the whole tenant's facts: only owners issue, list and revoke them. */
  "bi.manage": { allows: owner, refusal: NOT_YOURS },
  /** The organisation's AI provider, key and token budget. */
  "ai.manage": { allows: owner, refusal: OWNER_ONLY },
  /** A notebook: its author changes it; shared, any member reads and re-runs it. */
  "notebook.change": { allows: (p, notebook) => notebook.userId === p.userId, refusal: NOT_YOURS },
  /** AI sessions: any member reads metadata; the transcript and deletion belong to its uploader and owners. */
  "session.readTranscript": { allows: ownerOrAuthor, refusal: NOT_YOURS },
  "session.delete": { allows: ownerOrAuthor, refusal: NOT_YOURS }
};
const ACTIONS = Object.keys(policies);
function can(actor, action, ...target) {
  if (actor.kind === "system") return true;
  return policies[action].allows(actor, target[0]);
}
function authorize(actor, action, ...target) {
  if (!can(actor, action, ...target)) throw new AppError("forbidden", policies[action].refusal);
}
export {
  ACTIONS,
  authorize,
  can,
  policies
};
