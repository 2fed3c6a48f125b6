/// <reference lib="dom" />
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { PUBLIC_PAGES, type Plan } from '@meshwork/contracts';
import { registerAccount } from '@meshwork/testkit/api/accounts';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';

const web = path.resolve(__dirname, '..');

/**
 * Issue 16: the public pages arrive as HTML that holds the page before any script runs, with
 * their own title and description, and /pricing with the plans the api served when the pages
 * were rendered (web/scripts/prerender.mjs, which `npm start` runs against its own api). The
 * site's build output is copied, so this test's prerender leaves the shared build alone.
 */
describe('customer site: prerendered public pages', () => {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'meshwork-prerendered-'));
  let site: BrowserTest;
  let base: string;
  let plans: Plan[];

  beforeAll(async () => {
    fs.cpSync(path.join(web, 'dist'), dist, { recursive: true });
    site = await startBrowserTest({ STRIPE_SECRET_KEY: '', STRIPE_API_BASE: '' }, { webDist: dist });
    base = site.base;
    await promisify(execFile)(process.execPath, [path.join(web, 'scripts', 'prerender.mjs'), '--dist', dist, '--api', base]);
    plans = (await (await fetch(`${base}/api/v1/subscriptions/plans/`)).json()) as Plan[];
  }, 120_000);
  afterAll(async () => {
    await site?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });
  afterEach(() => site.closePages());

  /** A page as a crawler or a script-less visitor gets it. */
  const html = async (page: string) => {
    const response = await fetch(`${base}${page}`, { headers: { Accept: 'text/html' } });
    expect(response.status).toBe(200);
    return response.text();
  };
  /** The text inside #root, tags left out. */
  const rootText = (page: string) => page.slice(page.indexOf('<div id="root">')).replace(/<[^>]+>/g, ' ');

  it('answers /pricing, before any script runs, with its heading and every plan the api serves, named and priced', async () => {
    const page = await html('/pricing');
    expect(page).toContain('<title>Pricing · Meshwork</title>');
    expect(page).toContain(`<link rel="canonical" href="${base}/pricing" />`);
    const text = rootText(page);
    expect(text).toContain('Simple, transparent pricing');
    expect(plans.map((plan) => plan.slug).sort()).toEqual(['enterprise', 'free', 'pro']);
    for (const plan of plans) {
      expect(text).toContain(` ${plan.name} `);
      expect(text).toContain(`$${Number(plan.price).toFixed(2)}`);
    }
    expect(text).not.toContain('Loading');
  });

  it('answers every public page with its own heading, title and description, and other paths with the empty shell', async () => {
    const titles = new Set<string>();
    for (const pagePath of PUBLIC_PAGES) {
      const page = await html(pagePath);
      titles.add(/<title>([^<]+)<\/title>/.exec(page)![1]!);
      expect(page).toMatch(/<meta name="description" content="[^"]{20,}" \/>/);
      expect(page).toMatch(/<meta property="og:title" content="[^"]+" \/>/);
      expect(rootText(page)).toMatch(/\w/);
      expect(page).toMatch(/<h1[ >]/);
      // The one font file the text is set in, fetched beside the stylesheet rather than after it.
      expect(page).toMatch(
        /<link rel="preload" as="font" type="font\/woff2" href="\/assets\/inter-latin-wght-normal-[\w-]+\.woff2" crossorigin/,
      );
      // The site's policy refuses inline styles: a style attribute rendered here would be dropped.
      expect(page).not.toMatch(/<[^>]+\sstyle="/);
    }
    expect(titles.size).toBe(PUBLIC_PAGES.length);
    // The card a shared link shows: 1200×630, as the pages say.
    const card = await fetch(`${base}/social-card.png`);
    expect(card.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await card.arrayBuffer());
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
    expect(await html('/dashboard')).toContain('<div id="root"></div>');
  });

  it('shows the prerendered page to a browser without scripts, and with scripts hydrates it and shows a plan staff changed since', async () => {
    const pro = plans.find((plan) => plan.slug === 'pro')!;
    const staff = await registerAccount(site.subject.app, 'staff', randomUUID().slice(0, 8), true);
    const changed = await fetch(`${base}/api/v1/admin-panel/plans/pro`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${staff.tokens.access}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ price: Number(pro.price) + 7 }),
    });
    expect(changed.status).toBe(200);
    const newPrice = `$${(Number(pro.price) + 7).toFixed(2)}`;

    const withoutScripts = await site.openPage(null, { javaScriptEnabled: false });
    await withoutScripts.goto(`${base}/pricing`);
    const staleCard = withoutScripts.getByRole('article', { name: 'Pro' });
    expect(await staleCard.textContent()).toContain(`$${Number(pro.price).toFixed(2)}`);

    const page = await site.openPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${base}/pricing`);
    await page.getByRole('article', { name: 'Pro' }).getByText(newPrice).waitFor();
    // Hydrated, not replaced: the cycle toggle answers, and React reported no mismatch.
    await page
      .getByRole('group', { name: 'Billing cycle' })
      .getByRole('button', { name: /Annual/ })
      .click();
    await page.getByRole('article', { name: 'Pro' }).getByText('/year').waitFor();
    expect(problems).toEqual([]);
  });

  it('leaves a visitor where they scrolled to while the page woke up', async () => {
    const page = await site.openPage(null, { viewport: { width: 1280, height: 900 } });
    // The site's script is held back until the visitor has scrolled the prerendered page.
    let wake!: () => void;
    const scriptHeld = new Promise<void>((resolve) => (wake = resolve));
    await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
      await scriptHeld;
      await route.continue();
    });
    await page.goto(`${base}/pricing`, { waitUntil: 'commit' });
    const footer = page.getByRole('contentinfo');
    await footer.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(0);

    // Mounted: the plans it was rendered with are stale, so it asks for them again.
    const mounted = page.waitForRequest((request) => request.url().endsWith('/api/v1/subscriptions/plans/'));
    wake();
    await mounted;
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
  });

  /** Holds the site's own script (app/start.tsx) back until `wake` is called; the page has painted by then. */
  async function holdSite(page: Page): Promise<() => void> {
    let wake!: () => void;
    const held = new Promise<void>((resolve) => (wake = resolve));
    await page.route(/\/assets\/start-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    return wake;
  }

  it('presses a button the visitor pressed before the page woke up, once it has', async () => {
    const page = await site.openPage(null, { colorScheme: 'light' });
    const wake = await holdSite(page);
    await page.goto(`${base}/`);
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    const dark = () => page.evaluate(() => document.documentElement.classList.contains('dark'));
    expect(await dark()).toBe(false);
    wake();
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
  });

  it('sends a form submitted before the page woke up through the page, never as an address', async () => {
    const page = await site.openPage();
    const wake = await holdSite(page);
    const addresses: string[] = [];
    page.on('request', (request) => addresses.push(request.url()));
    await page.goto(`${base}/login`);
    await page.getByLabel('Email', { exact: true }).fill('early@example.com');
    await page.getByLabel('Password', { exact: true }).fill('not-the-password-1');
    await page.getByLabel('Password', { exact: true }).press('Enter');
    expect(page.url()).toBe(`${base}/login`);

    const signIn = page.waitForRequest((request) => request.url().endsWith('/api/v1/login/') && request.method() === 'POST');
    wake();
    expect((await signIn).postDataJSON()).toMatchObject({ email: 'early@example.com', password: 'not-the-password-1' });
    expect(addresses.filter((address) => address.includes('not-the-password-1'))).toEqual([]);
    expect(page.url()).toBe(`${base}/login`);
  });
});
