function presentMe(me) {
  const tenant = (t) => ({ id: t.id, name: t.name, slug: t.slug, role: t.role });
  return {
    user: { id: me.user.id, email: me.user.email, displayName: me.user.displayName },
    tenants: me.tenants.map(tenant),
    activeTenant: tenant(me.activeTenant)
  };
}
function presentFeatures(config) {
  return { billing: config.billing !== null };
}
export {
  presentFeatures,
  presentMe
};
