import { z } from 'zod';
import { text } from '../common/fields';

/** Signed money text: a credit note's amounts are negative ("-29.00"). */
const signedMoney = z.string().regex(/^-?\d+\.\d{2}$/);
const timestamp = z.string().meta({ format: 'date-time' });

/** POST /billing/details/: who the customer's invoices are made out to, from the next one on. */
export const BillingDetailsRequest = z.object({
  name: text('Billing name', { max: 200 }),
  address: text('Address', { max: 500, required: false, multiline: true }).default(''),
  country: text('Country', { max: 80, required: false }).default(''),
  tax_id: text('Tax id', { max: 50, required: false }).default(''),
});
export type BillingDetailsRequest = z.input<typeof BillingDetailsRequest>;

/** GET /billing/details/: empty strings until the customer sets them. */
export const BillingDetails = z
  .object({ name: z.string(), address: z.string(), country: z.string(), tax_id: z.string() })
  .meta({ id: 'BillingDetails' });
export type BillingDetails = z.output<typeof BillingDetails>;

export const InvoiceKind = z.enum(['invoice', 'credit_note']);
export type InvoiceKind = z.output<typeof InvoiceKind>;

/** One numbered invoice (a payment) or credit note (a refund), as the lists show it. */
export const Invoice = z
  .object({
    id: z.string(),
    number: z.string().meta({ description: 'Gap-free per series: MW-<year>-000001 for invoices, CN-<year>-000001 for credit notes.' }),
    kind: InvoiceKind,
    issued_at: timestamp,
    total: signedMoney,
    currency: z.literal('USD'),
    payment_id: z.string(),
    credits_number: z.string().nullable().meta({ description: "A credit note's invoice." }),
    provider_number: z.string().nullable().meta({ description: "Stripe's own invoice number (full mode)." }),
    provider_url: z.string().nullable().meta({ description: "Stripe's hosted invoice page (full mode)." }),
    pdf_url: z.string(),
  })
  .meta({ id: 'Invoice' });
export type Invoice = z.output<typeof Invoice>;

/** The console's row: the invoice and whose it is. */
export const AdminInvoice = Invoice.extend({ user_id: z.string() }).meta({ id: 'AdminInvoice' });
export type AdminInvoice = z.output<typeof AdminInvoice>;
