import { boolean, date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenants } from "./identity.js";
const EMPLOYMENT_TYPES = ["employee", "contractor", "supplier", "unknown"];
const MEMBERSHIP_SOURCES = ["register", "manual"];
const IDENTITY_SOURCES = ["register", "manual", "signin"];
const IDENTITY_KINDS = ["codehost_username", "email"];
const orgUnits = pgTable(
  "org_units",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [uniqueIndex("org_units_tenant_slug").on(t.tenantId, t.slug)]
);
const teams = pgTable(
  "teams",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    externalRef: text("external_ref"),
    costCentreCode: text("cost_centre_code"),
    orgUnitId: uuid("org_unit_id").references(() => orgUnits.id, { onDelete: "set null" }),
    supplierName: text("supplier_name"),
    deliveryModel: text("delivery_model"),
    locationCountry: text("location_country"),
    enabled: boolean("enabled").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [uniqueIndex("teams_tenant_slug").on(t.tenantId, t.slug), index("teams_org_unit_idx").on(t.orgUnitId)]
);
const people = pgTable(
  "people",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    externalRef: text("external_ref").notNull(),
    email: text("email"),
    displayName: text("display_name"),
    employmentType: text("employment_type", { enum: EMPLOYMENT_TYPES }).notNull().default("unknown"),
    supplierName: text("supplier_name"),
    costCentreCode: text("cost_centre_code"),
    locationCountry: text("location_country"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [uniqueIndex("people_tenant_external_ref").on(t.tenantId, t.externalRef)]
);
const personIdentities = pgTable(
  "person_identities",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    personId: uuid("person_id").notNull().references(() => people.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: IDENTITY_KINDS }).notNull(),
    value: text("value").notNull(),
    source: text("source", { enum: IDENTITY_SOURCES }).notNull().default("manual"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [
    uniqueIndex("person_identities_tenant_kind_value").on(t.tenantId, t.kind, t.value),
    index("person_identities_person_idx").on(t.personId)
  ]
);
const teamMemberships = pgTable(
  "team_memberships",
  {
    tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    teamId: uuid("team_id").notNull().references(() => teams.id, { onDelete: "cascade" }),
    personId: uuid("person_id").notNull().references(() => people.id, { onDelete: "cascade" }),
    membershipSource: text("membership_source", { enum: MEMBERSHIP_SOURCES }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.personId] }),
    index("team_memberships_tenant_person_idx").on(t.tenantId, t.personId)
  ]
);
const registerImports = pgTable(
  "register_imports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    importedAt: timestamp("imported_at", { withTimezone: true }).notNull().defaultNow(),
    rowCount: integer("row_count").notNull(),
    /** The importing user's id, or 'cli' for the offline command. */
    importedBy: text("imported_by").notNull(),
    fileSha256: text("file_sha256").notNull()
  },
  (t) => [index("register_imports_tenant_time_idx").on(t.tenantId, t.importedAt)]
);
const seatImports = pgTable(
  "seat_imports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    importedAt: timestamp("imported_at", { withTimezone: true }).notNull().defaultNow(),
    rowCount: integer("row_count").notNull(),
    importedBy: text("imported_by").notNull(),
    fileSha256: text("file_sha256").notNull()
  },
  (t) => [index("seat_imports_tenant_time_idx").on(t.tenantId, t.importedAt)]
);
const seats = pgTable(
  "seats",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    personId: uuid("person_id").notNull().references(() => people.id, { onDelete: "cascade" }),
    tool: text("tool").notNull(),
    assignedOn: date("assigned_on", { mode: "string" }).notNull(),
    revokedOn: date("revoked_on", { mode: "string" }),
    seatImportId: uuid("seat_import_id").references(() => seatImports.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [
    uniqueIndex("seats_tenant_person_tool_assigned").on(t.tenantId, t.personId, t.tool, t.assignedOn),
    index("seats_tenant_dates_idx").on(t.tenantId, t.assignedOn, t.revokedOn)
  ]
);
export {
  EMPLOYMENT_TYPES,
  IDENTITY_KINDS,
  IDENTITY_SOURCES,
  MEMBERSHIP_SOURCES,
  orgUnits,
  people,
  personIdentities,
  registerImports,
  seatImports,
  seats,
  teamMemberships,
  teams
};
