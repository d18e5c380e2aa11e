/** Survey test helpers: a team with members, the owners' links CSV, and answering like a browser. */
import { expect } from 'chai';
import { people, teamMemberships, teams } from '../../src/db/schema/index.js';
import { dbFor } from '../helpers/factories.js';
import type { TestServer } from '../helpers/server.js';

export async function buildTeam(databaseUrl: string, tenantId: string, slug: string, members: number, enabled = true) {
  const { db } = dbFor(databaseUrl);
  const [team] = await db.insert(teams).values({ tenantId, slug, name: `Team ${slug}`, enabled }).returning();
  const personIds: string[] = [];
  for (let i = 0; i < members; i += 1) {
    const [person] = await db.insert(people).values({ tenantId, externalRef: `${slug}-${i}-${Math.random()}`, email: `${slug}-${i}@example.com`, displayName: `Person ${slug} ${i}`, employmentType: 'employee' }).returning();
    await db.insert(teamMemberships).values({ tenantId, teamId: team!.id, personId: person!.id, membershipSource: 'register' });
    personIds.push(person!.id);
  }
  return { id: team!.id, slug, personIds };
}

/** Pulls the links of a survey through the owners' CSV. */
export async function linksOf(api: TestServer, key: string, surveyId: string): Promise<string[]> {
  const res = await api.as(key).get(`/api/surveys/${surveyId}/links`);
  expect(res.status).to.equal(200);
  return res.text.trim().split('\n').slice(1).map((line) => line.split(',').at(-1)!);
}

/** Opens the form like a browser: returns the CSRF cookie and hidden field value. */
export async function openForm(api: TestServer, path: string) {
  const res = await api.get(path);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  const csrf = /name="csrf" value="([^"]+)"/.exec(res.text)?.[1] ?? '';
  return { res, cookie, csrf };
}

export async function answer(api: TestServer, link: string, values: number[], comment = '') {
  const path = new URL(link).pathname;
  const { cookie, csrf } = await openForm(api, path);
  const form = new URLSearchParams({ csrf, q1: String(values[0]), q2: String(values[1]), q3: String(values[2]), q4: String(values[3]), q5: String(values[4]), comment });
  return api.with({ cookie }).post(path, form.toString(), { 'content-type': 'application/x-www-form-urlencoded' });
}
