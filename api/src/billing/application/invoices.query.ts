import { Inject, Injectable } from '@nestjs/common';
import { type AdminInvoice, type BillingDetails, type Invoice, moneyText } from '@meshwork/contracts';
import { PersonalFields } from '../../identity';
import { DATABASE, type Database } from '../../platform/database/database';
import { readSide } from '../../platform/database/read-side';
import { notFound } from '../../platform/domain/errors';
import { SEALED_BILLING_FIELDS } from '../domain/billing-details.decider';
import type { Readable } from 'node:stream';
import { invoicePdf, pdfHeaders, type PrintableInvoice } from '../infrastructure/invoice-pdf';
import { BillingDetailsRecord, INVOICES_ENTITIES, InvoiceRecord } from '../projections/invoices.entities';
import { openInvoice } from './open-invoice';

/** The most rows one list answers: a customer's invoices over many years, or the console's page. */
const MAX_ROWS = 500;

/** Invoices, credit notes and billing details, read from the invoices read model. */
@Injectable()
export class InvoiceQueries {
  constructor(
    @Inject(DATABASE) private readonly database: Database,
    private readonly personal: PersonalFields,
  ) {}

  /** A customer's invoices and credit notes, newest first. */
  async ofCustomer(userId: string): Promise<Invoice[]> {
    const rows = await (await this.invoices()).find({ where: { user_id: userId }, order: { sequence_at: 'DESC' }, take: MAX_ROWS });
    return rows.map((row) => toInvoice(row, '/api/v1/billing/invoices'));
  }

  /** The console's invoices, newest first: one customer's, one payment's, or the newest of all. */
  async forConsole(filter: { userId?: string; paymentId?: string }): Promise<AdminInvoice[]> {
    const where = { ...(filter.userId ? { user_id: filter.userId } : {}), ...(filter.paymentId ? { payment_id: filter.paymentId } : {}) };
    const rows = await (await this.invoices()).find({ where, order: { sequence_at: 'DESC' }, take: MAX_ROWS });
    return rows.map((row) => ({ ...toInvoice(row, '/api/v1/admin-panel/invoices'), user_id: row.user_id }));
  }

  /** One invoice to print; `ownerId` set: only that customer's (anyone else's is not found). */
  async printable(invoiceId: string, ownerId: string | null): Promise<PrintableInvoice> {
    const row = await (await this.invoices()).findOneBy({ id: invoiceId });
    if (!row || (ownerId !== null && row.user_id !== ownerId)) throw notFound();
    return openInvoice(this.personal, row.document);
  }

  /** An invoice's number, or null while this read model does not hold it (yet). */
  async numberOf(invoiceId: string): Promise<string | null> {
    const row = await (await this.invoices()).findOne({ select: { number: true }, where: { id: invoiceId } });
    return row?.number ?? null;
  }

  /** One invoice's PDF, streamed as it is drawn, with its answer's headers. */
  async pdf(invoiceId: string, ownerId: string | null): Promise<{ headers: Record<string, string>; document: Readable }> {
    const invoice = await this.printable(invoiceId, ownerId);
    return { headers: pdfHeaders(invoice), document: invoicePdf(invoice) };
  }

  /** The customer's billing details, opened; empty before they set any. */
  async billingDetails(userId: string): Promise<BillingDetails> {
    const data = await readSide(this.database.pool, INVOICES_ENTITIES);
    const row = await data.getRepository(BillingDetailsRecord).findOneBy({ user_id: userId });
    if (!row) return { name: '', address: '', country: '', tax_id: '' };
    const sealed = { name: row.name, address: row.address, taxId: row.tax_id };
    const open = await this.personal.decryptFields(userId, sealed, SEALED_BILLING_FIELDS);
    return { name: open.name ?? '', address: open.address ?? '', country: row.country, tax_id: open.taxId ?? '' };
  }

  private async invoices() {
    return (await readSide(this.database.pool, INVOICES_ENTITIES)).getRepository(InvoiceRecord);
  }
}

function toInvoice(row: InvoiceRecord, base: string): Invoice {
  const { document } = row;
  return {
    id: row.id,
    number: row.number,
    kind: row.kind,
    issued_at: row.issued_at.toISOString(),
    total: `${row.total_cents < 0 ? '-' : ''}${moneyText(Math.abs(row.total_cents))}`,
    currency: 'USD',
    payment_id: row.payment_id,
    credits_number: document.credits,
    provider_number: document.provider?.number ?? null,
    provider_url: document.provider?.url ?? null,
    pdf_url: `${base}/${row.id}/pdf`,
  };
}
