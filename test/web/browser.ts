/**
 * A real Chromium (Debian's /usr/bin/chromium) driven by playwright-core, against the real server.
 * Pages are found by role and label; screenshots of every page go to test-results/ for review.
 */
import { mkdirSync } from 'node:fs';
import type { Env } from '../../src/config/index.js';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ensureWebBuilt } from '../../src/webBuild.js';
import { buildMember, buildSessionCookie } from '../helpers/factories.js';
import { fakePaddle, PADDLE_ENV, type FakePaddle } from '../helpers/fakePaddle.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { until as waitUntil } from '../helpers/until.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = new URL('../../test-results/', import.meta.url).pathname;

/**
 * Features of Chromium the tests never use, each costing CPU per browser context (docs/testing.md,
 * "2026-11-30: Chromium's flags"). Chromium reads only the last `--disable-features`, and
 * playwright-core passes its own first, so its list (1.65.1) is repeated before ours.
 */
const PLAYWRIGHT_DISABLED_FEATURES = ['AvoidUnnecessaryBeforeUnloadCheckSync', 'DestroyProfileOnBrowserClose', 'HttpsUpgrades', 'HttpsFirstBalancedModeAutoEnable', 'LensOverlay', 'MediaRouter', 'PaintHolding', 'ThirdPartyStoragePartitioning', 'AvoidCorsURLLoaderRestartOnRedirect', 'TcpPortRandomizationWin', 'OptimizationHints', 'NetworkTimeServiceQuerying', 'AimEnabled', 'PreconnectToSearch', 'msForceBrowserSignIn', 'msEdgeUpdateLaunchServicesPreferredVersion'];
const DISABLED_FEATURES = [
  ...PLAYWRIGHT_DISABLED_FEATURES,
  // Every new window (one per context) loaded the omnibox's popup (two WebUI pages) in a renderer of its own.
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
  'PreloadTopChromeWebUI',
  // A spare renderer started ahead for the next navigation, thrown away when that is in another context.
  'SpareRendererForSitePerProcess',
  // One app, one origin: no process per site, no process swap on about:blank and back.
  'site-per-process',
  'IsolateOrigins',
];
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--in-process-gpu', '--disable-site-isolation-trials', `--disable-features=${DISABLED_FEATURES.join(',')}`, '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'];

let shared: Promise<Browser> | null = null;

function sharedChromium(): Promise<Browser> {
  shared ??= chromium
    .launch({
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
    })
    .then((browser) => {
      browser.on('disconnected', () => (shared = null));
      return browser;
    });
  shared.catch(() => (shared = null));
  return shared;
}

/**
 * A browser for one test file. Every file of a worker process shares one Chromium (playwright
 * closes it when the process exits): launching one per file cost a second of CPU 30 times a run.
 * Each file gets its own contexts (cookies, storage, cache), and `close()` closes those only.
 */
export async function launch(): Promise<Browser> {
  const browser = await sharedChromium();
  const contexts = new Set<BrowserContext>();
  const own: Pick<Browser, 'newContext' | 'close'> = {
    async newContext(options) {
      const context = await browser.newContext(options);
      contexts.add(context);
      context.on('close', () => contexts.delete(context));
      return context;
    },
    async close() {
      await Promise.all([...contexts].map((c) => c.close()));
    },
  };
  return own as Browser;
}

/** A browser context signed in with the given `sessionId=…` cookie for the server at baseUrl. */
export async function signedIn(browser: Browser, baseUrl: string, cookie: string | null): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: baseUrl, reducedMotion: 'reduce', acceptDownloads: true });
  if (cookie) {
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: baseUrl, httpOnly: true, sameSite: 'Lax' }]);
  }
  return context;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}${name}.png`, fullPage: true, animations: 'disabled' });
}

/** Polls until `read()` returns `expected` (deep text equality), or fails with the last value seen. */
export async function until<T>(read: () => Promise<T>, expected: T, timeoutMs = 10_000): Promise<void> {
  let last: T | undefined;
  await waitUntil(JSON.stringify(expected), async () => {
    try {
      last = await read();
      return JSON.stringify(last) === JSON.stringify(expected);
    } catch (error) {
      // A page still loading throws (element missing, navigation): ask again.
      last = `(${(error as Error).message.split('\n')[0]})` as T;
      return false;
    }
  }, { timeoutMs, everyMs: 100, describe: () => JSON.stringify(last) });
}

/** How many live data events the page has heard so far (web/src/api/live.ts marks it on <html>). */
export const liveEvents = (page: Page) => page.evaluate(() => Number(document.documentElement.dataset.liveEvents ?? 0));

/**
 * Waits until the page has heard at least `events` live data events and answered them all (no
 * refresh waiting for its gap or still fetching): web/src/api/live.ts marks both on <html>.
 */
export async function liveAnswered(page: Page, events: number, timeoutMs = 15_000): Promise<void> {
  const read = () => page.evaluate(() => ({ events: Number(document.documentElement.dataset.liveEvents ?? 0), refresh: document.documentElement.dataset.liveRefresh ?? 'idle' }));
  let last: Awaited<ReturnType<typeof read>> | undefined;
  await waitUntil(`${events} live events answered`, async () => {
    last = await read();
    return last.events >= events && last.refresh === 'idle';
  }, { timeoutMs, describe: () => JSON.stringify(last) });
}

export const text = (page: Page, testId: string) => page.getByTestId(testId).innerText().then((t) => t.replace(/\s+/g, ' ').trim());

/**
 * A suite's real server (built web app, embedded PostgreSQL) and Chromium, started before its
 * tests and closed after them. Read `.server` and `.browser` inside the tests.
 */
export function serverAndBrowser(options: Parameters<typeof testServer>[0] = {}): { server: TestServer; browser: Browser } {
  const suite = {} as { server: TestServer; browser: Browser };
  before(async function () {
    this.timeout(120_000);
    ensureWebBuilt(() => {});
    suite.server = await testServer(options);
    suite.browser = await launch();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  return suite;
}

/**
 * `serverAndBrowser` with billing on: a fake Paddle starts first, since the server reads
 * BILLING_API_URL at start. Read `.paddle` inside the tests.
 */
export function serverAndBrowserWithBilling(env: Env = {}): { server: TestServer; browser: Browser; paddle: FakePaddle } {
  const withBilling: Env = { ...env, ...PADDLE_ENV };
  const billing = {} as { paddle: FakePaddle };
  before(async () => {
    billing.paddle = await fakePaddle();
    withBilling.BILLING_API_URL = billing.paddle.url;
  });
  const suite = serverAndBrowser({ env: withBilling });
  after(async () => billing.paddle?.close());
  return Object.defineProperty(suite as typeof suite & { paddle: FakePaddle }, 'paddle', { get: () => billing.paddle });
}

/** A new page signed in as the user, in that tenant. */
export async function pageAs(suite: { server: TestServer; browser: Browser }, userId: string, tenantId: string): Promise<Page> {
  const cookie = await buildSessionCookie(suite.server.databaseUrl, userId, tenantId);
  return (await signedIn(suite.browser, suite.server.baseUrl, cookie)).newPage();
}

/**
 * `pageAs` in the file's one tab (`personTab`, see there when that is safe): signed in as the user,
 * in that tenant, the last person's cookies and storage gone.
 */
export async function tabAs(suite: { server: TestServer; browser: Browser }, userId: string, tenantId: string, kind = 'plain'): Promise<Page> {
  return personTab(suite, await buildSessionCookie(suite.server.databaseUrl, userId, tenantId), kind);
}

/** The tabs `personTab` hands out again, per file (each file has its own `launch()` wrapper) and kind. */
const tabs = new WeakMap<Browser, Map<string, Page>>();

/**
 * A tab signed in with `cookie` (null: signed out), the same tab for each call of a file's tests with the same `kind`
 * (a second kind is a second tab, for a page a test keeps while another person looks; a fixed
 * clock stays with its tab, so memberPage keeps prepared pages apart). A new browser context cost Chromium about
 * 0.6 s of CPU (a renderer process, the app's scripts fetched and compiled cold: 24 page loads took
 * 23.9 s of Chromium's CPU in fresh contexts and 10.3 s in one tab). Before each new person the tab
 * leaves the app for about:blank (its sockets and timers stop) and forgets the last person: its
 * storage, then its cookies. Only for tests that open their page with `goto`, use one page at a
 * time and need nothing of a fresh context (no history, no listeners or routes of their own, no
 * context options); JSON answers are `no-store`, so no cached answer of one person reaches the next.
 */
export async function personTab(suite: { server: TestServer; browser: Browser }, cookie: string | null, kind = 'plain'): Promise<Page> {
  const own = tabs.get(suite.browser) ?? new Map<string, Page>();
  tabs.set(suite.browser, own);
  const tab = own.get(kind);
  if (!tab || tab.isClosed()) {
    const page = await (await signedIn(suite.browser, suite.server.baseUrl, cookie)).newPage();
    own.set(kind, page);
    return page;
  }
  if (new URL(tab.url()).origin === new URL(suite.server.baseUrl).origin) {
    const forget = () =>
      tab.evaluate(() => {
        localStorage.clear();
        sessionStorage.clear();
      });
    // A navigation the last test started may still be under way: once it has loaded, again.
    await forget().catch(async () => {
      await tab.waitForLoadState();
      await forget();
    });
  }
  await tab.goto('about:blank');
  const context = tab.context();
  await context.clearCookies();
  if (cookie) {
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: suite.server.baseUrl, httpOnly: true, sameSite: 'Lax' }]);
  }
  return tab;
}

/**
 * A page signed in as a new member of the tenant: a person of their own per page, since each
 * person has 100 API requests a minute; the file's one tab (`personTab`), so a page is good until
 * the next call. `prepare` runs on the page before it is sized (a fixed clock).
 */
export async function memberPage(suite: { server: TestServer; browser: Browser }, tenantId: string, viewport = { width: 1280, height: 800 }, prepare?: (page: Page) => Promise<void>): Promise<Page> {
  const person = await buildMember(suite.server.databaseUrl, tenantId, 'member');
  const page = await personTab(suite, await buildSessionCookie(suite.server.databaseUrl, person.userId, tenantId), prepare ? 'prepared' : 'plain');
  await prepare?.(page);
  await page.setViewportSize(viewport);
  return page;
}

/** The rows of the open drill-through panel (its columns, not the details toggle nor an unfolded row's detail), cell texts trimmed. */
export const factRows = (page: Page) => page.getByTestId('facts-panel').locator('tbody tr:not(.fact-detail)').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].filter((c) => !c.classList.contains('row-toggle-cell')).map((c) => (c as HTMLElement).innerText.trim())));
