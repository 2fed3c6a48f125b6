import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Pool } from 'pg';
import type { RecordedEvent } from '@meshwork/contracts';
import { CommandFollower, OwnCheckpoint } from '../../platform/projections/command-follower';
import type { LogConsumer } from '../../platform/projections/exclusive-follower';
import { isTransientPostgresError } from '../../platform/projections/retry-policy';
import type { InvoiceSeriesEvent, PaymentEvent } from '../events';
import { ReceiptNotSent } from './invoice-receipts';
import { InvoiceNotYetIssued, IssueInvoice } from './issue-invoice.handler';
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
  private readonly checkpoint: OwnCheckpoint;

  constructor(
    pool: Pool,
    private readonly commands: CommandBus,
  ) {
    this.checkpoint = new OwnCheckpoint(pool, this.name);
  }

  prepare(): Promise<number> {
    return this.checkpoint.read();
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
    return this.checkpoint.move(checkpoint, events[events.length - 1]!.position);
  }

  skip(checkpoint: number, event: RecordedEvent): Promise<number> {
    return this.checkpoint.move(checkpoint, event.position);
  }

  /** A mail server or database that is down heals by itself, a lagging read model too. */
  isTransient(error: unknown): boolean {
    return error instanceof ReceiptNotSent || error instanceof InvoiceNotYetIssued || isTransientPostgresError(error);
  }
}

/** Runs the invoice follower in every api process; one at a time is active. */
@Injectable()
export class InvoiceIssuerFollower extends CommandFollower {
  constructor(private readonly commands: CommandBus) {
    super();
  }

  protected consumer(): LogConsumer {
    return new InvoiceConsumer(this.pool, this.commands);
  }
}
