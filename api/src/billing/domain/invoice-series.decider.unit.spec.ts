import { given } from '../../platform/testing/given-when-then';
import { type InvoiceDocument, invoiceSeriesDecider, type InvoiceSeriesEvent, seriesOf } from './invoice-series.decider';

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
const issued = (paymentId: string, sequence: number): InvoiceSeriesEvent => ({
  type: 'InvoiceIssued',
  data: { ...document(paymentId), series: 'MW-2026', sequence, number: `MW-2026-${String(sequence).padStart(6, '0')}`, source: paymentId },
});
const issue = (paymentId: string) => ({
  type: 'IssueInvoice' as const,
  series: 'MW-2026',
  source: paymentId,
  document: document(paymentId),
});

describe('invoice series decider', () => {
  it('numbers a series from 1, each number the one after the last', () => {
    given(invoiceSeriesDecider)
      .when(issue('p1'))
      .then([issued('p1', 1)]);
    given(invoiceSeriesDecider, [issued('p1', 1), issued('p2', 2)])
      .when(issue('p3'))
      .then([issued('p3', 3)]);
  });

  it('keeps invoices and credit notes in series of their own, per year', () => {
    expect(seriesOf('invoice', new Date('2026-12-31T23:59:59Z'))).toBe('MW-2026');
    expect(seriesOf('credit_note', new Date('2027-01-01T00:00:00Z'))).toBe('CN-2027');
  });
});
