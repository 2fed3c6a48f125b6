import { randomBytes, randomUUID } from 'node:crypto';
import type { NewEvent } from '@meshwork/contracts';
import { PersonalDataVault } from '../../identity/infrastructure/personal-data-vault';
import { UserEventCodec } from '../../identity/infrastructure/user-event-codec';
import { IDENTITY_CHANGED_CHANNEL } from '../../platform/database/notifications';
import { anEvent } from '@meshwork/testkit/api/an-event';
import { projectionScenario, type StreamEvents } from '../../testing/projection-scenario';
import type { PaymentEvent } from '../domain/payment.decider';
import type { SubscriptionEvent } from '../domain/subscription.events';
import { billingProjection } from './billing.projection';

const stream = (streamId: string, ...events: (PaymentEvent | SubscriptionEvent)[]): StreamEvents => ({
  streamId,
  events: events.map((e): NewEvent => anEvent({ type: e.type, data: e.data })),
});

describe('billing read model (events in, rows out)', () => {
  const billing = projectionScenario((pool) => billingProjection(new UserEventCodec(new PersonalDataVault(pool, randomBytes(32)))), {
    listen: IDENTITY_CHANGED_CHANNEL,
  });

  it('a payment refunded in two parts: completed, then refunded once the whole amount is back', async () => {
    const user = randomUUID();
    const paid = stream(
      'payment-p1',
      {
        type: 'PaymentInitiated',
        data: {
          userId: user,
          planId: 'pro',
          amountCents: 2900,
          currency: 'USD',
          kind: 'subscription',
          provider: 'stripe',
          transactionId: 'in_1',
          refundTarget: null,
        },
      },
      { type: 'PaymentSucceeded', data: { refundTarget: 'pi_1' } },
    );
    const partly = await billing
      .given(paid)
      .when(
        stream('payment-p1', { type: 'PaymentRefunded', data: { refundId: 're_1', amountCents: 900, reason: 'goodwill', fully: false } }),
      );
    const payment = `SELECT status, amount_cents, refunded_cents, refund_target, refund_reason FROM ${billing.schema}.payments WHERE id = 'p1'`;
    expect(await partly.rows(payment)).toEqual([
      { status: 'completed', amount_cents: 2900, refunded_cents: 900, refund_target: 'pi_1', refund_reason: 'goodwill' },
    ]);

    const fully = await billing
      .given()
      .when(
        stream('payment-p1', { type: 'PaymentRefunded', data: { refundId: 're_2', amountCents: 2000, reason: 'cancelled', fully: true } }),
      );
    expect(await fully.rows(payment)).toEqual([
      { status: 'refunded', amount_cents: 2900, refunded_cents: 2900, refund_target: 'pi_1', refund_reason: 'cancelled' },
    ]);
    expect(fully.announced).toEqual([]); // the user object carries no payments
  });

  it('a subscription expiring to free: its row goes, the entitlements are the free plan’s, and the user is announced', async () => {
    const user = randomUUID();
    const activated = stream(
      `subscription-${user}`,
      {
        type: 'SubscriptionActivated',
        data: {
          planId: 'pro',
          tier: 2,
          priceCents: 2900,
          cycle: 'monthly',
          periodStart: '2026-01-01T00:00:00.000Z',
          periodEnd: '2026-01-31T00:00:00.000Z',
          provider: 'stripe',
          providerSubscriptionId: 'sub_1',
          checkoutSessionId: null,
        },
      },
      {
        type: 'EntitlementsChanged',
        data: { planId: 'pro', maxNetworks: 5, maxClientsPerNetwork: 10, downloadAccess: true, expiresAt: '2026-01-31T00:00:00.000Z' },
      },
    );
    const then = await billing.given(activated).when(
      stream(
        `subscription-${user}`,
        { type: 'SubscriptionExpired', data: { planId: 'pro', reason: 'period-ended' } },
        {
          type: 'EntitlementsChanged',
          data: { planId: 'free', maxNetworks: 1, maxClientsPerNetwork: 2, downloadAccess: true, expiresAt: null },
        },
      ),
    );
    expect(await then.rows(`SELECT user_id FROM ${billing.schema}.subscriptions`)).toEqual([]);
    expect(
      await then.rows(`SELECT user_id, plan_id, max_networks, max_clients_per_network, expires_at FROM ${billing.schema}.entitlements`),
    ).toEqual([{ user_id: user, plan_id: 'free', max_networks: 1, max_clients_per_network: 2, expires_at: null }]);
    expect(then.announced).toEqual([user]);
  });
});
