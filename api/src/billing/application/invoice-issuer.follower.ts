import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Pool } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import { DATABASE, type Database } from '../../platform/database/database';
import { EVENT_STORE, type EventStore } from '../../platform/event-store/event-store.port';
import { logger } from '../../platform/logging/logger';
import { ExclusiveFollower, type LogConsumer, NotOwnerError } from '../../platform/projections/exclusive-follower';
import { isTransientPostgresError } from '../../platform/projections/retry-policy';
import type { InvoiceSeriesEvent, PaymentEvent } from '../events';
import { ReceiptNotSent } from './invoice-receipts';
import { IssueInvoice } from './issue-invoice.handler';
import { SendInvoiceReceipt } from './send-invoice-receipt.handler';

export const INVOICES_FOLLOWER = 'billing_invoices';

const idOf = (streamId: string) => streamId.slice(streamId.indexOf('-') + 1);

/**
 * Invoices follow the log: a completed payment gets its invoice, each refund its credit note
 * (IssueInvoice, once per payment or refund however often it is sent), and each issued
 * invoice is mailed as a receipt (SendInvoiceReceipt, once per invoice). At least once, with
 * the checkpoint moved after a batch's commands succeeded; numbers are given in log order
 * by one api instance at a time (ExclusiveFollower's advisory lock).
 */
class InvoiceConsumer implements LogConsumer {
  readonly name = INVOICES_FOLLOWER;

  constructor(
    private readonly pool: Pool,
    private readonly commands: CommandBus,
  ) {}

  async prepare(): Promise<number> {
    await this.pool.query('INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT DO NOTHING', [this.name]);
    const { rows } = await this.pool.query<{ position: string }>('SELECT position FROM projection_checkpoints WHERE name = $1', [
      this.name,
    ]);
    return Number(rows[0]!.position);
  }

  async handle(checkpoint: number, events: RecordedEvent[]): Promise<number> {
    for (const event of events) {
      if (event.streamId.startsWith('payment-')) {
        const payment = event as unknown as PaymentEvent;
        if (payment.type === 'PaymentSucceeded') await this.commands.execute(new IssueInvoice(idOf(event.streamId), null));
        if (payment.type === 'PaymentRefunded') await this.commands.execute(new IssueInvoice(idOf(event.streamId), payment.data.refundId));
      } else if (event.streamId.startsWith('invoices-') && event.type === 'InvoiceIssued') {
        await this.commands.execute(new SendInvoiceReceipt((event as unknown as InvoiceSeriesEvent).data, new Date()));
      }
    }
    return this.moveCheckpoint(checkpoint, events[events.length - 1]!.position);
  }

  skip(checkpoint: number, event: RecordedEvent): Promise<number> {
    return this.moveCheckpoint(checkpoint, event.position);
  }

  /** A mail server or database that is down heals by itself. */
  isTransient(error: unknown): boolean {
    return error instanceof ReceiptNotSent || isTransientPostgresError(error);
  }

  private async moveCheckpoint(from: number, to: number): Promise<number> {
    if (to === from) return to;
    const { rowCount } = await this.pool.query(
      'UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE name = $1 AND position = $3',
      [this.name, to, from],
    );
    if (rowCount === 0) throw new NotOwnerError('invoices checkpoint moved under us: another follower is running');
    return to;
  }
}

/** Runs the invoice follower in every api process; one at a time is active. */
@Injectable()
export class InvoiceIssuerFollower implements OnApplicationBootstrap, OnApplicationShutdown {
  private follower: ExclusiveFollower | null = null;

  constructor(
    @Inject(DATABASE) private readonly database: Database,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly commands: CommandBus,
  ) {}

  onApplicationBootstrap(): void {
    const consumer = new InvoiceConsumer(this.database.pool, this.commands);
    this.follower = new ExclusiveFollower(this.database.pool, this.store, consumer, { logger }).start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.follower?.stop();
  }
}
