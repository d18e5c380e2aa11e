const ROLES = ["owner", "member"];
function permissionsOf(role) {
  return role === "owner" ? ["admin", "read", "write"] : ["read", "write"];
}
const systemActor = (tenantId, by) => ({ kind: "system", tenantId, by });
const authorOf = (actor) => actor.kind === "system" ? actor.by : actor.userId;
export {
  ROLES,
  authorOf,
  permissionsOf,
  systemActor
};
