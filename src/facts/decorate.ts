/**
 * Names and links of a list's rows (issue 46 point 4): a person by the register's name, a row by
 * the URL of its source. Neither is a number nor in the semantic layer (the cubes carry ids, never
 * names: docs/drill-through.md "People by name"), so they are read here, by the rows' own ids,
 * from the tenant's register and stored facts: one query per kind of lookup, for the rows shown.
 */
import type pg from 'pg';
import type { FactKind, FactRow } from './presenters.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A link the browser may follow: http(s) only (a `javascript:` URL from a webhook must never become an href). */
const WEB_URL = /^https?:\/\/[^\s]+$/i;
const safeUrl = (url: string | null | undefined): string | null => (url && WEB_URL.test(url) ? url : null);

type Mutable = Record<string, unknown>;

/** The name a person is shown by: the register's display name, else their e-mail, else their register reference. */
async function personNames(pool: pg.Pool, tenantId: string, ids: string[]): Promise<Map<string, string>> {
  const uuids = [...new Set(ids.filter((id) => UUID.test(id)).map((id) => id.toLowerCase()))];
  const names = new Map<string, string>();
  if (uuids.length === 0) return names;
  const people = await pool.query<{ id: string; name: string }>(
    `select id::text, coalesce(nullif(display_name, ''), email, external_ref) as name from people where tenant_id = $1 and id = any($2::uuid[])`,
    [tenantId, uuids],
  );
  for (const r of people.rows) names.set(r.id, r.name);
  const rest = uuids.filter((id) => !names.has(id));
  if (rest.length === 0) return names;
  // An AI session that matched no person is keyed by its uploader (a user of this organisation)…
  const users = await pool.query<{ id: string; name: string }>(
    `select u.id::text, coalesce(nullif(u.display_name, ''), u.email) as name from users u
     join tenant_memberships m on m.user_id = u.id and m.tenant_id = $1 where u.id = any($2::uuid[])`,
    [tenantId, rest],
  );
  for (const r of users.rows) names.set(r.id, `${r.name} (not in the register)`);
  const telemetry = rest.filter((id) => !names.has(id));
  if (telemetry.length === 0) return names;
  // …or, for telemetry, by the digest of the e-mail (or account) it named (cube_ai_sessions' user_key).
  const named = await pool.query<{ id: string; name: string }>(
    `select distinct k.id::text, k.name from (
       select md5(coalesce('email:' || person_email, 'account:' || person_account))::uuid as id, coalesce(person_email, person_account) as name
       from ai_sessions where tenant_id = $1 and user_id is null
       union all
       select md5(coalesce('email:' || person_email, 'account:' || person_account))::uuid, coalesce(person_email, person_account)
       from ai_telemetry_days where tenant_id = $1
     ) k where k.id = any($2::uuid[])`,
    [tenantId, telemetry],
  );
  for (const r of named.rows) names.set(r.id, `${r.name} (not in the register)`);
  return names;
}

/** Code-host usernames (as the PRs carry them) to the register's names of the people they belong to. */
async function usernameNames(pool: pg.Pool, tenantId: string, usernames: string[]): Promise<Map<string, string>> {
  const values = [...new Set(usernames.map((u) => u.toLowerCase()))];
  const names = new Map<string, string>();
  if (values.length === 0) return names;
  const { rows } = await pool.query<{ value: string; name: string }>(
    `select pi.value, coalesce(nullif(p.display_name, ''), p.email, p.external_ref) as name
     from person_identities pi join people p on p.id = pi.person_id and p.tenant_id = pi.tenant_id
     where pi.tenant_id = $1 and pi.kind = 'codehost_username' and pi.value = any($2::text[])`,
    [tenantId, values],
  );
  for (const r of rows) names.set(r.value, r.name);
  return names;
}

/** One fixed statement per table (no SQL is built from text). */
const URL_QUERIES = {
  deployments: 'select id::text, url from deployments where tenant_id = $1 and id = any($2::uuid[])',
  pull_requests: 'select id::text, url from pull_requests where tenant_id = $1 and id = any($2::uuid[])',
  issues: 'select id::text, url from issues where tenant_id = $1 and id = any($2::uuid[])',
  commits: 'select id::text, url from commits where tenant_id = $1 and id = any($2::uuid[])',
} as const;

/** The stored URL of each row id in a table of facts (only tables with a `url` column). */
async function urls(pool: pg.Pool, tenantId: string, table: 'deployments' | 'pull_requests' | 'issues' | 'commits', ids: string[]): Promise<Map<string, string | null>> {
  const uuids = [...new Set(ids.filter((id) => UUID.test(id)))];
  if (uuids.length === 0) return new Map();
  const { rows } = await pool.query<{ id: string; url: string | null }>(URL_QUERIES[table], [tenantId, uuids]);
  return new Map(rows.map((r) => [r.id, safeUrl(r.url)]));
}

const ids = (rows: FactRow[], key: string): string[] => rows.map((r) => (r as unknown as Mutable)[key]).filter((v): v is string => typeof v === 'string');

/**
 * Adds each row's names (`authorName`, `name`, `peopleNames`) and link (`url`) in place. A person
 * the register does not know keeps their username or key as the name; a row whose source sent no
 * URL has none.
 */
export async function decorate(pool: pg.Pool, tenantId: string, kind: FactKind, rows: FactRow[]): Promise<void> {
  if (rows.length === 0) return;
  const all = rows as unknown as Mutable[];
  switch (kind) {
    case 'deployments': {
      const found = await urls(pool, tenantId, 'deployments', ids(rows, 'id'));
      for (const r of all) r.url = found.get(String(r.id)) ?? null;
      return;
    }
    case 'pull_requests':
    case 'change_lead_times': {
      const [found, names] = await Promise.all([urls(pool, tenantId, 'pull_requests', ids(rows, 'id')), usernameNames(pool, tenantId, ids(rows, 'author'))]);
      for (const r of all) {
        r.url = found.get(String(r.id)) ?? null;
        r.authorName = typeof r.author === 'string' ? (names.get(r.author.toLowerCase()) ?? r.author) : null;
      }
      return;
    }
    case 'issues':
    case 'incidents': {
      const found = await urls(pool, tenantId, 'issues', ids(rows, 'id'));
      for (const r of all) r.url = found.get(String(r.id)) ?? null;
      return;
    }
    case 'ai_sessions':
    case 'ai_users': {
      const names = await personNames(pool, tenantId, ids(rows, 'user'));
      for (const r of all) {
        r.name = typeof r.user === 'string' ? (names.get(r.user.toLowerCase()) ?? r.user) : null;
        // The session's own page in the web app (docs/ai.md).
        if (kind === 'ai_sessions') r.url = `/app/ai/sessions/${encodeURIComponent(String(r.id))}`;
      }
      return;
    }
    case 'seat_holders':
    case 'members': {
      const names = await personNames(pool, tenantId, ids(rows, 'person'));
      for (const r of all) r.name = names.get(String(r.person).toLowerCase()) ?? String(r.person);
      return;
    }
    case 'ai_commits': {
      const keys = all.flatMap((r) => (typeof r.people === 'string' ? r.people.split(', ') : []));
      const [found, names] = await Promise.all([urls(pool, tenantId, 'commits', ids(rows, 'id')), personNames(pool, tenantId, keys)]);
      for (const r of all) {
        r.url = found.get(String(r.id)) ?? null;
        r.peopleNames = typeof r.people === 'string' ? r.people.split(', ').map((k) => names.get(k.toLowerCase()) ?? k).join(', ') : null;
      }
      return;
    }
    case 'survey_counts':
      return;
  }
}
