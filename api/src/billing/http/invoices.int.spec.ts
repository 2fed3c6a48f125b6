import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import request from 'supertest';
import type { AdminInvoice, Invoice } from '@meshwork/contracts';
import { required } from '@meshwork/testkit/infra';
import { registerAccount, registerCustomer, type TestCustomer } from '@meshwork/testkit/api/accounts';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';
import { eventually } from '@meshwork/testkit/eventually';
import { EVENT_STORE, type EventStore } from '../../platform/event-store/event-store.port';
import { rebuildProjection } from '../../platform/projections/rebuild-projection';
import { INVOICES_FOLLOWER } from '../application/invoice-issuer.follower';
import { invoicesProjection } from '../projections/invoices.projection';

interface CaughtMail {
  subject: string;
  attachments: { filename: string; contentType: string; size: number }[];
}

/**
 * Invoices and credit notes, from Stripe's webhooks (stripe-mock answers the refunds) through
 * the invoice follower to the PDFs and the mailed receipts, against real PostgreSQL and SMTP.
 */
describe('invoices', () => {
  let subject: TestApp;
  let staffToken: string;
  const stripe = new Stripe(required('STRIPE_SECRET_KEY'));
  const secret = required('STRIPE_WEBHOOK_SECRET');
  const year = new Date().getUTCFullYear();

  beforeAll(async () => {
    subject = await startTestApp({
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      SELLER_NAME: 'Seller Test GmbH',
      SELLER_TAX_ID: 'DE123456789',
      INVOICE_TAX_PERCENT: '19',
    });
    staffToken = (await registerAccount(subject.app, 'staff', randomUUID().slice(0, 8), true)).tokens.access;
  });
  afterAll(() => subject.close());

  const http = () => request(subject.app.getHttpServer());
  const staff = () => ({ Authorization: `Bearer ${staffToken}` });

  /** Stripe's invoice.paid for `user`, signed: a payment with no period (no subscription change). */
  function paid(user: TestCustomer, amount: number, extra: object = {}) {
    const payload = JSON.stringify({
      id: `evt_${randomUUID().replaceAll('-', '')}`,
      object: 'event',
      type: 'invoice.paid',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: `in_${randomUUID().replaceAll('-', '')}`,
          object: 'invoice',
          billing_reason: 'manual',
          amount_paid: amount,
          metadata: { userId: user.userId, planId: 'pro', cycle: 'monthly' },
          payments: { data: [{ payment: { payment_intent: `pi_${randomUUID().replaceAll('-', '')}` } }] },
          ...extra,
        },
      },
    });
    return http()
      .post('/api/v1/payments/stripe/webhook/')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', stripe.webhooks.generateTestHeaderString({ payload, secret }))
      .send(payload)
      .expect(200);
  }

  async function invoicesOf(user: TestCustomer, count: number): Promise<Invoice[]> {
    let list: Invoice[] = [];
    await eventually(async () => {
      list = (await user.get('/billing/invoices/').expect(200)).body as Invoice[];
      return list.length >= count;
    }, `${count} invoices`);
    return list;
  }

  async function pdfText(response: request.Response): Promise<string> {
    expect(response.headers['content-type']).toBe('application/pdf');
    const body = response.body as Buffer;
    expect(body.subarray(0, 5).toString()).toBe('%PDF-');
    return extractText(body);
  }
  const binary = (req: request.Test) =>
    req.buffer(true).parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });

  async function mailsTo(address: string): Promise<CaughtMail[]> {
    const response = await fetch(`${required('MAIL_CAPTURE_URL')}/messages?to=${encodeURIComponent(address)}`);
    return (await response.json()) as CaughtMail[];
  }

  it('a payment gets invoice 1 with the customer’s details, as a PDF and a mailed receipt; a refund a credit note that names it; an upgrade its proration, in any script', async () => {
    const user = await registerCustomer(subject.app);
    await user
      .post('/billing/details/', {
        name: 'Ada Lovelace Ltd',
        address: '12 Analytical Way\nLondon',
        country: 'United Kingdom',
        tax_id: 'GB999999973',
      })
      .expect(200)
      .expect(({ body }) =>
        expect(body).toEqual({
          name: 'Ada Lovelace Ltd',
          address: '12 Analytical Way\nLondon',
          country: 'United Kingdom',
          tax_id: 'GB999999973',
        }),
      );
    await user
      .post('/billing/details/', { name: '', tax_id: 'x'.repeat(51) })
      .expect(400)
      .expect(({ body }) => expect(JSON.stringify(body)).toMatch(/Billing name is required|Tax id must be at most 50/));

    await paid(user, 2900, { number: 'STRIPE-0001', hosted_invoice_url: 'https://invoice.stripe.com/i/acct_test/inv_test' });
    const [invoice] = await invoicesOf(user, 1);
    expect(invoice).toMatchObject({
      number: `MW-${year}-000001`,
      kind: 'invoice',
      total: '29.00',
      credits_number: null,
      provider_number: 'STRIPE-0001',
      provider_url: 'https://invoice.stripe.com/i/acct_test/inv_test',
    });

    const text = await pdfText(await binary(user.get(`/billing/invoices/${invoice!.id}/pdf`)).expect(200));
    for (const expected of [
      `MW-${year}-000001`,
      'Ada Lovelace Ltd',
      'GB999999973',
      'United Kingdom',
      '$29.00',
      '$4.63',
      'Seller Test GmbH',
      'DE123456789',
      'STRIPE-0001',
    ])
      expect(text).toContain(expected);
    // The seller's name heads the page once, not again in its address block.
    expect(text.split('Seller Test GmbH')).toHaveLength(2);

    // The receipt, with the PDF attached, once.
    let receipts: CaughtMail[] = [];
    await eventually(async () => (receipts = await mailsTo(user.email)).length > 0, 'the receipt');
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({ subject: `Your Meshwork invoice MW-${year}-000001` });
    expect(receipts[0]!.attachments).toEqual([
      { filename: `MW-${year}-000001.pdf`, contentType: 'application/pdf', size: expect.any(Number) },
    ]);
    expect(receipts[0]!.attachments[0]!.size).toBeGreaterThan(1000);

    // Nobody else's.
    const other = await registerCustomer(subject.app);
    await other.get(`/billing/invoices/${invoice!.id}/pdf`).expect(404);
    await other.get('/billing/invoices/not-an-id/pdf').expect(400);
    expect((await other.get('/billing/invoices/').expect(200)).body).toEqual([]);

    // A partial refund from the console: a credit note that credits the invoice.
    await http()
      .post(`/api/v1/admin-panel/payments/${invoice!.payment_id}/refund/`)
      .set(staff())
      .send({ amount: '10.00', reason: 'Goodwill' })
      .expect(200);
    const [creditNote] = await invoicesOf(user, 2);
    expect(creditNote).toMatchObject({
      number: `CN-${year}-000001`,
      kind: 'credit_note',
      total: '-10.00',
      credits_number: `MW-${year}-000001`,
    });

    // The console: the customer's invoices, and the credit note's PDF.
    const consoleList = (await http().get(`/api/v1/admin-panel/invoices/?user_id=${user.userId}`).set(staff()).expect(200))
      .body as AdminInvoice[];
    expect(consoleList.map((i) => i.number)).toEqual([`CN-${year}-000001`, `MW-${year}-000001`]);
    await http().get('/api/v1/admin-panel/invoices/?user_id=nope').set(staff()).expect(400);
    await http()
      .get(`/api/v1/admin-panel/invoices/?user_id=${user.userId}`)
      .set({ Authorization: `Bearer ${user.token}` })
      .expect(403);
    const credit = await pdfText(await binary(http().get(`/api/v1/admin-panel/invoices/${creditNote!.id}/pdf`).set(staff())).expect(200));
    for (const expected of ['CREDIT NOTE', `CN-${year}-000001`, `MW-${year}-000001`, '-$10.00', 'Goodwill', 'Ada Lovelace Ltd'])
      expect(credit).toContain(expected);

    // New details in other scripts, then an upgrade: its invoice prints them, and its proration.
    await user.post('/billing/details/', { name: 'مریم احمدی', address: 'ул. Пушкина, д. 10\nМосква', country: 'Ελλάδα' }).expect(200);
    await paid(user, 1450, { billing_reason: 'subscription_update' });
    const [upgrade] = await invoicesOf(user, 3);
    expect(upgrade).toMatchObject({ number: `MW-${year}-000002`, kind: 'invoice', total: '14.50' });
    const upgraded = await pdfText(await binary(user.get(`/billing/invoices/${upgrade!.id}/pdf`)).expect(200));
    // pdf.js gives a right-to-left run back in reading order when it is one run (a name); a
    // line mixing runs, or a lam-alef ligature, comes back in visual order: not asserted here.
    for (const expected of ['مریم احمدی', 'ул. Пушкина, д. 10', 'Москва', 'Ελλάδα', '$14.50']) expect(upgraded).toContain(expected);
    expect(upgraded.replace(/\s+/g, ' ')).toContain('Upgrade to Pro: prorated for the rest of the period');
  });

  it('numbers stay gap-free under 20 concurrent payments, and rebuilding or replaying gives the same numbers and no second mail', async () => {
    const user = await registerCustomer(subject.app);
    await Promise.all(Array.from({ length: 20 }, (_, i) => paid(user, 1000 + i)));
    await invoicesOf(user, 20);

    const numbers = async () =>
      (await subject.db.pool.query<{ id: string; number: string }>('SELECT id, number FROM rm_invoices.invoices ORDER BY number')).rows;
    const before = await numbers();
    const invoiceNumbers = before.filter((row) => row.number.startsWith('MW-')).map((row) => row.number);
    // Every invoice of this database, this test's 20 and the first test's two: 1..22, none twice, none missing.
    expect(invoiceNumbers).toEqual(Array.from({ length: 22 }, (_, i) => `MW-${year}-${String(i + 1).padStart(6, '0')}`));

    const store = subject.app.get<EventStore>(EVENT_STORE);
    await rebuildProjection(subject.db.pool, store, invoicesProjection);
    expect(await numbers()).toEqual(before);

    // Replay: the follower reads the whole log again; nothing is issued or mailed twice.
    const count = async (type: string) =>
      Number((await subject.db.pool.query<{ n: string }>('SELECT count(*) AS n FROM es_events WHERE type = $1', [type])).rows[0]!.n);
    const issued = await count('InvoiceIssued');
    await eventually(async () => (await count('InvoiceReceiptSent')) === issued, 'every receipt sent');
    const mails = (await mailsTo(user.email)).length;
    expect(mails).toBe(20);
    await subject.db.pool.query('UPDATE projection_checkpoints SET position = 0 WHERE name = $1', [INVOICES_FOLLOWER]);
    // The next payment's events make the follower find its checkpoint moved: it starts over from 0.
    await paid(user, 500);
    await eventually(async () => {
      const { rows } = await subject.db.pool.query<{ position: string }>('SELECT position FROM projection_checkpoints WHERE name = $1', [
        INVOICES_FOLLOWER,
      ]);
      return (await count('InvoiceReceiptSent')) === issued + 1 && Number(rows[0]!.position) >= (await store.headPosition());
    }, 'the follower to replay the log');
    expect(await count('InvoiceIssued')).toBe(issued + 1);
    expect((await mailsTo(user.email)).length).toBe(mails + 1);
    const after = await numbers();
    expect(after.filter((row) => row.number !== `MW-${year}-000023`)).toEqual(before);
    expect(after).toHaveLength(before.length + 1);
  });
});

/**
 * The text of a PDF, read back by pdf-parse (pdf.js) in a child Node: pdf.js loads its
 * worker with a dynamic import, which Jest's module sandbox refuses.
 */
function extractText(pdf: Buffer): Promise<string> {
  const script = `const { PDFParse } = require('pdf-parse');
    const chunks = []; process.stdin.on('data', (c) => chunks.push(c)).on('end', async () => {
      const parser = new PDFParse({ data: new Uint8Array(Buffer.concat(chunks)) });
      process.stdout.write((await parser.getText()).text); await parser.destroy(); });`;
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ['-e', script], { cwd: __dirname }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
    child.stdin!.end(pdf);
  });
}
