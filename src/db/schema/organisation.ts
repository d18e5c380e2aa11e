import { boolean, date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './identity.js';

export const EMPLOYMENT_TYPES = ['employee', 'contractor', 'supplier', 'unknown'] as const;
export type EmploymentType = (typeof EMPLOYMENT_TYPES)[number];
export const MEMBERSHIP_SOURCES = ['register', 'manual'] as const;
export type MembershipSource = (typeof MEMBERSHIP_SOURCES)[number];
/** Where a person identity came from: the register, an owner, or the person's own sign-in with a code host. */
export const IDENTITY_SOURCES = ['register', 'manual', 'signin'] as const;
export type IdentitySource = (typeof IDENTITY_SOURCES)[number];
export const IDENTITY_KINDS = ['codehost_username', 'email'] as const;
export type IdentityKind = (typeof IDENTITY_KINDS)[number];

/** A grouping of teams (department, tribe); created by the register import. */
export const orgUnits = pgTable(
  'org_units',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('org_units_tenant_slug').on(t.tenantId, t.slug)],
);

/** Upserted by the register import (matched on slug); `enabled` is changed only through the API. */
export const teams = pgTable(
  'teams',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    externalRef: text('external_ref'),
    costCentreCode: text('cost_centre_code'),
    orgUnitId: uuid('org_unit_id').references(() => orgUnits.id, { onDelete: 'set null' }),
    supplierName: text('supplier_name'),
    deliveryModel: text('delivery_model'),
    locationCountry: text('location_country'),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('teams_tenant_slug').on(t.tenantId, t.slug), index('teams_org_unit_idx').on(t.orgUnitId)],
);

/** A person of the register, matched on `external_ref` (the HR id). `email` is kept as written. */
export const people = pgTable(
  'people',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    externalRef: text('external_ref').notNull(),
    email: text('email'),
    displayName: text('display_name'),
    employmentType: text('employment_type', { enum: EMPLOYMENT_TYPES }).notNull().default('unknown'),
    supplierName: text('supplier_name'),
    costCentreCode: text('cost_centre_code'),
    locationCountry: text('location_country'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('people_tenant_external_ref').on(t.tenantId, t.externalRef)],
);

/**
 * How a person is recognised in other data: code-host usernames and e-mail addresses, stored
 * lower-cased so matching is case-insensitive. One value belongs to at most one person per tenant.
 * `source` 'register' rows (the person's register e-mail) are rewritten by each register import;
 * 'manual' rows are left alone, and so are 'signin' rows (a code-host username the person proved
 * by signing in with it; docs/auth.md).
 */
export const personIdentities = pgTable(
  'person_identities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    personId: uuid('person_id').notNull().references(() => people.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: IDENTITY_KINDS }).notNull(),
    value: text('value').notNull(),
    source: text('source', { enum: IDENTITY_SOURCES }).notNull().default('manual'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('person_identities_tenant_kind_value').on(t.tenantId, t.kind, t.value),
    index('person_identities_person_idx').on(t.personId),
  ],
);

/** Current membership only (no history). At most one row per (team, person). */
export const teamMemberships = pgTable(
  'team_memberships',
  {
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    teamId: uuid('team_id').notNull().references(() => teams.id, { onDelete: 'cascade' }),
    personId: uuid('person_id').notNull().references(() => people.id, { onDelete: 'cascade' }),
    membershipSource: text('membership_source', { enum: MEMBERSHIP_SOURCES }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.personId] }),
    index('team_memberships_tenant_person_idx').on(t.tenantId, t.personId),
  ],
);

/** One row per applied register file; the latest is the headcount source. */
export const registerImports = pgTable(
  'register_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
    rowCount: integer('row_count').notNull(),
    /** The importing user's id, or 'cli' for the offline command. */
    importedBy: text('imported_by').notNull(),
    fileSha256: text('file_sha256').notNull(),
  },
  (t) => [index('register_imports_tenant_time_idx').on(t.tenantId, t.importedAt)],
);

/** One row per applied AI-seat file. */
export const seatImports = pgTable(
  'seat_imports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
    rowCount: integer('row_count').notNull(),
    importedBy: text('imported_by').notNull(),
    fileSha256: text('file_sha256').notNull(),
  },
  (t) => [index('seat_imports_tenant_time_idx').on(t.tenantId, t.importedAt)],
);

/**
 * An AI-tool seat held by a person from `assigned_on` until `revoked_on` (inclusive; NULL = still
 * held). Matched on (person, tool, assigned_on), so re-importing a file is a no-op.
 */
export const seats = pgTable(
  'seats',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    personId: uuid('person_id').notNull().references(() => people.id, { onDelete: 'cascade' }),
    tool: text('tool').notNull(),
    assignedOn: date('assigned_on', { mode: 'string' }).notNull(),
    revokedOn: date('revoked_on', { mode: 'string' }),
    seatImportId: uuid('seat_import_id').references(() => seatImports.id, { onDelete: 'set null' }),
    /** `import` (the seat file) or `copilot` (GitHub's seat list, pulled with the vendor reports). */
    source: text('source').notNull().default('import'),
    /** The vendor's last activity of the seat (Copilot `last_activity_at`); null when it never said. */
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }),
    /** The vendor's account of the seat (Copilot: the assignee's login). */
    externalLogin: text('external_login'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('seats_tenant_person_tool_assigned').on(t.tenantId, t.personId, t.tool, t.assignedOn),
    index('seats_tenant_dates_idx').on(t.tenantId, t.assignedOn, t.revokedOn),
  ],
);
