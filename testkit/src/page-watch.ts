import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { addFailureSection } from './failure-report';

/**
 * What a failed browser test leaves behind: for every page still open, where it is, what it
 * shows, the requests it is still waiting on (and for how long), the ones that failed and the
 * errors it logged, printed beside the failure, with a screenshot in test-results/failures/.
 * A browser test that times out otherwise says only what it waited for, not why it never came.
 */
interface PageRecord {
  pending: Map<Request, number>;
  failed: string[];
  errors: string[];
}

const records = new WeakMap<Page, PageRecord>();
const watched = new Set<Browser>();
const KEPT = 20;

function keep(list: string[], line: string): void {
  list.push(line);
  if (list.length > KEPT) list.shift();
}

function watchPage(page: Page): void {
  const record: PageRecord = { pending: new Map(), failed: [], errors: [] };
  records.set(page, record);
  page.on('request', (request) => record.pending.set(request, Date.now()));
  page.on('requestfinished', (request) => record.pending.delete(request));
  page.on('requestfailed', (request) => {
    record.pending.delete(request);
    keep(record.failed, `${request.method()} ${request.url()}: ${request.failure()?.errorText ?? 'failed'}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) keep(record.failed, `${response.request().method()} ${response.url()}: ${response.status()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') keep(record.errors, `console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => keep(record.errors, `page error: ${error.message}`));
}

function watchContext(context: BrowserContext): BrowserContext {
  context.pages().forEach(watchPage);
  context.on('page', watchPage);
  return context;
}

/**
 * Records every page `browser` opens, for `reportOpenPages`. Playwright tells of new pages per
 * context only, so the browser's `newContext` is wrapped (its `newPage` goes through it).
 */
export function watchBrowser(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => watchContext(await newContext(options));
  watched.add(browser);
  browser.on('disconnected', () => watched.delete(browser));
  addFailureSection('open pages', reportOpenPages);
  return browser;
}

async function describePage(page: Page, test: string, index: number): Promise<string> {
  const record = records.get(page);
  const lines = [`page ${index + 1}: ${page.url()}`];
  const text = await page
    .evaluate(() => document.body?.innerText ?? '')
    .then((shown) => shown.replace(/\s+/g, ' ').trim().slice(0, 1500))
    .catch((error: Error) => `(unreadable: ${error.message})`);
  lines.push(`  shows: ${text || '(nothing)'}`);
  const now = Date.now();
  for (const [request, since] of record?.pending ?? [])
    lines.push(`  still waiting ${Math.round((now - since) / 1000)} s on ${request.method()} ${request.url()}`);
  for (const failure of record?.failed ?? []) lines.push(`  failed: ${failure}`);
  for (const error of record?.errors ?? []) lines.push(`  ${error}`);
  const shot = path.resolve(__dirname, '../../test-results/failures', `${test.replace(/[^\w-]+/g, '-').slice(0, 80)}-${index + 1}.png`);
  fs.mkdirSync(path.dirname(shot), { recursive: true });
  await page.screenshot({ path: shot, timeout: 5_000 }).then(
    () => lines.push(`  screenshot: ${path.relative(process.cwd(), shot)}`),
    () => undefined,
  );
  return lines.join('\n');
}

/** Describes every page open in a watched browser; the test environment calls it when a test fails. */
export async function reportOpenPages(test: string): Promise<string> {
  const pages = [...watched].flatMap((browser) => browser.contexts().flatMap((context) => context.pages()));
  const described = await Promise.all(pages.map((page, index) => describePage(page, test, index)));
  return described.join('\n');
}
