/// <reference lib="dom" />
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { TEST_PASSWORD } from '@meshwork/testkit/api/accounts';
import { recordAppearances, waitForAppearance } from '@meshwork/testkit/appearances';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';
import { mailTo } from '@meshwork/testkit/mail';

const PASSWORD = TEST_PASSWORD;

/** The customer site in real Chromium against the real api (served from the same origin). */
describe('customer site: accounts in a real browser', () => {
  let site: BrowserTest;
  let base: string;

  beforeAll(async () => {
    site = await startBrowserTest({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
    base = site.base;
  }, 120_000);
  afterAll(() => site?.close());

  /** A visitor's tab, recording what appears: toasts and the reset confirmation move on by themselves. */
  async function newPage(): Promise<Page> {
    const page = await site.openPage();
    await recordAppearances(page);
    return page;
  }

  async function registerThroughForm(page: Page): Promise<{ email: string; username: string }> {
    const name = randomUUID().slice(0, 8);
    const account = { email: `${name}@example.com`, username: `user_${name}` };
    await page.goto(`${base}/register`);
    await page.getByLabel('Email', { exact: true }).fill(account.email);
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL(`${base}/dashboard`);
    return account;
  }

  it('registers, lands on the dashboard welcomed as new, is welcomed back the next time, and signs out', async () => {
    const page = await newPage();
    const account = await registerThroughForm(page);
    // A first visit is not a return: welcomed, not welcomed back.
    await page.getByRole('heading', { level: 1, name: `Welcome to Meshwork, ${account.username}!` }).waitFor();
    expect(await page.evaluate(() => Boolean(localStorage.getItem('token') && localStorage.getItem('refreshToken')))).toBe(true);
    // A new user is greeted by the onboarding; skipping it is remembered, and the heading stays as it was.
    const tour = page.getByRole('dialog', { name: 'Welcome to Meshwork!' });
    await tour.getByRole('button', { name: 'Skip Tour' }).click();
    await tour.waitFor({ state: 'hidden' });
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Welcome to Meshwork, ${account.username}!`);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: `Welcome back, ${account.username}!` }).waitFor();

    // The footer offers a signed-in user their account, not a sign-in.
    const footer = page.getByRole('contentinfo');
    await footer.getByRole('link', { name: 'Profile' }).waitFor();
    expect(await footer.getByRole('link', { name: 'Sign In' }).count()).toBe(0);
    expect(await footer.getByRole('link', { name: 'Create Account' }).count()).toBe(0);

    // The user menu's button shows the username (the email when there is none).
    await page.getByRole('button', { name: account.username }).click();
    await page.getByRole('menuitem', { name: 'Sign Out' }).click();
    await waitForAppearance(page, 'Logged out successfully', { announced: true });
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await footer.getByRole('link', { name: 'Sign In' }).waitFor();
    await page.context().close();
  });

  it('sends a signed-out visitor of /profile to sign in, then back to /profile', async () => {
    const setup = await newPage();
    const account = await registerThroughForm(setup);
    await setup.context().close();

    const page = await newPage();
    await page.goto(`${base}/profile`);
    await page.waitForURL(/\/login/);
    await page.getByLabel('Email', { exact: true }).fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${base}/profile`);
    await page.getByRole('heading', { name: 'Account Settings' }).waitFor();
    await page.context().close();
  });

  it('shows the spec messages for a bad sign-in form and for wrong credentials', async () => {
    const page = await newPage();
    await page.goto(`${base}/login`);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Email is required').waitFor();
    await page.getByText('Password is required').waitFor();
    await page.getByLabel('Email', { exact: true }).fill(`nobody-${randomUUID().slice(0, 6)}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill('WrongPass1');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await waitForAppearance(page, 'Invalid email or password.', { announced: true });
    await page.context().close();
  });

  it('resets a forgotten password through the emailed link', async () => {
    const setup = await newPage();
    const account = await registerThroughForm(setup);
    await setup.context().close();

    const page = await newPage();
    await page.goto(`${base}/forgot-password`);
    await page.getByLabel('Email', { exact: true }).fill(account.email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByText('Check Your Email').waitFor();

    const link = (await mailTo(account.email)).links.find((l) => l.startsWith(`${base}/reset-password?token=`));
    expect(link).toBeDefined();
    await page.goto(link!);
    await page.getByLabel('New password', { exact: true }).fill('N3wPassword!');
    await page.getByLabel('Confirm new password', { exact: true }).fill('N3wPassword!');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    // The confirmation shows 3 s before /login replaces it: its record is waited on, not the screen.
    await waitForAppearance(page, 'Password Reset Successful');
    await page.waitForURL(/\/login/);

    await page.getByLabel('Email', { exact: true }).fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill('N3wPassword!');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${base}/dashboard`);
    await page.context().close();
  });

  it('shows Invalid Reset Link without a token', async () => {
    const page = await newPage();
    await page.goto(`${base}/reset-password`);
    await page.getByText('Invalid Reset Link').waitFor();
    await page.context().close();
  });

  it('keeps the chosen theme across reloads', async () => {
    const page = await newPage();
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${base}/`);
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false);
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    // Pressed before the page woke up, the toggle acts once it has (app/early-input.ts).
    await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
    await page.reload();
    expect(await page.evaluate(() => [document.documentElement.classList.contains('dark'), localStorage.getItem('theme')])).toEqual([
      true,
      'dark',
    ]);
    await page.context().close();
  });
});
