import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { z } from 'zod';
import {
  moneyText,
  PaymentMethodInfo,
  Plan,
  SimulatedCheckoutSession,
  SubscribeRequest,
  SubscribeResponse,
  Subscription,
  SubscriptionHistory,
  text,
  VerifyCheckoutRequest,
} from '@meshwork/contracts';
import { AuthGuard, type Caller, CurrentCaller } from '../../identity';
import { notFound } from '../../platform/domain/errors';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { ZodPipe } from '../../platform/http/validation';
import { BillingContext } from '../application/billing-context';
import { BillingQueries } from '../application/billing.query';
import { CancelSubscription } from '../application/cancel-subscription.handler';
import { SettleSimulatedCheckout } from '../application/settle-simulated-checkout.handler';
import { Subscribe, type SubscribeOutcome } from '../application/subscribe.handler';
import { VerifyCheckout } from '../application/verify-checkout.handler';

/** A checkout session's id, as the payment provider made it. */
const checkoutId = new ZodPipe(text('Checkout id', { max: 255 }));

/** The Subscriptions calls of spec section 7, and the simulated checkout behind them. */
@Tag('subscriptions')
@Controller('subscriptions')
export class SubscriptionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: BillingQueries,
    private readonly billing: BillingContext,
  ) {}

  @Get('plans')
  @Route({ summary: 'Plans on sale, cheapest first (public).', response: z.array(Plan) })
  plans(): Promise<Plan[]> {
    return this.queries.plansOnSale();
  }

  @Get('methods')
  @Route({ response: z.array(PaymentMethodInfo) })
  methods(): PaymentMethodInfo[] {
    const simulated = this.billing.provider.mode === 'simulated';
    return [{ id: 'stripe', name: simulated ? 'Card (simulated checkout, no real payment)' : 'Card (Stripe)', simulated }];
  }

  @Get('subscription')
  @UseGuards(AuthGuard)
  @Route({ response: Subscription })
  subscription(@CurrentCaller() caller: Caller): Promise<Subscription> {
    return this.queries.subscription(caller.userId);
  }

  @Get('list')
  @UseGuards(AuthGuard)
  @Route({ summary: 'The subscription and its payment history, newest first.', response: SubscriptionHistory })
  async list(@CurrentCaller() caller: Caller): Promise<SubscriptionHistory> {
    const [subscription, payments] = await Promise.all([this.queries.subscription(caller.userId), this.queries.payments(caller.userId)]);
    return { subscription, payments };
  }

  @Post('create')
  @UseGuards(AuthGuard)
  @Route({
    summary: 'Subscribe (a checkout from free) or change plan (upgrade now, downgrade at the period end).',
    response: SubscribeResponse,
    errors: [404],
  })
  async create(
    @CurrentCaller() caller: Caller,
    @Body(new ZodPipe(SubscribeRequest)) body: z.output<typeof SubscribeRequest>,
  ): Promise<SubscribeResponse> {
    const email = caller.user.email ?? '';
    const result = await this.commands.execute<Subscribe, { outcome: SubscribeOutcome; paymentUrl?: string }>(
      new Subscribe(caller.userId, email, body.plan_id, body.billing_cycle, new Date()),
    );
    const subscription = await this.queries.subscription(caller.userId);
    return {
      outcome: result.outcome,
      ...(result.paymentUrl ? { payment_url: result.paymentUrl } : {}),
      message: messageFor(result.outcome, subscription),
      subscription,
    };
  }

  @Post('cancel')
  @HttpCode(200)
  @UseGuards(AuthGuard)
  @Route({ summary: 'Cancel at the end of the paid period.', response: Subscription, errors: [400] })
  async cancel(@CurrentCaller() caller: Caller): Promise<Subscription> {
    await this.commands.execute(new CancelSubscription(caller.userId, new Date()));
    return this.queries.subscription(caller.userId);
  }

  @Post('verify')
  @HttpCode(200)
  @UseGuards(AuthGuard)
  @Route({
    summary: 'After returning from checkout: activate the subscription if the checkout was paid.',
    response: Subscription,
    errors: [404],
  })
  async verify(
    @CurrentCaller() caller: Caller,
    @Body(new ZodPipe(VerifyCheckoutRequest)) body: z.output<typeof VerifyCheckoutRequest>,
  ): Promise<Subscription> {
    await this.commands.execute(new VerifyCheckout(caller.userId, body.session_id, new Date()));
    return this.queries.subscription(caller.userId);
  }

  @Get('simulated-checkout/:id')
  @UseGuards(AuthGuard)
  @Route({ summary: "Simulated checkout only: the checkout page's data.", response: SimulatedCheckoutSession })
  async simulatedCheckout(@CurrentCaller() caller: Caller, @Param('id', checkoutId) id: string): Promise<SimulatedCheckoutSession> {
    if (this.billing.provider.mode !== 'simulated') throw notFound();
    const checkout = await this.billing.provider.checkout(id);
    if (!checkout || checkout.userId !== caller.userId) throw notFound();
    const plan = await this.queries.plan(checkout.planId!);
    return {
      id,
      plan_id: checkout.planId!,
      plan_name: plan?.name ?? checkout.planId!,
      billing_cycle: checkout.cycle!,
      amount: moneyText(checkout.amountCents),
      currency: 'USD',
      status: checkout.status,
    };
  }

  @Post('simulated-checkout/:id/complete')
  @HttpCode(200)
  @UseGuards(AuthGuard)
  @Route({ summary: 'Simulated checkout only: pay (no money moves).', response: Subscription })
  async completeSimulated(@CurrentCaller() caller: Caller, @Param('id', checkoutId) id: string): Promise<Subscription> {
    await this.commands.execute(new SettleSimulatedCheckout(caller.userId, id, 'complete', new Date()));
    return this.queries.subscription(caller.userId);
  }

  @Post('simulated-checkout/:id/cancel')
  @HttpCode(200)
  @UseGuards(AuthGuard)
  @Route({ summary: 'Simulated checkout only: give up the checkout.', response: Subscription })
  async cancelSimulated(@CurrentCaller() caller: Caller, @Param('id', checkoutId) id: string): Promise<Subscription> {
    await this.commands.execute(new SettleSimulatedCheckout(caller.userId, id, 'expired', new Date()));
    return this.queries.subscription(caller.userId);
  }
}

function messageFor(outcome: SubscribeOutcome, subscription: Subscription): string {
  const date = subscription.expires_at ? new Date(subscription.expires_at).toLocaleDateString('en-US', { dateStyle: 'medium' }) : '';
  switch (outcome) {
    case 'checkout':
      return 'Redirecting to checkout...';
    case 'upgraded':
      return `You are now on ${subscription.plan_name}. The prorated difference for this period has been charged.`;
    case 'downgrade_scheduled':
      return subscription.cancel_at_period_end
        ? `Your subscription ends on ${date}; you then return to the free plan.`
        : `Your plan changes to ${subscription.scheduled_plan_name} on ${date}, at the end of this billing period.`;
    case 'unchanged':
      return `You stay on ${subscription.plan_name}.`;
  }
}
