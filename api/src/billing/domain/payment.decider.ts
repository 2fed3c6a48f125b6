import { moneyText } from '@meshwork/contracts';
import { type Decider, unreachable } from '../../platform/domain/decider';
import { notFound, ruleBroken } from '../../platform/domain/errors';
import type { PaymentProviderName } from './subscription.events';

export type PaymentKind = 'subscription' | 'upgrade' | 'renewal';

interface PaymentFacts {
  userId: string;
  planId: string;
  amountCents: number;
  currency: 'USD';
  kind: PaymentKind;
  provider: PaymentProviderName;
  /** The provider's reference (Stripe invoice id, or the simulated checkout's). */
  transactionId: string;
  /** What a refund is issued against at the provider (Stripe payment intent or charge). */
  refundTarget: string | null;
  /** The provider's own invoice (Stripe's number and hosted page); absent for the simulated checkout. */
  providerInvoice?: { number: string | null; url: string | null };
}

export type PaymentState =
  | { status: 'none' }
  | ({ status: 'pending' | 'completed' | 'failed' | 'refunded'; refundedCents: number; refundIds: string[] } & PaymentFacts);

export type PaymentCommand =
  | ({ type: 'RecordPayment'; at: Date; outcome: 'succeeded' | 'failed' | 'pending'; failureReason?: string } & PaymentFacts)
  | { type: 'SettlePayment'; at: Date; outcome: 'succeeded' | 'failed'; failureReason?: string; refundTarget?: string | null }
  | { type: 'RefundPayment'; at: Date; refundId: string; amountCents: number; reason: string };

export type PaymentEvent =
  | { type: 'PaymentInitiated'; data: PaymentFacts }
  | { type: 'PaymentSucceeded'; data: { refundTarget: string | null } }
  | { type: 'PaymentFailed'; data: { reason: string } }
  | { type: 'PaymentRefunded'; data: { refundId: string; amountCents: number; reason: string; fully: boolean } };

function settle(outcome: 'succeeded' | 'failed' | 'pending', reason: string | undefined, refundTarget: string | null): PaymentEvent[] {
  if (outcome === 'pending') return [];
  return outcome === 'succeeded'
    ? [{ type: 'PaymentSucceeded', data: { refundTarget } }]
    : [{ type: 'PaymentFailed', data: { reason: reason ?? 'The payment was declined.' } }];
}

type RecordedPayment = Exclude<PaymentState, { status: 'none' }>;

function completed(state: PaymentState): RecordedPayment {
  if (state.status === 'none') throw notFound();
  if (state.status !== 'completed') throw ruleBroken('Only completed payments can be refunded.');
  return state;
}

/** The cents of a payment still to refund; throws when it cannot be refunded at all. */
export function refundableCents(state: PaymentState): number {
  const payment = completed(state);
  return payment.amountCents - payment.refundedCents;
}

/**
 * The refund guard, asked before money moves at the provider: the payment, when
 * `amountCents` may be refunded from it now; otherwise the rule it breaks.
 */
export function refundable(state: PaymentState, amountCents: number): RecordedPayment {
  const left = refundableCents(state);
  if (amountCents <= 0) throw ruleBroken('Amount must be more than 0', 'amount');
  if (amountCents > left) throw ruleBroken(`Amount must be at most ${moneyText(left)}`, 'amount');
  return completed(state);
}

/**
 * One payment: initiated, then succeeded or failed; a completed payment can be refunded in
 * parts until nothing is left. Each provider reference maps to one payment, so news about
 * it twice records it once; each refund is idempotent by its refund id.
 */
export const paymentDecider: Decider<PaymentCommand, PaymentEvent, PaymentState> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'RecordPayment': {
        if (state.status !== 'none')
          return state.status === 'pending' ? settle(command.outcome, command.failureReason, command.refundTarget) : [];
        const { userId, planId, amountCents, currency, kind, provider, transactionId, refundTarget } = command;
        const facts: PaymentFacts = { userId, planId, amountCents, currency, kind, provider, transactionId, refundTarget };
        if (command.providerInvoice) facts.providerInvoice = command.providerInvoice;
        return [{ type: 'PaymentInitiated', data: facts }, ...settle(command.outcome, command.failureReason, refundTarget)];
      }
      case 'SettlePayment':
        if (state.status === 'none') throw notFound();
        return state.status === 'pending' ? settle(command.outcome, command.failureReason, command.refundTarget ?? state.refundTarget) : [];
      case 'RefundPayment': {
        if (state.status === 'none') throw notFound();
        if (state.refundIds.includes(command.refundId)) return []; // this refund is recorded already
        const { refundId, amountCents, reason } = command;
        const payment = refundable(state, amountCents);
        const fully = amountCents === payment.amountCents - payment.refundedCents;
        return [{ type: 'PaymentRefunded', data: { refundId, amountCents, reason, fully } }];
      }
      default:
        return unreachable(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'PaymentInitiated':
        return { status: 'pending', refundedCents: 0, refundIds: [], ...event.data };
      case 'PaymentSucceeded':
        if (state.status === 'none') return state;
        return { ...state, status: 'completed', refundTarget: event.data.refundTarget };
      case 'PaymentFailed':
        if (state.status === 'none') return state;
        return { ...state, status: 'failed' };
      case 'PaymentRefunded':
        if (state.status === 'none') return state;
        return {
          ...state,
          status: event.data.fully ? 'refunded' : state.status,
          refundedCents: state.refundedCents + event.data.amountCents,
          refundIds: [...state.refundIds, event.data.refundId],
        };
      default:
        return unreachable(event);
    }
  },
};
