import type { Decider } from '../../platform/domain/decider';

export type InvoiceReceiptState = { sent: boolean };
export type InvoiceReceiptCommand = { type: 'RecordReceiptSent'; at: Date; number: string };
export type InvoiceReceiptEvent = { type: 'InvoiceReceiptSent'; data: { number: string } };

/** Whether an invoice's receipt was mailed (stream `invoicereceipt-<invoice id>`): once, across restarts. */
export const invoiceReceiptDecider: Decider<InvoiceReceiptCommand, InvoiceReceiptEvent, InvoiceReceiptState> = {
  initialState: () => ({ sent: false }),
  decide: (command, state) => (state.sent ? [] : [{ type: 'InvoiceReceiptSent', data: { number: command.number } }]),
  evolve: () => ({ sent: true }),
};
