import type { PersonalFields } from '../../identity';
import { type InvoiceParty, SEALED_PARTY_FIELDS } from '../domain/invoice-series.decider';
import type { PrintableInvoice } from '../infrastructure/invoice-pdf';

/**
 * An issued invoice with its customer's sealed fields decrypted under their key; once the
 * account is deleted (its key shredded) they read as empty, and the rest still prints.
 */
export async function openInvoice(personal: Pick<PersonalFields, 'decryptFields'>, invoice: PrintableInvoice): Promise<PrintableInvoice> {
  const open = await personal.decryptFields(invoice.userId, invoice.customer, SEALED_PARTY_FIELDS);
  const customer = Object.fromEntries(Object.entries(open).map(([key, value]) => [key, value ?? ''])) as unknown as InvoiceParty;
  return { ...invoice, customer };
}
