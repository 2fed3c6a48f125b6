import type { PoolClient } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import { createEntityTables } from '../../platform/database/read-side';
import type { Projection } from '../../platform/projections/projection';
import { BILLING_DETAILS_EVENT_TYPES, type BillingDetailsEvent, INVOICE_EVENT_TYPES, type InvoiceSeriesEvent } from '../events';
import { INVOICES_ENTITIES, INVOICES_PROJECTION } from './invoices.entities';

export { INVOICES_PROJECTION };

/**
 * Invoices and credit notes with their numbers, and customers' billing details, from billing's
 * events. The numbers are the events' own, so a rebuild gives the same ones.
 */
export const invoicesProjection: Projection = {
  name: INVOICES_PROJECTION,
  version: 1,
  handles: [...INVOICE_EVENT_TYPES, ...BILLING_DETAILS_EVENT_TYPES],
  createTables: (db: PoolClient, schema: string) => createEntityTables(db, schema, INVOICES_ENTITIES),

  async apply(db: PoolClient, schema: string, recorded: RecordedEvent) {
    if (recorded.streamId.startsWith('invoices-') && recorded.type === 'InvoiceIssued') {
      const { data } = recorded as unknown as InvoiceSeriesEvent;
      await db.query(
        `INSERT INTO ${schema}.invoices (id, number, kind, user_id, payment_id, issued_at, sequence_at, total_cents, document)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING`,
        [data.invoiceId, data.number, data.kind, data.userId, data.paymentId, data.issuedAt, recorded.position, data.totalCents, data],
      );
      return;
    }
    if (recorded.streamId.startsWith('billingdetails-') && recorded.type === 'BillingDetailsUpdated') {
      const { data } = recorded as unknown as BillingDetailsEvent;
      const userId = recorded.streamId.slice('billingdetails-'.length);
      await db.query(
        `INSERT INTO ${schema}.billing_details (user_id, name, address, country, tax_id) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (user_id) DO UPDATE SET name = $2, address = $3, country = $4, tax_id = $5`,
        [userId, data.name, data.address, data.country, data.taxId],
      );
    }
  },
};
