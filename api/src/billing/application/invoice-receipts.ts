import { Inject, Injectable } from '@nestjs/common';
import { PersonalFields } from '../../identity';
import { APP_CONFIG, type AppConfig } from '../../platform/config/config';
import { MAILER, type Mailer } from '../../platform/mail/mailer';
import { invoicePdfBuffer, type PrintableInvoice } from '../infrastructure/invoice-pdf';
import { openInvoice } from './open-invoice';

/**
 * Invoices issued longer ago than this get no receipt: the follower's first run over an
 * existing log issues invoices for old payments, which their customers should not be mailed.
 */
const RECEIPT_WINDOW_MS = 7 * 86_400_000;

/** The mail could not be sent (SMTP down): the follower retries it, without stalling. */
export class ReceiptNotSent extends Error {}

/** Mails an issued invoice or credit note to its customer, with the PDF attached. */
@Injectable()
export class InvoiceReceipts {
  constructor(
    @Inject(MAILER) private readonly mailer: Mailer,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly personal: PersonalFields,
  ) {}

  /** Whether a mail went out (none for an old invoice or an account that is gone). */
  async send(issued: PrintableInvoice, now: Date): Promise<boolean> {
    if (now.getTime() - Date.parse(issued.issuedAt) > RECEIPT_WINDOW_MS) return false;
    const invoice = await openInvoice(this.personal, issued);
    if (!invoice.customer.email) return false; // the account is gone
    const what = invoice.kind === 'credit_note' ? 'credit note' : 'invoice';
    const total = `${invoice.totalCents < 0 ? '-' : ''}$${(Math.abs(invoice.totalCents) / 100).toFixed(2)}`;
    const pdf = await invoicePdfBuffer(invoice);
    try {
      await this.mailer.send({
        to: invoice.customer.email,
        subject: `Your Meshwork ${what} ${invoice.number}`,
        text: [
          `Hello ${invoice.customer.name || 'there'},`,
          '',
          invoice.kind === 'credit_note'
            ? `We refunded ${total} ${invoice.currency}. Credit note ${invoice.number} (for invoice ${invoice.credits}) is attached.`
            : `Thank you for your payment of ${total} ${invoice.currency}. Invoice ${invoice.number} is attached.`,
          '',
          `All your invoices: ${this.config.publicUrl}/billing`,
        ].join('\n'),
        attachments: [{ filename: `${invoice.number}.pdf`, content: pdf, contentType: 'application/pdf' }],
        // The same id if a crash makes the follower send it again: mail clients show one.
        messageId: `<invoice-${invoice.invoiceId}@meshwork.invalid>`,
      });
    } catch (error) {
      throw new ReceiptNotSent(`receipt ${invoice.number} not sent: ${(error as Error).message}`);
    }
    return true;
  }
}
