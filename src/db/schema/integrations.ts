import { index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants, users } from './identity.js';

/** The vendors a tenant connects with OAuth; each has its own folder under src/integrations/. */
export const INTEGRATION_KINDS = ['jira', 'linear', 'slack', 'notion'] as const;
export type IntegrationKind = (typeof INTEGRATION_KINDS)[number];

/**
 * `active` works; `needs_reconnect` means the vendor refused our grant (expired, revoked: an owner
 * must connect again); `needs_attention` means the grant works but the tenant's settings at the
 * vendor do not (a deleted parent page, a removed project).
 */
export const CONNECTION_STATES = ['active', 'needs_reconnect', 'needs_attention'] as const;
export type ConnectionState = (typeof CONNECTION_STATES)[number];

/**
 * One OAuth connection of a tenant to a vendor site or workspace (`external_id`: Jira cloud id,
 * Linear organization id, Slack team id, Notion workspace id). Tokens are AES-256-GCM ciphertext
 * under a key derived from OAUTH_ENCRYPTION_KEY, bound to the row's tenant, kind and external id
 * (src/integrations/shared/connections.ts), so a copied ciphertext does not open elsewhere.
 */
export const integrationConnections = pgTable(
  'integration_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<IntegrationKind>().notNull(),
    externalId: text('external_id').notNull(),
    displayName: text('display_name'),
    scopes: text('scopes'),
    accessTokenSealed: text('access_token_sealed').notNull(),
    refreshTokenSealed: text('refresh_token_sealed'),
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }),
    /** Vendor-specific choices of the owner (project mapping, digest channels, parent page). */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    state: text('state').$type<ConnectionState>().notNull().default('active'),
    /** Why the state is not `active`, in words an owner can act on; never a vendor's raw body. */
    stateDetail: text('state_detail'),
    lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
    lastError: text('last_error'),
    connectedBy: uuid('connected_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('integration_connections_tenant_kind_external').on(t.tenantId, t.kind, t.externalId),
    // Inbound vendor requests name the workspace, not the tenant: this finds the tenant.
    index('integration_connections_kind_external').on(t.kind, t.externalId),
  ],
);

/**
 * Vendor webhook deliveries already taken (Notion event ids, Jira webhook identifiers), so a
 * replayed or redelivered one is not applied twice. Not tenant data: the id is claimed before the
 * delivery's tenant is known, so no tenant_id and no privilege for the tenant role (migration 0043).
 * Rows only need to outlive the deliveries' replay windows: a day is kept.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    /** `notion`, `jira`. */
    vendor: text('vendor').notNull(),
    deliveryId: text('delivery_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.vendor, t.deliveryId] }), index('webhook_deliveries_received_idx').on(t.receivedAt)],
);
