import { AppError } from '../errors.js';
import type { Actor, TenantPrincipal } from './principal.js';

/**
 * Every permission rule, in one table (docs/authorization.md). Service functions call `authorize`
 * before they change or reveal what a rule protects, so the REST API, MCP tools, jobs and CLI
 * commands meet the same rule; a route may name a rule too (`auth: { policy }` in route.ts), which
 * only runs this same rule earlier, in the order the API answers (401, then 403, then 400).
 *
 * Tenant scoping happens before a policy runs (a record of another tenant is already "not found");
 * a policy only decides what a principal may do inside its tenant. `refusal` is the 403 message.
 */
const OWNER_ONLY = 'Only an owner of the tenant can do this';
const NOT_YOURS = 'You do not have permission to do this';

const owner = (p: TenantPrincipal) => p.role === 'owner';
const anyone = (_p: TenantPrincipal) => true;
const ownerOrAuthor = (p: TenantPrincipal, record: { userId: string | null }) => p.role === 'owner' || record.userId === p.userId;

export const policies = {
  /** Owners see and revoke every key of the tenant; members only their own. */
  'key.listAll': { allows: owner, refusal: NOT_YOURS },
  'key.revoke': { allows: ownerOrAuthor, refusal: NOT_YOURS },
  /** The organisation's name. */
  'tenant.manage': { allows: owner, refusal: OWNER_ONLY },
  /** Which source a project's deployments come from (webhook API, code-host deployments, workflow runs, releases). */
  'deploymentSource.manage': { allows: owner, refusal: OWNER_ONLY },
  /** Any member sees who belongs to the tenant; only owners change roles, remove people or invite. */
  'member.list': { allows: anyone, refusal: NOT_YOURS },
  'member.manage': { allows: owner, refusal: NOT_YOURS },
  'invitation.manage': { allows: owner, refusal: NOT_YOURS },
  /** The register and the AI-seat file define who counts: owners import them (sync or as a job). */
  'register.import': { allows: owner, refusal: OWNER_ONLY },
  'seats.import': { allows: owner, refusal: OWNER_ONLY },
  /** Teams: enabling them, their projects and their manual members. */
  'team.manage': { allows: owner, refusal: OWNER_ONLY },
  /** A person's manual identities (which e-mail and code-host accounts are theirs). */
  'person.manage': { allows: owner, refusal: OWNER_ONLY },
  /** Creating and closing surveys, and the personal links (each one a respondent's credential). */
  'survey.manage': { allows: owner, refusal: OWNER_ONLY },
  /** Trackers (Jira, Linear), Slack and Notion: connecting, settings, backfills and disconnecting. */
  'integration.manage': { allows: owner, refusal: OWNER_ONLY },
  /** Linking a code-host installation to the tenant (API and setup page) and unlinking it. */
  'codehost.link': { allows: owner, refusal: OWNER_ONLY },
  /** The subscription: plan, seats, checkout. */
  'billing.manage': { allows: owner, refusal: OWNER_ONLY },
  /** BI credentials read the whole tenant's facts: only owners issue, list and revoke them. */
  'bi.manage': { allows: owner, refusal: NOT_YOURS },
  /** The organisation's AI provider, key and token budget, and the AI tools' vendor report keys (Settings › AI). */
  'ai.manage': { allows: owner, refusal: OWNER_ONLY },
  /** The labels that mark a PR as AI-assisted besides ai-assisted (they change every team's AI share). */
  'aiAttribution.manage': { allows: owner, refusal: OWNER_ONLY },
  /** How many merged PRs each AI attribution signal found: how the organisation's sources are set up. */
  'aiAttribution.signals': { allows: owner, refusal: OWNER_ONLY },
  /** A notebook: its author changes it; shared, any member reads and re-runs it. */
  'notebook.change': { allows: (p: TenantPrincipal, notebook: { userId: string }) => notebook.userId === p.userId, refusal: NOT_YOURS },
  /** AI sessions: any member reads metadata; the transcript and deletion belong to its uploader and owners. */
  'session.readTranscript': { allows: ownerOrAuthor, refusal: NOT_YOURS },
  'session.delete': { allows: ownerOrAuthor, refusal: NOT_YOURS },
} as const;

export type Action = keyof typeof policies;
type Rule<A extends Action> = (typeof policies)[A]['allows'];
/** The record a rule looks at (a key, a notebook, a session), or nothing. */
export type TargetOf<A extends Action> = Parameters<Rule<A>> extends [unknown, infer T] ? [T] : [];
/** The rules that need no record: the ones a route may name (`auth: { policy }`). */
export type TenantAction = { [A in Action]: TargetOf<A> extends [] ? A : never }[Action];

/** Every action of the table, in its order (tests enumerate it). */
export const ACTIONS = Object.keys(policies) as Action[];

/**
 * The actions of the table that need no record (`TenantAction`), in its order. A rule that looks
 * at a record takes it as its second parameter, so the table itself says which these are.
 */
export const TENANT_ACTIONS = ACTIONS.filter((a) => policies[a].allows.length < 2) as TenantAction[];

/**
 * The tenant actions the principal may take, evaluated by the same rules `authorize` runs
 * (`GET /api/users/me` → `data.actions`, which the web app reads instead of the role).
 */
export function allowedActions(principal: TenantPrincipal): TenantAction[] {
  return TENANT_ACTIONS.filter((action) => can(principal, action));
}

/**
 * The actions of a record the principal may take on it, by the same rules (a detail answer's
 * `actions`, e.g. `GET /api/sessions/:id`): the web app reads them instead of comparing roles or ids.
 */
export function allowedOn<A extends Action>(principal: TenantPrincipal, actions: readonly A[], ...target: TargetOf<A>): A[] {
  return actions.filter((action) => (can as (actor: Actor, action: Action, ...target: unknown[]) => boolean)(principal, action, ...target));
}

/**
 * Whether the actor may. System work (the operator's CLI, a job whose request was authorized when
 * it was queued) holds the database already: no rule of a tenant's roles applies to it.
 */
export function can<A extends Action>(actor: Actor, action: A, ...target: TargetOf<A>): boolean {
  if (actor.kind === 'system') return true;
  return (policies[action].allows as (p: TenantPrincipal, t?: unknown) => boolean)(actor, target[0]);
}

/** Throws the action's 403 (`forbidden`) unless the actor may. */
export function authorize<A extends Action>(actor: Actor, action: A, ...target: TargetOf<A>): void {
  if (!can(actor, action, ...target)) throw new AppError('forbidden', policies[action].refusal);
}
