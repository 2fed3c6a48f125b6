/// <reference lib="dom" />
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AuthResponse, WebhookEndpointList } from '@meshwork/contracts';
import type { Locator, Page } from 'playwright-core';
import { subscribeToPlan } from '@meshwork/testkit/api/accounts';
import { recordAppearances, waitForAppearance } from '@meshwork/testkit/appearances';
import { type BrowserTest, startBrowserTest } from '@meshwork/testkit/browser';
import { networksKit } from './networks-kit';
import { type Received, signatureHolds, startReceiver } from './webhooks-kit';

/** The log page as the customer saw it last, kept for review (test-results/ holds the e2e artifacts). */
const SHOT = resolve(__dirname, '../../test-results/webhooks-log.png');

/**
 * Issue 35 §2 in real Chromium against the whole api and a real receiver on loopback: an
 * Enterprise customer adds an endpoint, reads its secret once, sends a test event and sees the
 * receiver's answer in the log, resends while the receiver fails and sees that, rolls the secret
 * with an overlap, disables, enables and deletes the endpoint. Every request the receiver got is
 * checked against the secrets the page showed. A Free customer is told what webhooks are and
 * where to get them.
 */
describe('customer site: webhooks in a real browser', () => {
  let site: BrowserTest;
  let kit: ReturnType<typeof networksKit>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    receiver = await startReceiver();
    site = await startBrowserTest({
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      STRIPE_SECRET_KEY: '',
      STRIPE_API_BASE: '',
      // The receiver is on loopback, over http: allowed for this test as in the embedded default.
      WEBHOOKS_ANY_URL: 'true',
    });
    kit = networksKit(site);
  }, 120_000);
  afterAll(async () => {
    await site?.close();
    await receiver?.close();
  });
  afterEach(() => site.closePages());

  const signedInPage = async (customer: AuthResponse, path: string): Promise<Page> => {
    const page = await site.openPage(customer, { viewport: { width: 1400, height: 1000 } });
    await recordAppearances(page);
    await page.goto(`${site.base}${path}`);
    return page;
  };
  /** The log's row of the newest delivery (the log is newest first). */
  const newestRow = (page: Page): Locator => page.locator('tbody tr').first();

  it('adds an endpoint, sends a test event, resends it while the receiver fails, rolls the secret, disables and deletes', async () => {
    const customer = await kit.account();
    await subscribeToPlan(site.base, customer.tokens.access, 'enterprise');
    const page = await signedInPage(customer, '/settings/webhooks');
    await page.getByRole('heading', { name: 'No endpoints yet' }).waitFor();
    await page.getByRole('button', { name: 'Add Endpoint' }).click();

    const form = page.getByRole('dialog', { name: 'Add Endpoint' });
    await form.getByLabel('Endpoint URL').fill(receiver.url);
    await form.getByLabel('Description').fill('Ticketing');
    await form.getByRole('checkbox', { name: /^device\.revoked/ }).check();
    await form.getByRole('checkbox', { name: /^network\.suspended/ }).check();
    await form.getByRole('button', { name: 'Add Endpoint' }).click();

    let shown = page.getByRole('dialog', { name: 'Endpoint Added' });
    const secret = await shown.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_\S{20,}$/);
    await shown.getByRole('button', { name: 'Done' }).click();

    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: receiver.url }) });
    await card.getByText('Enabled', { exact: true }).waitFor();
    expect(await card.getByRole('list', { name: `Events sent to ${receiver.url}` }).innerText()).toMatch(
      /device\.revoked\s+network\.suspended/,
    );
    await card.getByText(`whsec_…${secret.slice(-4)}`).waitFor();
    // The secret is not to be had again: neither the page nor the api shows it.
    expect(await page.getByText(secret).count()).toBe(0);
    const listed = await kit.call<WebhookEndpointList>('GET', '/webhooks/endpoints/', customer.tokens.access);
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    // A test event: the receiver answers 202, and the log says so.
    receiver.state.status = 202;
    await card.getByRole('link', { name: 'Deliveries' }).click();
    await page.getByRole('heading', { name: 'Delivery Log', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'No deliveries yet' }).waitFor();
    await page.getByRole('button', { name: 'Send Test Event' }).click();
    await waitForAppearance(page, 'Test event sent', { announced: true });
    await newestRow(page).getByText('Succeeded').waitFor();
    expect(await newestRow(page).innerText()).toMatch(/Succeeded\s+webhook\.test\s+1\s+202\s+\d+(\.\d)? m?s/);

    // The receiver fails: the resend of the same event shows the failure and its answer.
    receiver.state.status = 500;
    receiver.state.answer = 'receiver is down';
    await newestRow(page)
      .getByRole('button', { name: /^Resend/ })
      .click();
    await waitForAppearance(page, 'Delivery resent', { announced: true });
    await page.locator('tbody tr').nth(1).waitFor();
    await newestRow(page)
      .getByText(/Retrying|Failed/)
      .waitFor();
    expect(await newestRow(page).innerText()).toMatch(/(Retrying|Failed)\s+webhook\.test\s+\d+\s+500/);
    expect(await page.locator('tbody tr').nth(1).innerText()).toMatch(/Succeeded\s+webhook\.test\s+1\s+202/);

    await newestRow(page)
      .getByRole('button', { name: /^Details/ })
      .click();
    const details = page.getByRole('dialog', { name: 'Delivery Details' });
    await details.getByLabel('Response excerpt').getByText('receiver is down').waitFor();
    expect(await details.getByLabel('Request body').innerText()).toContain('"type": "webhook.test"');
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });
    mkdirSync(resolve(SHOT, '..'), { recursive: true });
    await page.screenshot({ path: SHOT, fullPage: true });

    // A new secret, the old one kept for 24 hours: a test event then carries both signatures.
    receiver.state.status = 200;
    await page.getByRole('link', { name: 'All endpoints' }).click();
    await card.getByRole('button', { name: 'Roll Secret' }).click();
    const roll = page.getByRole('dialog', { name: 'Roll Signing Secret' });
    expect(await roll.getByLabel('Keep the old secret for 24 hours').isChecked()).toBe(true);
    await roll.getByRole('button', { name: 'Roll Secret' }).click();
    shown = page.getByRole('dialog', { name: 'New Signing Secret' });
    const rolled = await shown.getByLabel('Signing secret').inputValue();
    expect(rolled).toMatch(/^whsec_\S{20,}$/);
    expect(rolled).not.toBe(secret);
    await shown.getByText('The old secret also signs until', { exact: false }).waitFor();
    await shown.getByRole('button', { name: 'Done' }).click();
    await card.getByText(`whsec_…${rolled.slice(-4)}`).waitFor();
    await card.getByRole('link', { name: 'Deliveries' }).click();
    await page.getByRole('button', { name: 'Send Test Event' }).click();
    await page.locator('tbody tr').nth(2).waitFor();
    await newestRow(page).getByText('Succeeded').waitFor();

    // Off, on again, then gone.
    await page.getByRole('link', { name: 'All endpoints' }).click();
    await card.getByRole('button', { name: 'Disable' }).click();
    await card.getByText('Disabled', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Enable' }).click();
    await card.getByText('Enabled', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete Endpoint' }).getByRole('button', { name: 'Delete Endpoint' }).click();
    await page.getByRole('heading', { name: 'No endpoints yet' }).waitFor();
    expect((await kit.call<WebhookEndpointList>('GET', '/webhooks/endpoints/', customer.tokens.access)).body.results).toEqual([]);

    // What reached the receiver, delivery by delivery: each signed with the secret the page showed.
    const byDelivery = [...new Set(receiver.received.map((r) => r.deliveryId))].map((id) =>
      receiver.received.filter((r) => r.deliveryId === id),
    );
    expect(byDelivery).toHaveLength(3);
    const [[tested], resent, [afterRoll]] = byDelivery as [Received[], Received[], Received[]];
    expect(tested).toMatchObject({ answeredWith: 202, userAgent: 'Meshwork-Webhooks/1' });
    expect(JSON.parse(tested!.body)).toMatchObject({ id: tested!.eventId, type: 'webhook.test', api_version: '2026-11-01' });
    expect(resent[0]).toMatchObject({ answeredWith: 500, eventId: tested!.eventId });
    for (const request of [tested!, ...resent]) expect(signatureHolds(request.signature, request.body, secret)).toBe(true);
    expect(afterRoll!.eventId).not.toBe(tested!.eventId);
    expect(afterRoll!.signature.match(/v1=/g)).toHaveLength(2);
    expect(signatureHolds(afterRoll!.signature, afterRoll!.body, rolled)).toBe(true);
    expect(signatureHolds(afterRoll!.signature, afterRoll!.body, secret)).toBe(true);
    expect(signatureHolds(afterRoll!.signature, afterRoll!.body, 'whsec_someone_else')).toBe(false);
  });

  it('tells a Free customer what webhooks are and leads to the Enterprise plan', async () => {
    const customer = await kit.account();
    const page = await signedInPage(customer, '/settings/webhooks');
    const upgrade = page.getByRole('region', { name: 'Webhooks come with the Enterprise plan' });
    await upgrade.getByText('Webhooks are part of the Enterprise plan', { exact: false }).waitFor();
    expect(await upgrade.getByRole('link', { name: 'See the Enterprise Plan' }).getAttribute('href')).toBe('/pricing');
    expect(await page.getByRole('button', { name: 'Add Endpoint' }).count()).toBe(0);
  });
});
