import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import type { Request } from 'express';
import { StripeWebhooks } from '../infrastructure/stripe-webhooks';

/** Where Stripe posts its events; the raw body is kept for the signature check (see main.ts). */
export const STRIPE_WEBHOOK_PATH = 'payments/stripe/webhook';

@Controller()
export class StripeWebhookController {
  constructor(private readonly webhooks: StripeWebhooks) {}

  @Post(STRIPE_WEBHOOK_PATH)
  @HttpCode(200)
  @ApiExcludeEndpoint()
  receive(@Req() request: Request) {
    return this.webhooks.receive(Buffer.isBuffer(request.body) ? request.body : undefined, request.header('stripe-signature'));
  }
}
