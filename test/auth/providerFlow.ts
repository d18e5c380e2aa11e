/**
 * The sign-in tests' browser without a browser: one cookie jar per origin (the app on 127.0.0.1,
 * the fake provider on 127.0.0.2), manual redirects, from `GET /auth/<provider>` to the callback.
 */
import { count } from 'drizzle-orm';
import { freePort } from '../../src/dev.js';
import { externalIdentities, loginSessions, personIdentities, tenantMemberships, tenants, users } from '../../src/db/schema/index.js';
import { dbFor } from '../helpers/factories.js';
import { fakeGitHub, type FakeGitHub } from '../helpers/fakeGitHub.js';
import { fakeOidc, type FakeOidc } from '../helpers/fakeOidc.js';
import type { Env } from '../../src/config/index.js';
import { browse, Jar } from '../mcp/oauthFlow.js';

export interface Fakes {
  port: number;
  appUrl: string;
  github: FakeGitHub;
  gitlab: FakeOidc;
  google: FakeOidc;
  microsoft: FakeOidc;
  env: Env;
  close(): Promise<void>;
}

/** The four fake providers and the environment that points the app at them (its port chosen first). */
export async function startFakes(): Promise<Fakes> {
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  const cb = (p: string) => `${appUrl}/auth/${p}/callback`;
  const [github, gitlab, google, microsoft] = await Promise.all([
    fakeGitHub({ redirectUri: cb('github') }),
    fakeOidc({ redirectUris: [cb('gitlab')], clientId: 'gitlab-app' }),
    fakeOidc({ redirectUris: [cb('google')], clientId: 'google-app.apps.googleusercontent.com' }),
    fakeOidc({ redirectUris: [cb('microsoft')], clientId: '00000000-entra-app' }),
  ]);
  const env: Env = {
    CODEHOST_CLIENT_ID: github.clientId, CODEHOST_CLIENT_SECRET: github.clientSecret, CODEHOST_BASE_URL: github.url, CODEHOST_API_URL: github.url,
    CODEHOST2_CLIENT_ID: gitlab.clientId, CODEHOST2_CLIENT_SECRET: gitlab.clientSecret, CODEHOST2_REDIRECT_URI: cb('gitlab'), CODEHOST2_BASE_URL: gitlab.issuer,
    IDP1_CLIENT_ID: google.clientId, IDP1_CLIENT_SECRET: google.clientSecret, IDP1_REDIRECT_URI: cb('google'), IDP1_ISSUER: google.issuer,
    IDP2_CLIENT_ID: microsoft.clientId, IDP2_CLIENT_SECRET: microsoft.clientSecret, IDP2_ISSUER: microsoft.issuer,
  };
  return {
    port, appUrl, github, gitlab, google, microsoft, env,
    close: async () => void (await Promise.all([github.close(), gitlab.close(), google.close(), microsoft.close()])),
  };
}

export interface Browser {
  app: Jar;
  idp: Jar;
}

export const newBrowser = (): Browser => ({ app: new Jar(), idp: new Jar() });

/**
 * Starts at `GET /auth/<provider>` and follows the redirects through the provider back to the
 * callback, which is fetched (its response is returned). `editCallback` may change the callback URL
 * first; when it returns false the callback is not fetched (`res` is then the provider's last answer).
 */
export async function signInWith(appUrl: string, provider: string, browser = newBrowser(), query = '', editCallback?: (url: URL) => void | false): Promise<{ res: Response; callback: URL; browser: Browser; start: Response }> {
  const start = await browse(browser.app, `${appUrl}/auth/${provider}${query}`);
  let location = start.headers.get('location') ?? '';
  if (start.status !== 303 || location.startsWith('/')) return { res: start, callback: new URL(location, appUrl), browser, start };
  let res = start;
  for (let hops = 0; !location.startsWith(appUrl); hops++) {
    if (hops > 6) throw new Error(`too many redirects at the provider, last ${location}`);
    res = await browse(browser.idp, location);
    const next = res.headers.get('location');
    if (!next) throw new Error(`provider answered ${res.status} at ${location}: ${await res.text()}`);
    location = new URL(next, location).href;
  }
  const callback = new URL(location);
  if (editCallback?.(callback) === false) return { res, callback, browser, start };
  return { res: await browse(browser.app, callback.href), callback, browser, start };
}

/** Rows that a refused sign-in must not create. */
export async function rowCounts(databaseUrl: string): Promise<Record<string, number>> {
  const { db } = dbFor(databaseUrl);
  const of = async (table: Parameters<typeof db.select>[0] extends never ? never : any) => ((await db.select({ n: count() }).from(table))[0] as { n: number }).n;
  return {
    users: await of(users), tenants: await of(tenants), memberships: await of(tenantMemberships),
    externalIdentities: await of(externalIdentities), loginSessions: await of(loginSessions), personIdentities: await of(personIdentities),
  };
}
