/// <reference lib="dom" />
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { registerAccount } from '@meshwork/testkit/api/accounts';
import { type BrowserTest, freePort, startBrowserTest } from '@meshwork/testkit/browser';
import { mailTo } from '@meshwork/testkit/mail';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';
import { type AuthResponse, contactMessages, messages, type Plan } from '@meshwork/contracts';

/** The Contact Sales page in real Chromium against the real api, its mail read from the SMTP catcher. */
describe('customer site: Contact Sales in a real browser', () => {
  let site: BrowserTest;
  let subject: TestApp;
  let base: string;
  const tag = randomUUID().slice(0, 6);
  const salesEmail = `sales-${tag}@example.com`;

  beforeAll(async () => {
    site = await startBrowserTest({ SALES_EMAIL: salesEmail, STRIPE_SECRET_KEY: '', STRIPE_API_BASE: '' });
    ({ subject, base } = site);
  }, 120_000);

  afterAll(() => site?.close());

  /** A fresh tab: signed in as `session`, or a visitor's. */
  const newPage = (session?: AuthResponse) => site.openPage(session, { viewport: { width: 1280, height: 900 } });

  /** The error text linked to a field (aria-describedby), i.e. what is shown under it; '' when none. */
  async function errorUnder(page: Page, label: string): Promise<string> {
    return page.getByLabel(label, { exact: true }).evaluate((field) => {
      const ids = field.getAttribute('aria-describedby')?.split(' ') ?? [];
      return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
    });
  }

  /** A field's value once something fills it in (the session answers after the page opens). */
  async function filledValue(page: Page, label: string): Promise<string> {
    const field = await page.getByLabel(label, { exact: true }).elementHandle();
    await page.waitForFunction((input) => (input as HTMLInputElement).value !== '', field);
    return page.getByLabel(label, { exact: true }).inputValue();
  }

  it('takes a visitor from the Enterprise plan to /contact, checks the form, and mails their message to sales', async () => {
    const page = await newPage();
    const sentInquiries: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/v1/contact/')) sentInquiries.push(request.method());
    });

    await page.goto(`${base}/pricing`);
    await page.getByRole('article', { name: 'Enterprise' }).getByRole('link', { name: 'Contact Sales' }).click();
    await page.waitForURL(`${base}/contact`);
    await page.getByRole('heading', { level: 1, name: 'Contact Sales' }).waitFor();
    // The plan's terms are the api's: its features, after the (seeded: unlimited) limits.
    const plans = (await (await fetch(`${base}/api/v1/subscriptions/plans/`)).json()) as Plan[];
    const enterprise = plans.find((plan) => plan.slug === 'enterprise')!;
    const terms = page.getByRole('region', { name: 'What Enterprise includes' }).getByRole('listitem');
    await terms.first().waitFor();
    expect(await terms.allTextContents()).toEqual(['Unlimited networks', 'Unlimited clients per network', ...enterprise.features]);

    const form = page.getByRole('region', { name: 'Send us a message' });
    await form.getByRole('button', { name: 'Send Message' }).click();
    await page.getByText(contactMessages.nameRequired).waitFor();
    expect(await errorUnder(page, 'Name')).toBe(contactMessages.nameRequired);
    expect(await errorUnder(page, 'Work email')).toBe(messages.emailRequired);
    expect(await errorUnder(page, 'How can we help?')).toBe(contactMessages.messageRequired);
    expect(await errorUnder(page, 'Company (optional)')).toBe('');
    expect(sentInquiries).toEqual([]);

    const visitor = { name: `Grace ${tag}`, email: `grace-${tag}@example.com`, company: `Hopper Labs ${tag}` };
    const message = `We run 40 sites and want every one on its own mesh (${tag}).`;
    await page.getByLabel('Name', { exact: true }).fill(visitor.name);
    await page.getByLabel('Work email', { exact: true }).fill(visitor.email);
    await page.getByLabel('Company (optional)', { exact: true }).fill(visitor.company);
    await page.getByLabel('How can we help?', { exact: true }).fill(message);
    await form.getByRole('button', { name: 'Send Message' }).click();

    const sent = page.getByRole('region', { name: 'Message sent' });
    await sent.getByText(contactMessages.sent(visitor.email)).waitFor();
    expect(await page.getByRole('region', { name: 'Send us a message' }).count()).toBe(0);
    expect(await sent.getByRole('link', { name: 'Back to Pricing' }).getAttribute('href')).toBe('/pricing');
    expect(sentInquiries).toEqual(['POST']);

    const mail = await mailTo(salesEmail);
    expect(mail.text).toContain(visitor.name);
    expect(mail.text).toContain(visitor.company);
    expect(mail.text).toContain(message);
    expect(mail.subject.includes(visitor.company) || mail.subject.includes(visitor.name)).toBe(true);
    await page.context().close();
  });

  it('fills in a signed-in user’s name and email, who finds Contact Sales in the footer', async () => {
    const register = (name: string) => registerAccount(subject.app, name, tag);
    const [named, unnamed] = await Promise.all([register('ada'), register('linus')]);
    const profile = await fetch(`${base}/api/v1/profile/`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${named.tokens.access}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ first_name: 'Ada', last_name: 'Lovelace' }),
    });
    expect(profile.status).toBe(200);

    const namedPage = await newPage(named);
    // The pricing page offers a signed-in user the Enterprise upgrade; the footer still leads to sales.
    await namedPage.goto(`${base}/pricing`);
    await namedPage.getByRole('contentinfo').getByRole('link', { name: 'Contact Sales' }).click();
    await namedPage.waitForURL(`${base}/contact`);
    expect(await filledValue(namedPage, 'Name')).toBe('Ada Lovelace');
    expect(await filledValue(namedPage, 'Work email')).toBe(named.user.email);
    expect(await namedPage.getByLabel('How can we help?', { exact: true }).inputValue()).toBe('');

    // Without a first or last name, the username stands in.
    const unnamedPage = await newPage(unnamed);
    await unnamedPage.goto(`${base}/contact`);
    expect(await filledValue(unnamedPage, 'Name')).toBe(unnamed.user.username);
    expect(await filledValue(unnamedPage, 'Work email')).toBe(unnamed.user.email);
    await Promise.all([namedPage.context().close(), unnamedPage.context().close()]);
  });

  it('keeps what a visitor typed and says so when the mail server is down', async () => {
    const [port, closedPort] = await Promise.all([freePort(), freePort()]);
    const noMailBase = `http://127.0.0.1:${port}`;
    const noMail = await startTestApp(
      {
        PUBLIC_URL: noMailBase,
        SALES_EMAIL: salesEmail,
        SMTP_URL: `smtp://127.0.0.1:${closedPort}`,
        STRIPE_SECRET_KEY: '',
        STRIPE_API_BASE: '',
      },
      subject,
    );
    await noMail.app.listen(port, '127.0.0.1');
    try {
      const page = await newPage();
      await page.goto(`${noMailBase}/contact`);
      const typed = { Name: 'Katherine Johnson', 'Work email': `kj-${tag}@example.com`, 'How can we help?': 'Orbits, offline.' };
      for (const [label, value] of Object.entries(typed)) await page.getByLabel(label, { exact: true }).fill(value);
      await page.getByRole('button', { name: 'Send Message' }).click();

      await page.getByText(contactMessages.notSent).waitFor();
      expect(await page.getByRole('region', { name: 'Message sent' }).count()).toBe(0);
      for (const [label, value] of Object.entries(typed)) expect(await page.getByLabel(label, { exact: true }).inputValue()).toBe(value);
      expect(await page.getByRole('button', { name: 'Send Message' }).isEnabled()).toBe(true);
      await page.context().close();
    } finally {
      await noMail.close();
    }
  });
});
