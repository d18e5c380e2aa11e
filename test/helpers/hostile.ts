/**
 * Hostile request bodies for every JSON endpoint, derived from the zod schemas that validate them
 * (through their JSON Schema): mostly well-formed values, with strings, numbers, timestamps and
 * free-form objects that PostgreSQL cannot store mixed in, plus raw bodies no schema describes
 * (invalid UTF-8, lone surrogates, 5,000 levels of nesting). Used by the property test
 * (test/foundation/fuzz.test.ts) and by `npm run fuzz` (bench/fuzz.ts), which both check that no
 * answer is a 500 and that a refused request wrote no row.
 */
import fc from 'fast-check';
import type pg from 'pg';
import { z } from 'zod';
import { CubeQuery } from '../../src/cube/query.js';
import { CreateKeyBody } from '../../src/apiKeys/schemas.js';
import { JsonEmailBody } from '../../src/identity/schemas.js';
import { LinkBody } from '../../src/codehost/schemas.js';
import { MemberBody, PersonPatch, TeamPatch } from '../../src/organisation/schemas.js';
import { CaptureBody, SessionBody } from '../../src/aiSessions/schemas.js';
import { CreateSurveyBody } from '../../src/surveys/schemas.js';
import { UpdateMeBody } from '../../src/users/schemas.js';
import { CreateInvitationBody } from '../../src/members/schemas.js';
import { DeploymentWebhook, IssueWebhook } from '../../src/webhooks/schemas.js';

/** Ids the paths of some endpoints need (a team and a person of the tenant). */
export interface Seed {
  teamId: string;
  personId: string;
}

export interface JsonEndpoint {
  method: 'POST' | 'PATCH' | 'PUT';
  path: (seed: Seed) => string;
  schema: z.ZodType;
  /** The body around the schema's value (the Cube API takes `{query}`). */
  wrap?: (value: unknown) => unknown;
  anonymous?: boolean;
}

/** Every endpoint that reads a JSON body through a zod schema (MCP's JSON-RPC has its own transport). */
export const JSON_ENDPOINTS: JsonEndpoint[] = [
  { method: 'POST', path: () => '/api/webhooks/v1/issues', schema: IssueWebhook },
  { method: 'POST', path: () => '/api/webhooks/v1/deployments', schema: DeploymentWebhook },
  { method: 'POST', path: () => '/api/sessions', schema: SessionBody },
  { method: 'PUT', path: () => '/api/sessions/by-external-id/fuzz-capture', schema: CaptureBody },
  { method: 'POST', path: () => '/api/keys', schema: CreateKeyBody },
  { method: 'POST', path: () => '/api/invitations', schema: CreateInvitationBody },
  { method: 'PATCH', path: () => '/api/users/me', schema: UpdateMeBody },
  { method: 'POST', path: () => '/api/surveys', schema: CreateSurveyBody },
  { method: 'PATCH', path: (s) => `/api/teams/${s.teamId}`, schema: TeamPatch },
  { method: 'POST', path: (s) => `/api/teams/${s.teamId}/members`, schema: MemberBody },
  { method: 'PATCH', path: (s) => `/api/people/${s.personId}`, schema: PersonPatch },
  { method: 'POST', path: () => '/api/integrations/codehost/installations', schema: LinkBody },
  { method: 'POST', path: () => '/cubejs-api/v1/load', schema: CubeQuery, wrap: (query) => ({ query }) },
  { method: 'POST', path: () => '/cubejs-api/v1/sql', schema: CubeQuery, wrap: (query) => ({ query }) },
  { method: 'POST', path: () => '/auth/email', schema: JsonEmailBody, anonymous: true },
];

const HOSTILE_STRINGS = [
  '', ' ', '\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\ud83d', '😀', '\u202e', '\uffff', '__proto__', 'constructor',
  "'; drop table issues; --", '%00', '\\u0000', 'x'.repeat(5000), '0000-01-01T00:00:00Z', '2024-05-01T12:00:00+16:00',
  '10000-01-01', '1969-12-31', 'NaN', '-1', '2147483648', 'acme/web', 'a/b\u0000', 'ABCDEF1', '00000000-0000-0000-0000-000000000000',
];
const hostileString = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.tuple(fc.string({ maxLength: 8 }), fc.constantFrom('\u0000', '\ud800', '\udc00'), fc.string({ maxLength: 8 })).map((p) => p.join('')),
  fc.string({ unit: 'binary', maxLength: 20 }),
);
const hostileNumber = fc.constantFrom(2_147_483_648, -2_147_483_649, 2 ** 53, -1, 0, 0.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2);
const hostileScalar = fc.oneof(hostileString, hostileNumber, fc.constantFrom(null, true, false, [], {}));

const TIMESTAMPS = [
  '0000-01-01T00:00:00Z', '2024-05-01T12:00:00+16:00', '2024-05-01T12:00:00-23:59', '2024-05-01T12:00:00+15:59', '1969-12-31T23:59:59Z',
  '1970-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '9999-12-31T23:59:59-01:00', '2024-02-29T00:00:00Z', '2023-02-29T00:00:00Z',
  '2024-05-01T12:00:00.123456789Z', '2024-05-01 12:00:00Z', '2024-05-01T24:00:00Z', '+020000-01-01T00:00:00Z',
];
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const timestamp = fc.oneof(
  { weight: 4, arbitrary: fc.date({ min: new Date(Date.UTC(1970, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true }).map((d) => d.toISOString()) },
  fc.constantFrom(...TIMESTAMPS),
  fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), fc.integer({ min: -23, max: 23 }), fc.integer({ min: 0, max: 59 }))
    .map(([y, m, d, h, min]) => `${pad(y, 4)}-${pad(m)}-${pad(d)}T10:00:00${h < 0 ? '-' : '+'}${pad(Math.abs(h))}:${pad(min)}`),
);
const date = fc.oneof(
  { weight: 4, arbitrary: fc.date({ min: new Date(Date.UTC(1970, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)) },
  fc.constantFrom('0000-01-01', '1969-12-31', '1970-01-01', '9999-12-31', '2023-02-29', '2024-13-01'),
);

/** Free-form JSON with hostile keys and strings, sometimes deeper than any limit. */
const freeJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: fc.dictionary(fc.oneof(fc.string({ maxLength: 6 }), hostileString), fc.oneof(hostileScalar, fc.jsonValue({ maxDepth: 2 })), { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.integer({ min: 5, max: 40 }).map((depth) => nest(depth)) },
);

function nest(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i += 1) value = i % 2 ? [value] : { a: value };
  return value;
}

type Node = Record<string, any>;

/**
 * An arbitrary for a JSON Schema node (zod's output): valid values seven times in eight, hostile
 * ones otherwise (so that a good share of bodies is valid as a whole and reaches the database). `known` gives real values for a pattern (Cube member names).
 */
function arbitraryOf(node: Node, defs: Node, known: Record<string, string[]>, depth: number): fc.Arbitrary<unknown> {
  const hostile = (valid: fc.Arbitrary<unknown>, other: fc.Arbitrary<unknown> = hostileScalar) =>
    fc.oneof({ weight: 7, arbitrary: valid }, { weight: 1, arbitrary: other });
  if (node.$ref) {
    if (depth > 6) return hostileScalar;
    return arbitraryOf(defs[String(node.$ref).split('/').pop() as string] as Node, defs, known, depth + 1);
  }
  const branches = (node.anyOf ?? node.oneOf) as Node[] | undefined;
  if (branches) return fc.oneof(...branches.map((b) => arbitraryOf(b, defs, known, depth + 1)));
  if (node.enum) return hostile(fc.constantFrom(...(node.enum as unknown[])));
  if (node.const !== undefined) return hostile(fc.constant(node.const));
  if (Array.isArray(node.type)) return fc.oneof(...(node.type as string[]).map((type) => arbitraryOf({ ...node, type }, defs, known, depth)));
  switch (node.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return hostile(fc.boolean());
    case 'integer':
    case 'number': {
      const min = Math.max(node.minimum ?? -1_000_000, -1_000_000_000);
      const max = Math.min(node.maximum ?? 1_000_000, 1_000_000_000);
      return hostile(node.type === 'integer' ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true }), fc.oneof(hostileNumber, hostileString));
    }
    case 'string':
      return hostile(validString(node, known), hostileString);
    case 'array': {
      if (node.prefixItems) return hostile(fc.tuple(...(node.prefixItems as Node[]).map((n) => arbitraryOf(n, defs, known, depth + 1))));
      const item = node.items ? arbitraryOf(node.items as Node, defs, known, depth + 1) : freeJson;
      return hostile(fc.array(item, { minLength: Math.min(node.minItems ?? 0, 3), maxLength: Math.min(node.maxItems ?? 4, 4) }));
    }
    case 'object': {
      if (!node.properties) return hostile(freeJson.filter((v) => v !== null && typeof v === 'object' && !Array.isArray(v)), freeJson);
      const props = Object.fromEntries(Object.entries(node.properties as Record<string, Node>).map(([k, n]) => [k, arbitraryOf(n, defs, known, depth + 1)]));
      const record = fc.record(props, { requiredKeys: (node.required ?? []) as string[] });
      const extra = fc.tuple(record, fc.oneof(fc.string({ maxLength: 5 }), hostileString), hostileScalar).map(([r, k, v]) => ({ ...(r as object), [k]: v }));
      return fc.oneof({ weight: 14, arbitrary: record }, { weight: 1, arbitrary: extra }, { weight: 1, arbitrary: hostileScalar });
    }
    default:
      return freeJson;
  }
}

function validString(node: Node, known: Record<string, string[]>): fc.Arbitrary<unknown> {
  if (node.format === 'date-time') return timestamp;
  if (node.format === 'date') return date;
  if (node.format === 'uuid') return fc.uuid();
  if (node.format === 'email') return fc.emailAddress();
  const pattern = node.pattern as string | undefined;
  if (pattern && known[pattern]) return fc.constantFrom(...known[pattern]!);
  if (pattern) {
    try {
      return fc.stringMatching(new RegExp(pattern)).filter((s) => s.length <= (node.maxLength ?? 1000));
    } catch {
      /* a pattern fast-check cannot invert: plain strings */
    }
  }
  return fc.string({ minLength: node.minLength ?? 0, maxLength: Math.min(node.maxLength ?? 40, 40) });
}

/** A body: text or bytes, and what it is meant to be (for reports). */
export interface HostileCase {
  endpoint: JsonEndpoint;
  body: string | Buffer;
  [fc.toStringMethod]?: () => string;
}

/** Bodies no schema describes: broken encodings, surrogate escapes, absurd nesting, wrong shapes. */
function rawHostile(valid: fc.Arbitrary<string>): fc.Arbitrary<string | Buffer> {
  return fc.oneof(
    valid.map((text) => Buffer.concat([Buffer.from(text.slice(0, -1)), Buffer.from([0xff, 0xc3, 0x28]), Buffer.from(text.slice(-1))])),
    valid.map((text) => text.replace(/"([^"\\]*)"/, '"\\ud800$1"')),
    valid.map((text) => text.replace(/"([^"\\]*)"/, '"$1\\u0000"')),
    valid.map((text) => (text.startsWith('{') && text.length > 2 ? `{"metadata":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)},${text.slice(1)}` : text)),
    fc.constantFrom('[]', '1', '"x"', 'null', '{', '{"a":1e400}', '{"number":123456789012345678901234567890}', `${'['.repeat(5000)}${']'.repeat(5000)}`, '\ufeff{}', ''),
  );
}

/** Cases for these endpoints; `known` as for arbitraryOf. */
export function hostileCases(endpoints: JsonEndpoint[], known: Record<string, string[]> = {}): fc.Arbitrary<HostileCase> {
  return fc.oneof(
    ...endpoints.map((endpoint) => {
      const json = z.toJSONSchema(endpoint.schema, { io: 'input', unrepresentable: 'any' }) as Node;
      const wrap = endpoint.wrap ?? ((v: unknown) => v);
      const valid = arbitraryOf(json, (json.$defs ?? {}) as Node, known, 0).map((value) => JSON.stringify(wrap(value)) ?? 'null');
      return fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: rawHostile(valid) }).map((body): HostileCase => ({
        endpoint,
        body,
        // fast-check prints a counterexample with this, not the whole zod schema.
        [fc.toStringMethod]: () => describeCase({ endpoint, body }, { teamId: ':id', personId: ':id' }),
      }));
    }),
  );
}

export const CUBE_MEMBER_PATTERN = '^[A-Za-z_][A-Za-z0-9_]{0,99}\\.[A-Za-z_][A-Za-z0-9_]{0,99}$';

/**
 * What a tenant has in the database, table by table: row count and a hash of the rows' `xmin`
 * (the transaction that last wrote each), so an insert, update or delete shows. Some tables
 * are counted only (COUNT_ONLY: rate-limit counters of keys), tables jobs write on their own
 * are left out (JOB_WRITTEN), and so are the KeyRing's keys. Read after every request: a refused
 * one must leave it as the previous request left it.
 */
// Written by background jobs on their own time (rollup refresh, invitations, workflow state, the
// delivery-facts catch-up, which takes notes and writes facts and AI attribution levels every 5 s; a code-host backfill's walk).
const JOB_WRITTEN = new Set(['survey_invitations', 'stale_integrations', 'cube_rollup_changes', 'cube_rollups', 'workflow_checkpoints',
  'delivery_facts_pending', 'deployment_facts', 'change_lead_times', 'pull_request_ai_levels', 'codehost_backfills']);
// Rows that change without a request being at fault: key counters, a survey's sending state.
const COUNT_ONLY = new Set(['api_keys', 'surveys']);

export class Footprint {
  private last = new Map<string, string>();
  private constructor(private readonly pool: pg.Pool, private readonly text: string, private readonly values: string[]) {}

  static async of(pool: pg.Pool, tenantId: string, userId: string): Promise<Footprint> {
    const { rows: tables } = await pool.query<{ table_name: string }>(
      `select c.table_name from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
       where c.table_schema = 'public' and c.column_name = 'tenant_id' and t.table_type = 'BASE TABLE' order by 1`,
    );
    const xmins = `coalesce(sum(hashtext(xmin::text)::bigint), 0)::text`;
    const parts = tables
      .map((t) => t.table_name)
      .filter((name) => !JOB_WRITTEN.has(name))
      .map((name) => {
        const own = name === 'api_keys' ? ` and name <> '${KEY_RING_NAME}'` : '';
        return `select '${name}' as t, count(*)::text || ':' || ${COUNT_ONLY.has(name) ? `''` : xmins} as f from "${name}" where tenant_id = $1${own}`;
      });
    parts.push(`select 'users' as t, count(*)::text || ':' || ${xmins} as f from users where id = $2`);
    const footprint = new Footprint(pool, parts.join(' union all '), [tenantId, userId]);
    footprint.last = await footprint.read();
    return footprint;
  }

  private async read(): Promise<Map<string, string>> {
    const { rows } = await this.pool.query<{ t: string; f: string }>({ name: 'fuzz-footprint', text: this.text, values: this.values });
    return new Map(rows.map((r) => [r.t, r.f]));
  }

  /** After a request: the tables it changed when it was refused (status 400 and up), else []. */
  async after(status: number): Promise<string[]> {
    const now = await this.read();
    const changed = [...now.keys()].filter((t) => this.last.get(t) !== now.get(t));
    this.last = now;
    return status >= 400 ? changed : [];
  }
}

export const KEY_RING_NAME = 'fuzz-key-ring';

/**
 * API keys of one user, each used for at most 90 requests, so that no rate limit answers instead
 * of the endpoint. `mint` makes a key named KEY_RING_NAME.
 */
export class KeyRing {
  private keys: string[] = [];
  private uses = 0;
  constructor(private readonly mint: () => Promise<string>) {}

  async next(): Promise<string> {
    if (this.keys.length === 0 || this.uses >= 90) {
      this.keys.push(await this.mint());
      this.uses = 0;
    }
    this.uses += 1;
    return this.keys[this.keys.length - 1]!;
  }
}

export interface Outcome {
  status: number;
  /** Tables a refused request (status 400 and up) wrote to; empty for an accepted one. */
  written: string[];
}

/** Sends one case to the server at `baseUrl`, then reads the tenant's footprint. */
export async function sendCase(baseUrl: string, c: HostileCase, seed: Seed, key: string, footprint: Footprint): Promise<Outcome> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (!c.endpoint.anonymous) headers.authorization = `Bearer ${key}`;
  const res = await fetch(`${baseUrl}${c.endpoint.path(seed)}`, { method: c.endpoint.method, headers, body: c.body as BodyInit });
  await res.arrayBuffer();
  return { status: res.status, written: await footprint.after(res.status) };
}

/** `c` as one line for a report: method, path and the body's first characters. */
export function describeCase(c: HostileCase, seed: Seed): string {
  const text = typeof c.body === 'string' ? c.body : c.body.toString('latin1');
  return `${c.endpoint.method} ${c.endpoint.path(seed)} ${JSON.stringify(text.slice(0, 300))}${text.length > 300 ? ` … (${text.length} chars)` : ''}`;
}

/** A team and a person for the paths that name one, through the register import. */
export async function seedTenant(baseUrl: string, key: string): Promise<Seed> {
  const auth = { authorization: `Bearer ${key}` };
  const file = 'external_ref,email,display_name,employment_type,supplier_name,cost_centre_code,location_country,team_slug,team_name,team_external_ref,team_cost_centre_code,org_unit_slug\n'
    + 'F1,fuzz.person@example.com,Fuzz Person,employee,,CC1,GB,fuzz,Fuzz,T1,CC1,\n';
  const imported = await fetch(`${baseUrl}/api/register/imports`, { method: 'POST', headers: { ...auth, 'content-type': 'text/csv' }, body: file });
  if (imported.status !== 201) throw new Error(`seed import answered ${imported.status}: ${await imported.text()}`);
  const teams = (await (await fetch(`${baseUrl}/api/teams`, { headers: auth })).json()) as { data: { id: string }[] };
  const people = (await (await fetch(`${baseUrl}/api/people`, { headers: auth })).json()) as { data: { id: string }[] };
  return { teamId: teams.data[0]!.id, personId: people.data[0]!.id };
}

/** The Cube members, so that generated queries reach the planner and not only "unknown member". */
export async function cubeMembers(): Promise<Record<string, string[]>> {
  const { loadCube } = await import('../../src/cube/compiler.js');
  const cube = await loadCube();
  return { [CUBE_MEMBER_PATTERN]: Object.keys(cube.members) };
}
