/** The integrations' credential groups, the chat and docs endpoints, and the issue trackers (src/config/integrations.ts). */
import { expect } from 'chai';
import { parseIntegrations, parseTrackers } from '../../src/config/integrations.js';
import { loadConfig, type Env } from '../../src/config/index.js';
import { parse, problems, VALID } from './helpers.js';

describe('configuration: integrations', () => {
  const GROUPS: Record<string, string[]> = {
    tracker1: ['TRACKER1_CLIENT_ID', 'TRACKER1_SECRET', 'TRACKER1_REDIRECT_URI'],
    tracker2: ['TRACKER2_CLIENT_ID', 'TRACKER2_CLIENT_SECRET'],
    docs: ['DOCS_CLIENT_ID', 'DOCS_CLIENT_SECRET'],
    chat: ['CHAT_CLIENT_ID', 'CHAT_CLIENT_SECRET'],
  };
  for (const [label, names] of Object.entries(GROUPS)) {
    for (const missing of names) {
      it(`${label}: names ${missing} when the rest is set`, () => {
        const env: Env = { ...VALID };
        for (const n of names) if (n !== missing) env[n] = 'value';
        const found = problems(env);
        expect(found).to.have.length(1);
        expect(found[0]).to.include(`${label} (`).and.to.include(`missing ${missing}`);
      });
    }
  }

  it('turns complete groups on; the inbound secrets are read as they are', () => {
    const config = loadConfig({ ...VALID, TRACKER2_CLIENT_ID: 'a', TRACKER2_CLIENT_SECRET: 'b', DOCS_WEBHOOK_SECRET: 'd', CHAT_SIGNING_SECRET: 'c' });
    expect(config.integrations).to.deep.equal({ tracker1: null, tracker2: { TRACKER2_CLIENT_ID: 'a', TRACKER2_CLIENT_SECRET: 'b' }, docs: null, chat: null });
    expect(config).to.deep.include({ docsWebhookSecret: 'd', chatSigningSecret: 'c' });
  });

  it('Slack and Notion endpoints: the vendors\' unless overridden; an override needs its group and https in production', () => {
    expect(parse({}, (r) => parseIntegrations(r, true)).value.vendorUrls).to.deep.equal({
      slackApi: 'https://slack.com/api', slackAuthorize: 'https://slack.com/oauth/v2/authorize', notionApi: 'https://api.notion.com',
    });
    const chat = { CHAT_CLIENT_ID: 'c', CHAT_CLIENT_SECRET: 's' };
    expect(parse({ ...chat, SLACK_API_BASE_URL: 'http://127.0.0.1:5555/api/' }, (r) => parseIntegrations(r, false)).value.vendorUrls.slackApi).to.equal('http://127.0.0.1:5555/api');
    expect(parse({ NOTION_API_BASE_URL: 'https://notion.proxy' }, (r) => parseIntegrations(r, false)).problems)
      .to.deep.equal(['NOTION_API_BASE_URL is set but the docs group (DOCS_CLIENT_ID, DOCS_CLIENT_SECRET) is not']);
    expect(parse({ ...chat, SLACK_AUTHORIZE_URL: 'http://slack.proxy/authorize' }, (r) => parseIntegrations(r, true)).problems)
      .to.deep.equal(['SLACK_AUTHORIZE_URL must use https when NODE_ENV is production']);
  });

  it('parseTrackers alone: Linear\'s callback under the APP_URL it is given', () => {
    const { value } = parse({}, (r) => parseTrackers(r, 'https://a.example/x', false, null, { TRACKER2_CLIENT_ID: 'l', TRACKER2_CLIENT_SECRET: 's' }));
    expect(value).to.deep.equal({ jira: null, linear: { clientId: 'l', clientSecret: 's', redirectUri: 'https://a.example/x/api/integrations/linear/callback', authBaseUrl: 'https://linear.app', apiBaseUrl: 'https://api.linear.app' } });
  });

describe('issue trackers (Jira, Linear)', () => {
  const jira = { TRACKER1_CLIENT_ID: 'jira-id', TRACKER1_SECRET: 'jira-secret', TRACKER1_REDIRECT_URI: 'https://analytics.example.com/api/integrations/jira/callback' };
  const linear = { TRACKER2_CLIENT_ID: 'linear-id', TRACKER2_CLIENT_SECRET: 'linear-secret' };

  it('reads each group with the vendors\' endpoints, or the overrides; Linear\'s callback is under APP_URL', () => {
    const config = loadConfig({ ...VALID, ...jira, ...linear, LINEAR_API_BASE_URL: 'http://127.0.0.1:4010/' });
    expect(config.trackers).to.deep.equal({
      jira: { clientId: 'jira-id', clientSecret: 'jira-secret', redirectUri: 'https://analytics.example.com/api/integrations/jira/callback', authBaseUrl: 'https://auth.atlassian.com', apiBaseUrl: 'https://api.atlassian.com' },
      linear: { clientId: 'linear-id', clientSecret: 'linear-secret', redirectUri: `${config.appUrl}/api/integrations/linear/callback`, authBaseUrl: 'https://linear.app', apiBaseUrl: 'http://127.0.0.1:4010' },
    });
    expect(loadConfig(VALID).trackers).to.deep.equal({ jira: null, linear: null });
  });

  it('an override set without its credentials makes the group partial; production refuses a plain-http one', () => {
    expect(problems({ ...VALID, JIRA_API_BASE_URL: 'https://jira.example.com' })).to.deep.equal([
      'tracker1 (TRACKER1_CLIENT_ID, TRACKER1_SECRET, TRACKER1_REDIRECT_URI) is partially configured: missing TRACKER1_CLIENT_ID, TRACKER1_SECRET, TRACKER1_REDIRECT_URI (set: JIRA_API_BASE_URL)',
    ]);
    expect(problems({ ...VALID, ...linear, NODE_ENV: 'production', APP_URL: 'https://analytics.example.com', LINEAR_AUTH_BASE_URL: 'http://linear.internal' })).to.include('LINEAR_AUTH_BASE_URL must use https when NODE_ENV is production');
  });
});
});
