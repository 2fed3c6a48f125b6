import { createTestDatabase } from '@meshwork/testkit/api/test-database';
import { WrongExpectedVersionError } from '../../platform/event-store/event-store.errors';
import { eventStoreMigrations } from '../../platform/event-store/event-store.schema';
import { PostgresEventStore } from '../../platform/event-store/postgres-event-store';
import type { InvoiceDocument, InvoiceSeriesEvent } from '../domain/invoice-series.decider';
import { InvoiceSeries } from './invoice-series';

const document = (paymentId: string): InvoiceDocument => ({
  invoiceId: `invoice-${paymentId}`,
  kind: 'invoice',
  userId: 'u1',
  paymentId,
  refundId: null,
  credits: null,
  issuedAt: '2026-03-01T10:00:00.000Z',
  currency: 'USD',
  customer: { name: 'n', email: 'e', address: '', country: '', taxId: '' },
  seller: { name: 'Meshwork Inc.', address: '', taxId: '' },
  lines: [{ description: 'Pro plan subscription', periodStart: null, periodEnd: null, amountCents: 2900 }],
  subtotalCents: 2900,
  taxRatePercent: 0,
  taxCents: 0,
  totalCents: 2900,
  provider: null,
});

/** The numbering against real PostgreSQL: what the follower's one-at-a-time use never races. */
describe('invoice series', () => {
  it('numbers racing writers 1..n with no gap, once per source however often each is sent', async () => {
    const db = await createTestDatabase(eventStoreMigrations);
    const store = new PostgresEventStore(db.pool);
    try {
      const series = new InvoiceSeries(store);
      // A writer that lost the race too often gets the store's 409; its caller tries again.
      const issue = async (source: string): Promise<boolean> => {
        for (;;) {
          try {
            return await series.issue({ type: 'IssueInvoice', series: 'MW-2026', source, document: document(source) });
          } catch (error) {
            if (!(error instanceof WrongExpectedVersionError)) throw error;
          }
        }
      };
      const sources = Array.from({ length: 8 }, (_, i) => `payment-${i}`);
      const firsts = await Promise.all([...sources, ...sources, ...sources].map(issue));
      expect(firsts.filter(Boolean)).toHaveLength(sources.length);

      const stream = (await store.readStream('invoices-MW-2026')) as unknown as (InvoiceSeriesEvent & { streamVersion: number })[];
      expect(stream.map((event) => event.data.number)).toEqual(sources.map((_, i) => `MW-2026-${String(i + 1).padStart(6, '0')}`));
      expect(stream.every((event) => event.data.sequence === event.streamVersion)).toBe(true);
      expect(new Set(stream.map((event) => event.data.source))).toEqual(new Set(sources));

      // Sent again later, after the series moved on: still nothing written, no number used.
      expect(await issue('payment-3')).toBe(false);
      expect(await issue('payment-new')).toBe(true);
      expect((await store.readStream('invoices-MW-2026', 9)).map((event) => (event.data as { number: string }).number)).toEqual([
        'MW-2026-000009',
      ]);
    } finally {
      await store.close();
      await db.drop();
    }
  });
});
