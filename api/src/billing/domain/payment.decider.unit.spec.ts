import { given } from '../../platform/testing/given-when-then';
import { replay } from '../../platform/domain/decider';
import { type PaymentCommand, type PaymentEvent, paymentDecider, refundable, refundableCents } from './payment.decider';

const at = new Date('2026-03-01T10:00:00Z');
const facts = {
  userId: 'u1',
  planId: 'pro',
  amountCents: 2900,
  currency: 'USD' as const,
  kind: 'subscription' as const,
  provider: 'stripe' as const,
  transactionId: 'in_1',
  refundTarget: 'pi_1',
};
const record = (outcome: 'succeeded' | 'failed' | 'pending'): PaymentCommand => ({ type: 'RecordPayment', at, outcome, ...facts });
const initiated: PaymentEvent = { type: 'PaymentInitiated', data: facts };
const succeeded: PaymentEvent = { type: 'PaymentSucceeded', data: { refundTarget: 'pi_1' } };
const refund = (refundId: string, amountCents: number): PaymentCommand => ({
  type: 'RefundPayment',
  at,
  refundId,
  amountCents,
  reason: 'goodwill',
});

describe('payment decider', () => {
  it('records a payment as initiated and settled, once however often it is reported', () => {
    given(paymentDecider).when(record('succeeded')).then([initiated, succeeded]);
    given(paymentDecider).when(record('pending')).then([initiated]);
    given(paymentDecider, [initiated, succeeded]).when(record('succeeded')).then([]);
  });

  it('settles a pending payment as succeeded or failed, and only once', () => {
    given(paymentDecider, [initiated]).when(record('succeeded')).then([succeeded]);
    given(paymentDecider, [initiated])
      .when({ type: 'SettlePayment', at, outcome: 'failed', failureReason: 'card declined' })
      .then([{ type: 'PaymentFailed', data: { reason: 'card declined' } }]);
    given(paymentDecider, [initiated, succeeded]).when({ type: 'SettlePayment', at, outcome: 'failed' }).then([]);
  });

  it('refunds in parts, marks refunded when nothing is left, never beyond the amount', () => {
    given(paymentDecider, [initiated, succeeded])
      .when(refund('re_1', 900))
      .then([{ type: 'PaymentRefunded', data: { refundId: 're_1', amountCents: 900, reason: 'goodwill', fully: false } }]);
    const partly: PaymentEvent[] = [
      initiated,
      succeeded,
      { type: 'PaymentRefunded', data: { refundId: 're_1', amountCents: 900, reason: 'x', fully: false } },
    ];
    given(paymentDecider, partly)
      .when(refund('re_2', 2001))
      .thenThrows(/at most 20.00/);
    given(paymentDecider, partly)
      .when(refund('re_2', 2000))
      .then([{ type: 'PaymentRefunded', data: { refundId: 're_2', amountCents: 2000, reason: 'goodwill', fully: true } }]);
    expect(given(paymentDecider, partly).when(refund('re_2', 2000)).thenState()).toMatchObject({ status: 'refunded', refundedCents: 2900 });
  });

  it('applies the same refund once (the console issues it, the webhook reports it again)', () => {
    const partly: PaymentEvent[] = [
      initiated,
      succeeded,
      { type: 'PaymentRefunded', data: { refundId: 're_1', amountCents: 900, reason: 'x', fully: false } },
    ];
    given(paymentDecider, partly).when(refund('re_1', 900)).then([]);
  });

  it('refunds only completed payments', () => {
    given(paymentDecider, [initiated])
      .when(refund('re_1', 100))
      .thenThrows(/Only completed payments/);
    given(paymentDecider, [initiated, { type: 'PaymentFailed', data: { reason: 'declined' } }])
      .when(refund('re_1', 100))
      .thenThrows(/Only completed payments/);
    given(paymentDecider)
      .when(refund('re_1', 100))
      .thenThrows(/not found/);
    given(paymentDecider, [initiated, succeeded])
      .when(refund('re_1', 0))
      .thenThrows(/more than 0/);
  });

  describe('refund guards, asked before money moves at the provider', () => {
    const stateOf = (events: PaymentEvent[]) => replay(paymentDecider, events);
    const partlyRefunded = stateOf([
      initiated,
      succeeded,
      { type: 'PaymentRefunded', data: { refundId: 're_1', amountCents: 900, reason: 'x', fully: false } },
    ]);

    it('refundableCents is what is left of a completed payment', () => {
      expect(refundableCents(stateOf([initiated, succeeded]))).toBe(2900);
      expect(refundableCents(partlyRefunded)).toBe(2000);
      expect(() => refundableCents(stateOf([initiated]))).toThrow(/Only completed payments/);
      expect(() => refundableCents(stateOf([]))).toThrow(/not found/);
    });

    it('refundable answers the payment (with its refund target) for an amount within what is left', () => {
      expect(refundable(partlyRefunded, 2000)).toMatchObject({ status: 'completed', refundTarget: 'pi_1' });
      expect(() => refundable(partlyRefunded, 2001)).toThrow(/at most 20.00/);
      expect(() => refundable(partlyRefunded, 0)).toThrow(/more than 0/);
      const full = stateOf([
        initiated,
        succeeded,
        { type: 'PaymentRefunded', data: { refundId: 're_1', amountCents: 2900, reason: 'x', fully: true } },
      ]);
      expect(() => refundable(full, 100)).toThrow(/Only completed payments/);
    });
  });
});
