import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { UserDirectory } from '../../identity';
import { DomainError } from '../../platform/domain/errors';
import type { PaymentEvent } from '../domain/payment.decider';
import {
  type InvoiceDocument,
  type InvoiceKind,
  type InvoiceLine,
  type InvoiceParty,
  SEALED_PARTY_FIELDS,
  seriesOf,
} from '../domain/invoice-series.decider';
import { paidPeriod } from '../domain/subscription.decider';
import { BillingContext, paymentIdFor } from './billing-context';
import { InvoiceQueries } from './invoices.query';
import { InvoicingContext } from './invoicing-context';

export class IssueInvoice {
  constructor(
    readonly paymentId: string,
    /** null: the payment's invoice; otherwise the credit note for this refund. */
    readonly refundId: string | null,
  ) {}
}

/**
 * A credit note's invoice is not in the invoices read model yet (it was issued before, in log
 * order, but the projection lags the follower): the follower retries it until it is.
 */
export class InvoiceNotYetIssued extends Error {}

/**
 * Issues the numbered invoice of a completed payment, or the credit note of one of its
 * refunds, once per payment or refund (InvoiceSeries: the event's id is the source's). Sent
 * by the invoice follower; every figure comes from the log as it stood at the payment or
 * refund (their own events, the subscription then), so issuing again gives the same document.
 * Its cost does not grow with the series: nothing reads the series' stream.
 */
@CommandHandler(IssueInvoice)
export class IssueInvoiceHandler implements ICommandHandler<IssueInvoice, void> {
  constructor(
    private readonly billing: BillingContext,
    private readonly invoicing: InvoicingContext,
    private readonly users: UserDirectory,
    private readonly invoices: InvoiceQueries,
  ) {}

  async execute({ paymentId, refundId }: IssueInvoice): Promise<void> {
    const { state: payment } = await this.billing.payments.load(paymentId);
    if (payment.status === 'none') return;
    const stream = await this.invoicing.store.readStream(this.billing.payments.streamId(paymentId));
    const succeeded = stream.find((event) => event.type === 'PaymentSucceeded');
    if (!succeeded) return; // only a completed payment is invoiced
    const refund = refundId ? stream.find((e) => e.type === 'PaymentRefunded' && (e.data as RefundData).refundId === refundId) : undefined;
    if (refundId && !refund) return;
    const source = refundId ? `${paymentId}:${refundId}` : paymentId;
    const invoiceId = paymentIdFor('invoice', source);
    // Already in the read model: issued. Only a shortcut for a replaying follower (the event
    // id is what guarantees once), which also covers invoices issued before ids were derived.
    if (await this.invoices.numberOf(invoiceId)) return;

    const kind: InvoiceKind = refund ? 'credit_note' : 'invoice';
    const at = refund?.occurredAt ?? succeeded.occurredAt;
    const invoiceSeries = seriesOf('invoice', succeeded.occurredAt);
    let credits: string | null = null;
    let lines: InvoiceLine[];
    if (refund) {
      credits = await this.invoices.numberOf(paymentIdFor('invoice', paymentId));
      if (!credits) throw new InvoiceNotYetIssued(`payment ${paymentId} has no invoice yet`);
      const { amountCents, reason } = refund.data as RefundData;
      lines = [
        {
          description: `Refund of invoice ${credits}${reason ? `: ${reason}` : ''}`,
          periodStart: null,
          periodEnd: null,
          amountCents: -amountCents,
        },
      ];
    } else {
      lines = [await this.paymentLine(payment.userId, payment.planId, payment.kind, payment.amountCents, at)];
    }
    const totalCents = lines.reduce((sum, line) => sum + line.amountCents, 0);
    const taxRatePercent = this.invoicing.config.INVOICE_TAX_PERCENT;
    // The amounts charged include the tax: it is shown as the part of the total it makes up.
    const taxCents = Math.round((totalCents * taxRatePercent) / (100 + taxRatePercent));
    const { SELLER_NAME, SELLER_ADDRESS, SELLER_TAX_ID } = this.invoicing.config;
    const document: InvoiceDocument = {
      invoiceId,
      kind,
      userId: payment.userId,
      paymentId,
      refundId,
      credits,
      issuedAt: at.toISOString(),
      currency: 'USD',
      customer: await this.customer(payment.userId),
      seller: { name: SELLER_NAME, address: SELLER_ADDRESS.replaceAll('\\n', '\n'), taxId: SELLER_TAX_ID },
      lines,
      subtotalCents: totalCents - taxCents,
      taxRatePercent,
      taxCents,
      totalCents,
      provider: payment.providerInvoice ?? null,
    };
    const series = refund ? seriesOf('credit_note', at) : invoiceSeries;
    await this.invoicing.invoiceSeries.issue({ type: 'IssueInvoice', series, source, document });
  }

  /** The line of a payment: its plan, and the period as the subscription stood right after it. */
  private async paymentLine(userId: string, planId: string, kind: string, amountCents: number, at: Date): Promise<InvoiceLine> {
    const planName = await this.billing.planChoice(planId, { archivedToo: true, inactiveToo: true }).then(
      (plan) => plan.terms.name,
      (error: unknown) => {
        if (error instanceof DomainError) return planId;
        throw error;
      },
    );
    // The command that recorded the payment moved the subscription at the same `at` (before
    // or after the payment's own append, depending on the provider): include those events.
    const { state } = await this.billing.subscriptions.replay(userId, (event) => event.occurredAt.getTime() <= at.getTime());
    const period = paidPeriod(state);
    const cycle = period ? ` (${period.cycle})` : '';
    const description =
      kind === 'upgrade'
        ? `Upgrade to ${planName}: prorated for the rest of the period`
        : kind === 'renewal'
          ? `${planName} plan renewal${cycle}`
          : `${planName} plan subscription${cycle}`;
    return {
      description,
      periodStart: period ? (kind === 'upgrade' ? at.toISOString() : period.periodStart) : null,
      periodEnd: period?.periodEnd ?? null,
      amountCents,
    };
  }

  /**
   * The customer as they are now: their billing details (sealed already) or, before they set
   * any, their username; their email. Sealed under their key before it enters the log.
   */
  private async customer(userId: string): Promise<InvoiceParty> {
    const { state: details } = await this.invoicing.billingDetails.load(userId);
    const names = (await this.users.namesOf([userId])).get(userId);
    const email = names?.email ?? '';
    if (details) {
      const sealedEmail = await this.invoicing.personal.encryptFields(userId, { email }, ['email']);
      return { ...details, email: sealedEmail.email };
    }
    const plain: InvoiceParty = { name: names?.username ?? '', email, address: '', country: '', taxId: '' };
    return this.invoicing.personal.encryptFields(userId, plain, SEALED_PARTY_FIELDS);
  }
}

type RefundData = Extract<PaymentEvent, { type: 'PaymentRefunded' }>['data'];
