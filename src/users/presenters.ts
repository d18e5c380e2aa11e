import type { Me } from './service.js';

export function presentMe(me: Me) {
  const tenant = (t: Me['activeTenant']) => ({ id: t.id, name: t.name, slug: t.slug, role: t.role });
  return {
    user: { id: me.user.id, email: me.user.email, displayName: me.user.displayName },
    tenants: me.tenants.map(tenant),
    activeTenant: tenant(me.activeTenant),
    actions: me.actions,
  };
}

/** The server's optional features (`GET /api/users/me` → `meta.features`). */
export function presentFeatures(config: { billing: unknown }) {
  return { billing: config.billing !== null };
}
