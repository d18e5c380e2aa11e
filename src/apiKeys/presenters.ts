import type { ApiKeyRow } from './service.js';

export function presentApiKey(key: ApiKeyRow) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    createdBy: { userId: key.userId, email: key.creatorEmail },
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}

/** The only time the secret is ever shown. */
export function presentNewApiKey(key: ApiKeyRow, secret: string) {
  return { ...presentApiKey(key), key: secret };
}
