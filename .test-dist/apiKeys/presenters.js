function presentApiKey(key) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    createdBy: { userId: key.userId, email: key.creatorEmail },
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null
  };
}
function presentNewApiKey(key, secret) {
  return { ...presentApiKey(key), key: secret };
}
export {
  presentApiKey,
  presentNewApiKey
};
