import fs from 'node:fs';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import type { AuthResponse } from '@meshwork/contracts';
import { freePort } from './api/api-process.cjs';
import { startTestApp, type TestApp } from './api/test-app';
import { watchBrowser } from './page-watch';

export { freePort };

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian's Chromium, headless. `npm test` installs it when missing; the flags keep it from
 * reaching for the network (this machine has none) and from needing a sandbox as root. Its
 * pages are watched, so a failing test prints what they show and wait on (page-watch.ts).
 */
export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`No Chromium at ${CHROMIUM}. Run the tests with \`npm test\`, which installs Debian's chromium.`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
    ],
  });
  return watchBrowser(browser);
}

/** What a browser test starts with: the whole app listening on a free port, and Chromium. */
export async function startBrowserTest(settings: Record<string, string> = {}, sites: Parameters<typeof startTestApp>[2] = {}) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const subject: TestApp = await startTestApp({ PUBLIC_URL: base, ...settings }, undefined, sites);
  await subject.app.listen(port, '127.0.0.1');
  const browser = await launchBrowser();
  const opened: BrowserContext[] = [];
  return {
    subject,
    base,
    browser,
    /** A fresh tab, signed in as `session` if given (as the site leaves it), else a visitor's. */
    async openPage(session?: AuthResponse | null, options: BrowserContextOptions = {}): Promise<Page> {
      const context = await browser.newContext(options);
      opened.push(context);
      if (session) await seedSession(context, session);
      return context.newPage();
    },
    /** Closes every tab opened so far (after each test, so tests do not share one). */
    async closePages(): Promise<void> {
      await Promise.all(opened.splice(0).map((context) => context.close()));
    },
    async close(): Promise<void> {
      await browser.close();
      await subject.close();
    },
  };
}

export type BrowserTest = Awaited<ReturnType<typeof startBrowserTest>>;

/** Signs the context in as the site would leave it: tokens in localStorage, set once before the first page. */
async function seedSession(context: BrowserContext, session: AuthResponse): Promise<void> {
  await context.addInitScript(
    ([access, refresh]) => {
      if (sessionStorage.getItem('seeded')) return;
      localStorage.setItem('token', access!);
      localStorage.setItem('refreshToken', refresh!);
      sessionStorage.setItem('seeded', 'yes');
    },
    [session.tokens.access, session.tokens.refresh],
  );
}
