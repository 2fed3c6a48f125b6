import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { Undocumented } from '../../platform/http/openapi/route-contract';
import { StripeWebhooks } from '../infrastructure/stripe-webhooks';

/** Where Stripe posts its events; the raw body is kept for the signature check (see main.ts). */
export const STRIPE_WEBHOOK_PATH = 'payments/stripe/webhook';

@Controller()
export class StripeWebhookController {
  constructor(private readonly webhooks: StripeWebhooks) {}

  @Post(STRIPE_WEBHOOK_PATH)
  @HttpCode(200)
  @Undocumented('called by Stripe, signed; not for api clients')
  receive(@Req() request: Request) {
    return this.webhooks.receive(Buffer.isBuffer(request.body) ? request.body : undefined, request.header('stripe-signature'));
  }
}
