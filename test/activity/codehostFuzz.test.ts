/**
 * Fuzz (issue 43): GitHub's own example payloads of every event the code-host webhook reads, each
 * mutated at one to three places by a seeded PRNG (a string becomes another type, garbage, a huge
 * string or a date that does not parse; a number a string, a negative or a huge one; a field goes
 * or becomes null), then signed correctly and sent over real HTTP. No answer is a 500: each is a
 * 200/202 with the delivery's outcome or a 400 with the validation envelope naming the fields,
 * and a refused delivery writes nothing of the tenant (test/helpers/hostile.ts `Footprint`).
 * Deterministic: CODEHOST_FUZZ_SEED repeats another run, CODEHOST_FUZZ_DELIVERIES sets its size.
 */
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { WebhookDefinition } from '@octokit/webhooks-examples';
import { HANDLED_EVENTS } from '../../src/codehost/webhook.js';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { Footprint } from '../helpers/hostile.js';
import { testServer, type Response, type TestServer } from '../helpers/server.js';
import { announceInstallation, codehostEnv, deliver, sign, WEBHOOK } from './helpers.js';

const require = createRequire(import.meta.url);
const FLAVOURS = ['api.github.com', 'ghes-35'];
const definitions = FLAVOURS.flatMap((flavour) => require(`@octokit/webhooks-examples/${flavour}/index.json`) as WebhookDefinition[]);
const SEED = Number(process.env.CODEHOST_FUZZ_SEED ?? 43_0305);
const DELIVERIES = Number(process.env.CODEHOST_FUZZ_DELIVERIES ?? 300);
/** Tenant events come through this installation; installation events through the second, so they never unlink the first. */
const INSTALLATION = 73_000_043;
const INSTALLATION_EVENTS = 73_000_044;

/** mulberry32: a small seeded PRNG, so a failing run is repeated by its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

const BAD_DATES: Json[] = [
  'not a date', '2026-13-45T99:00:00Z', '', '99999-01-01T00:00:00Z', '+099999-01-01T00:00:00Z', '2026-02-30T00:00:00Z', '0000-01-01T00:00:00Z',
  '1969-12-31T23:59:59Z', '2026-05-01', '2026-05-01T12:00:00', '2026-05-01T12:00:00+16:00', 'Infinity', 'NaN', '1715000000', 1_715_000_000, -1, 1e308,
];
const STRINGS: Json[] = ['', ' ', 'x'.repeat(100_000), 'null', '-1', '0', '😀😀', '__proto__', 'constructor', 'ß'.repeat(3000), 'a/b/c', '\u202e', 'ABCDEF1234'];
const NUMBERS: Json[] = [-1, 0, 0.5, -0.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1e308, -1e308, 99_999_999_999_999];
const NUMERIC_STRINGS: Json[] = ['12', 'NaN', '1e3', '-1', '', '0x10', 'Infinity'];
const OTHERS: Json[] = [null, true, false, [], {}, [1, 'a'], { a: 1 }];

/** Parts of every payload that name who and where, not the event's own object. */
const ENVELOPE = new Set(['repository', 'sender', 'organization', 'installation', 'enterprise']);
const isDateKey = (key: string | number | undefined) => typeof key === 'string' && /(_at|timestamp|date)$/.test(key);

/** Every path of `value` (objects, arrays and leaves), depth-first. */
function paths(value: Json, path: Path = [], out: Path[] = []): Path[] {
  if (path.length > 0) out.push(path);
  if (value !== null && typeof value === 'object' && path.length < 8) {
    for (const [key, child] of Object.entries(value)) paths(child, [...path, Array.isArray(value) ? Number(key) : key], out);
  }
  return out;
}

function at(root: Json, path: Path): Json {
  return path.reduce<Json>((node, key) => (node as Record<string | number, Json>)[key] as Json, root);
}

/** One mutation of `root` at `path`: removed, nulled, or replaced by a value of another kind. */
function mutate(root: Json, path: Path, random: () => number): string {
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;
  const parent = at(root, path.slice(0, -1)) as Record<string | number, Json>;
  const key = path[path.length - 1] as string | number;
  const current = parent[key] as Json;
  const roll = random();
  if (roll < 0.12) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
    return `${path.join('.')} removed`;
  }
  let next: Json;
  if (roll < 0.22) next = null;
  else if (isDateKey(key) || (typeof current === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(current))) next = pick([...BAD_DATES, ...BAD_DATES, ...STRINGS, ...OTHERS]);
  else if (typeof current === 'string') next = pick([...STRINGS, ...BAD_DATES, ...NUMBERS, ...OTHERS]);
  else if (typeof current === 'number') next = pick([...NUMBERS, ...NUMBERS, ...NUMERIC_STRINGS, ...OTHERS]);
  else if (typeof current === 'boolean') next = pick(['true', 'false', 0, 1, ...OTHERS]);
  else next = pick([...OTHERS, ...STRINGS.slice(0, 3), ...NUMBERS.slice(0, 3)]);
  parent[key] = next;
  const shown = JSON.stringify(next);
  return `${path.join('.')} = ${shown.length > 40 ? `${shown.slice(0, 40)}… (${shown.length} chars)` : shown}`;
}

/** What is wrong with an answer, or null: a 200/202 with the outcome, or a 400 with the validation envelope. */
function checkAnswer(event: string, res: Response): string | null {
  if (res.status === 400) {
    const error = res.body?.error;
    if (error?.code !== 'validation_failed' || typeof error.message !== 'string' || error.message === '') return 'a 400 without the validation envelope';
    if (!Array.isArray(error.details) || error.details.length === 0) return 'a 400 naming no field';
    const odd = (error.details as unknown[]).find((d) => JSON.stringify(Object.keys(d as object).sort()) !== '["message","path"]' || typeof (d as { path: unknown }).path !== 'string');
    return odd ? `a detail that is not {path, message}: ${JSON.stringify(odd)}` : null;
  }
  if (res.status !== 200 && res.status !== 202) return `status ${res.status}`;
  if (res.body?.data?.event !== event || typeof res.body.data.stored !== 'boolean') return 'an answer without the delivery\'s outcome';
  return null;
}

describe('code-host webhook: fuzzed example payloads never answer 500', function () {
  this.timeout(120_000);
  let api: TestServer;
  let tenant: BuiltTenant;

  before(async () => {
    api = await testServer({ env: codehostEnv() });
    tenant = await buildTenant(api.databaseUrl);
    await announceInstallation(api.databaseUrl, INSTALLATION, INSTALLATION_EVENTS);
    for (const installationId of [INSTALLATION, INSTALLATION_EVENTS]) {
      expect((await api.as(tenant.owner.apiKey).post('/api/integrations/codehost/installations', { installationId })).status).to.equal(201);
    }
    // Runs and releases are stored only by a project that uses them: one repository each, so the
    // fuzzed deliveries reach the writes, not only the source check.
    for (const [repo, settings] of [['fuzz/workflow_run', { source: 'workflow_runs', workflow: '*.yml' }], ['fuzz/release', { source: 'releases' }]] as const) {
      expect((await deliver(api, 'repository', { action: 'created', installation: { id: INSTALLATION }, repository: { full_name: repo } })).status).to.equal(200);
      const [project] = (await dbFor(api.databaseUrl).pool.query('select id from projects where tenant_id = $1 and project_key = $2', [tenant.tenantId, repo])).rows;
      expect((await api.as(tenant.owner.apiKey).put(`/api/deployment-sources/${project.id}`, settings)).status).to.equal(200);
    }
  });
  after(() => api?.close());

  async function send(event: string, payload: Json) {
    const body = Buffer.from(JSON.stringify(payload));
    return api.post(WEBHOOK, new Uint8Array(body), {
      'content-type': 'application/json',
      'x-github-event': event,
      'x-github-delivery': randomUUID(),
      'x-hub-signature-256': sign(body),
      'user-agent': 'GitHub-Hookshot/5a1b2c3',
    });
  }

  it(`${DELIVERIES} mutated, correctly signed deliveries (seed ${SEED}): 200/202 or 400 with the validation envelope, and a refused one writes nothing`, async () => {
    const random = prng(SEED);
    const events = HANDLED_EVENTS.filter((e) => e !== 'ping');
    const examples = new Map(events.map((event) => [event, definitions.filter((d) => d.name === event).flatMap((d) => d.examples) as unknown as Json[]]));
    const { pool } = dbFor(api.databaseUrl);
    const footprint = await Footprint.of(pool, tenant.tenantId, tenant.owner.userId);
    const statuses = new Map<string, number>();
    const failures: string[] = [];
    for (let i = 0; i < DELIVERIES; i += 1) {
      const event = events[i % events.length] as string;
      const list = examples.get(event as (typeof events)[number]) as Json[];
      expect(list, event).to.not.be.empty;
      const payload = structuredClone(list[Math.floor(random() * list.length)]) as Record<string, Json>;
      const installationEvent = event.startsWith('installation');
      payload.installation = { ...(payload.installation as object | undefined), id: installationEvent ? INSTALLATION_EVENTS : INSTALLATION };
      if (!installationEvent && payload.repository && typeof payload.repository === 'object') {
        (payload.repository as Record<string, Json>).full_name = `fuzz/${event.startsWith('deployment') ? 'deployment' : event}`;
      }
      // Mostly the dates of the event's own object (the PR's, the run's…), else anywhere in the payload.
      const all = paths(payload);
      const dates = all.filter((p) => isDateKey(p[p.length - 1]) && !ENVELOPE.has(String(p[0])));
      const changes: string[] = [];
      const count = random() < 0.7 ? 1 : 2 + Math.floor(random() * 2);
      for (let m = 0; m < count; m += 1) {
        const candidates = (random() < 0.6 && dates.length > 0 ? dates : all).filter((p) => {
          try {
            return at(payload, p.slice(0, -1)) !== null && typeof at(payload, p.slice(0, -1)) === 'object';
          } catch {
            return false;
          }
        });
        if (candidates.length === 0) break;
        changes.push(mutate(payload, candidates[Math.floor(random() * candidates.length)] as Path, random));
      }
      const res = await send(event, payload);
      const label = `#${i} ${event}.${String(payload.action ?? '')} ${changes.join('; ')} → ${res.status} ${res.text.slice(0, 300)}`;
      const outcome = res.status === 400 ? 'refused' : res.body?.data?.stored ? 'stored' : 'not stored';
      statuses.set(`${res.status} ${outcome}`, (statuses.get(`${res.status} ${outcome}`) ?? 0) + 1);
      const problem = checkAnswer(event, res);
      const written = await footprint.after(res.status);
      if (problem || written.length > 0) failures.push(`${label}: ${problem ?? `refused, yet wrote ${written.join(', ')}`}`);
    }
    expect(failures.slice(0, 20), `${failures.length} of ${DELIVERIES} deliveries`).to.deep.equal([]);
    // Both sides were reached: deliveries refused, and deliveries stored by every deployment source.
    const seen = JSON.stringify([...statuses]);
    expect(statuses.get('400 refused') ?? 0, seen).to.be.greaterThan(DELIVERIES / 10);
    expect(statuses.get('200 stored') ?? 0, seen).to.be.greaterThan(DELIVERIES / 4);
    const { rows } = await pool.query(`select distinct split_part(external_id, '-', 2) as kind from deployments where tenant_id = $1 order by 1`, [tenant.tenantId]);
    expect(rows.map((r) => r.kind)).to.deep.equal(['deployment', 'release', 'run']);
  });
});
