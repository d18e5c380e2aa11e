/** Shared by the Slack tests: the environment pointing at a fake Slack, and an owner's install. */
import { expect } from 'chai';
import { buildSessionCookie, type BuiltTenant } from '../helpers/factories.js';
import type { TestServer } from '../helpers/server.js';
import type { FakeSlack } from './fakes/slack.js';

export const SECRET = 'slack-signing-secret-for-tests';

export function slackEnv(slack: FakeSlack, extra: Record<string, string> = {}): Record<string, string> {
  return { CHAT_CLIENT_ID: slack.clientId, CHAT_CLIENT_SECRET: slack.clientSecret, CHAT_SIGNING_SECRET: SECRET, SLACK_API_BASE_URL: slack.apiUrl, SLACK_AUTHORIZE_URL: slack.authorizeUrl, ...extra };
}

/** The owner presses "Add to Slack", approves at the fake, and comes back to the callback. */
export async function installSlack(api: TestServer, databaseUrl: string, tenant: BuiltTenant): Promise<{ status: number; location: string }> {
  const cookie = await buildSessionCookie(databaseUrl, tenant.owner.userId, tenant.tenantId);
  const start = await api.get('/api/integrations/slack/connect', { cookie });
  expect(start.status).to.equal(302);
  const consent = await fetch(start.headers.get('location') as string, { redirect: 'manual' });
  const back = new URL(consent.headers.get('location') as string);
  const done = await api.get(`${back.pathname}${back.search}`, { cookie });
  return { status: done.status, location: done.headers.get('location') ?? '' };
}

