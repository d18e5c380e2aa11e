/** Every role a tenant membership (and an invitation) can carry; the policies in policies.ts know these two. */
export const ROLES = ['owner', 'member'] as const;
export type Role = (typeof ROLES)[number];
export type Permission = 'admin' | 'read' | 'write';

/** Who is calling, resolved once per request; every service receives it. */
export type Principal =
  | {
      kind: 'session' | 'api_key' | 'oauth';
      tenantId: string;
      userId: string;
      role: Role;
      permissions: Permission[];
      apiKeyId?: string;
      sessionId?: string;
    }
  | { kind: 'admin'; tenantId: null; userId: null; role: null; permissions: Permission[] };

export type TenantPrincipal = Extract<Principal, { kind: 'session' | 'api_key' | 'oauth' }>;

/** The spec's mapping: owners get admin, read and write; every other role read and write. */
export function permissionsOf(role: Role): Permission[] {
  return role === 'owner' ? ['admin', 'read', 'write'] : ['read', 'write'];
}

/**
 * Work on one tenant that no signed-in user does now: the operator's CLI (database credentials) or
 * a job applying a request that was authorized when it was queued. Policies let it through
 * (policies.ts); `by` is what a change records as its author ('cli', or the queuing user's id).
 */
export interface SystemActor {
  kind: 'system';
  tenantId: string;
  by: string;
}

/** Whoever a service function acts for: a tenant's principal or system work on one tenant. */
export type Actor = TenantPrincipal | SystemActor;

export const systemActor = (tenantId: string, by: string): SystemActor => ({ kind: 'system', tenantId, by });

/** The author a change records: the user, or the system work's name. */
export const authorOf = (actor: Actor): string => (actor.kind === 'system' ? actor.by : actor.userId);
