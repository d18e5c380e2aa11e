/**
 * A real Chromium (Debian's /usr/bin/chromium) driven by playwright-core, against the real server.
 * Pages are found by role and label; screenshots of every page go to test-results/ for review.
 */
import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = new URL('../../test-results/', import.meta.url).pathname;

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
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
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    try {
      last = await read();
      if (JSON.stringify(last) === JSON.stringify(expected)) return;
    } catch (error) {
      last = `(${(error as Error).message.split('\n')[0]})` as T;
    }
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${JSON.stringify(expected)}, last saw ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const text = (page: Page, testId: string) => page.getByTestId(testId).innerText().then((t) => t.replace(/\s+/g, ' ').trim());
