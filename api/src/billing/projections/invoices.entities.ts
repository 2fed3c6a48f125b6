import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { ReadModelEntities } from '../../platform/database/read-side';
import { readModelSchema } from '../../platform/projections/projection';
import type { InvoiceSeriesEvent } from '../domain/invoice-series.decider';

/**
 * The invoices read model: every invoice and credit note as issued, and each customer's
 * billing details. Customers' personal fields stay sealed here as in the log (decrypted by
 * the query that shows them), so deleting an account leaves nothing readable behind.
 */

export const INVOICES_PROJECTION = 'invoices';

const schema = readModelSchema(INVOICES_PROJECTION);

/** One invoice or credit note; `document` is the InvoiceIssued event's data, as printed. */
@Entity({ schema, name: 'invoices' })
@Index(['user_id', 'sequence_at'])
export class InvoiceRecord {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Index({ unique: true })
  @Column({ type: 'text' })
  number!: string;

  @Column({ type: 'text' })
  kind!: 'invoice' | 'credit_note';

  @Column({ type: 'text' })
  user_id!: string;

  @Index()
  @Column({ type: 'text' })
  payment_id!: string;

  @Column({ type: 'timestamptz' })
  issued_at!: Date;

  /** Log position of the InvoiceIssued event: orders invoices issued in the same instant (bigint as text). */
  @Column({ type: 'bigint' })
  sequence_at!: string;

  @Column({ type: 'integer' })
  total_cents!: number;

  @Column({ type: 'jsonb' })
  document!: InvoiceSeriesEvent['data'];
}

/** A customer's billing details, name, address and tax id sealed under their key. */
@Entity({ schema, name: 'billing_details' })
export class BillingDetailsRecord {
  @PrimaryColumn({ type: 'text' })
  user_id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  address!: string;

  @Column({ type: 'text' })
  country!: string;

  @Column({ type: 'text' })
  tax_id!: string;
}

export const INVOICES_ENTITIES: ReadModelEntities = [InvoiceRecord, BillingDetailsRecord];
