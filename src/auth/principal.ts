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
