import { AppError } from '../errors.js';
import type { TenantPrincipal } from './principal.js';

/**
 * Every role rule in one table. Tenant scoping happens before a policy runs (a record of another
 * tenant is already "not found"); a policy only decides what a principal may do inside its tenant.
 */
const policies = {
  /** Owners revoke any key of the tenant; members only their own. */
  'key.revoke': (p: TenantPrincipal, key: { userId: string }) => p.role === 'owner' || key.userId === p.userId,
  'tenant.manage': (p: TenantPrincipal) => p.role === 'owner',
  /** Any member sees who belongs to the tenant; only owners change roles, remove people or invite. */
  'member.list': (_p: TenantPrincipal) => true,
  'member.manage': (p: TenantPrincipal) => p.role === 'owner',
  'invitation.manage': (p: TenantPrincipal) => p.role === 'owner',
  /** BI credentials read the whole tenant's facts: only owners issue, list and revoke them. */
  'bi.manage': (p: TenantPrincipal) => p.role === 'owner',
  /** The organisation's AI provider, key and token budget: owners only. */
  'ai.manage': (p: TenantPrincipal) => p.role === 'owner',
  /** A notebook: its author changes it; shared, any member reads and re-runs it. */
  'notebook.change': (p: TenantPrincipal, notebook: { userId: string }) => notebook.userId === p.userId,
  /** AI sessions: any member reads metadata; the transcript and deletion belong to its uploader and owners. */
  'session.readTranscript': (p: TenantPrincipal, session: { userId: string }) => p.role === 'owner' || session.userId === p.userId,
  'session.delete': (p: TenantPrincipal, session: { userId: string }) => p.role === 'owner' || session.userId === p.userId,
} as const;

export type Action = keyof typeof policies;

export function can<A extends Action>(principal: TenantPrincipal, action: A, ...target: Parameters<(typeof policies)[A]> extends [unknown, infer T] ? [T] : []): boolean {
  return (policies[action] as (p: TenantPrincipal, t?: unknown) => boolean)(principal, target[0]);
}

export function authorize<A extends Action>(principal: TenantPrincipal, action: A, ...target: Parameters<(typeof policies)[A]> extends [unknown, infer T] ? [T] : []): void {
  if (!can(principal, action, ...target)) throw new AppError('forbidden', 'You do not have permission to do this');
}
