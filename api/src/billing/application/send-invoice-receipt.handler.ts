import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { InvoiceSeriesEvent } from '../domain/invoice-series.decider';
import { InvoiceReceipts } from './invoice-receipts';
import { InvoicingContext } from './invoicing-context';

export class SendInvoiceReceipt {
  constructor(
    readonly invoice: InvoiceSeriesEvent['data'],
    readonly at: Date,
  ) {}
}

/**
 * Mails an issued invoice's receipt unless the log says it was, then records it: once per
 * invoice across restarts and replays. Only a crash between the send and the record could
 * send it twice, and the mail's fixed Message-ID makes the copy read as one.
 */
@CommandHandler(SendInvoiceReceipt)
export class SendInvoiceReceiptHandler implements ICommandHandler<SendInvoiceReceipt, void> {
  constructor(
    private readonly invoicing: InvoicingContext,
    private readonly receipts: InvoiceReceipts,
  ) {}

  async execute({ invoice, at }: SendInvoiceReceipt): Promise<void> {
    const { state } = await this.invoicing.receipts.load(invoice.invoiceId);
    if (state.sent) return;
    if (!(await this.receipts.send(invoice, at))) return;
    await this.invoicing.receipts.execute(invoice.invoiceId, { type: 'RecordReceiptSent', at, number: invoice.number });
  }
}
