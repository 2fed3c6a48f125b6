import { type Decider, unreachable } from '../../platform/domain/decider';

export type InvoiceKind = 'invoice' | 'credit_note';

/** Prefix of each kind's series: invoices and credit notes are numbered apart, per year. */
export const SERIES_PREFIX: Record<InvoiceKind, string> = { invoice: 'MW', credit_note: 'CN' };

/** The series an invoice of `kind` issued at `at` belongs to: `MW-2026`, `CN-2026`. */
export const seriesOf = (kind: InvoiceKind, at: Date) => `${SERIES_PREFIX[kind]}-${at.getUTCFullYear()}`;

/**
 * Who an invoice is from or to. A customer's name, email, address and tax id are sealed
 * under their personal-data key (PersonalFields) before they reach a command, so the log
 * holds them encrypted and deleting the account shreds them; the seller's are plain.
 */
export interface InvoiceParty {
  name: string;
  email: string;
  address: string;
  country: string;
  taxId: string;
}

/** The customer's fields sealed under their key, in the log and the read model alike. */
export const SEALED_PARTY_FIELDS = ['name', 'email', 'address', 'taxId'] as const;

export interface InvoiceLine {
  description: string;
  periodStart: string | null;
  periodEnd: string | null;
  /** Negative on a credit note. */
  amountCents: number;
}

/** Everything printed on one invoice or credit note, fixed when it is issued. */
export interface InvoiceDocument {
  invoiceId: string;
  kind: InvoiceKind;
  userId: string;
  paymentId: string;
  refundId: string | null;
  /** A credit note's invoice number. */
  credits: string | null;
  issuedAt: string;
  currency: 'USD';
  customer: InvoiceParty;
  seller: Omit<InvoiceParty, 'email' | 'country'>;
  lines: InvoiceLine[];
  subtotalCents: number;
  taxRatePercent: number;
  taxCents: number;
  totalCents: number;
  /** The payment provider's own invoice (Stripe's number and hosted page), when it has one. */
  provider: { number: string | null; url: string | null } | null;
}

export interface InvoiceSeriesState {
  /** How many numbers the series has given out: its stream's version, one event per number. */
  issued: number;
}

export type InvoiceSeriesCommand = { type: 'IssueInvoice'; series: string; source: string; document: InvoiceDocument };

export type InvoiceSeriesEvent = {
  type: 'InvoiceIssued';
  data: InvoiceDocument & { series: string; sequence: number; number: string; source: string };
};

/**
 * One numbering series (stream `invoices-<series>`). A number is the series' count plus one,
 * appended with the count as the expected version: the append updates the stream's row in
 * es_streams (row-locked until commit) in the same transaction as the InvoiceIssued event,
 * so a number exists exactly when its invoice does, two writers never get the same one (the
 * second is refused and decides again) and none is skipped. No PostgreSQL sequence is
 * involved (those leave holes on rollback). A rebuild of the read model reads the numbers
 * from the events.
 *
 * The state is only the count, so issuing costs the same on the year's last invoice as on
 * its first: the stream is never folded. That each source is issued once is not decided
 * here but by the event's id, derived from the source (see invoice-series.ts).
 */
export const invoiceSeriesDecider: Decider<InvoiceSeriesCommand, InvoiceSeriesEvent, InvoiceSeriesState> = {
  initialState: () => ({ issued: 0 }),

  decide(command, state) {
    switch (command.type) {
      case 'IssueInvoice': {
        const sequence = state.issued + 1;
        const number = `${command.series}-${String(sequence).padStart(6, '0')}`;
        return [{ type: 'InvoiceIssued', data: { ...command.document, series: command.series, sequence, number, source: command.source } }];
      }
      default:
        return unreachable(command.type);
    }
  },

  evolve(_state, event) {
    switch (event.type) {
      case 'InvoiceIssued':
        return { issued: event.data.sequence };
      default:
        return unreachable(event.type);
    }
  },
};
