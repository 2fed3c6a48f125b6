import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity';
import { DeliveryOutbox } from './application/delivery-outbox';
import { webhooksCommandHandlers } from './application/endpoint-commands.handler';
import { WebhookDispatcher } from './application/webhook-dispatcher';
import { WebhookPlanFollower } from './application/webhook-plan.follower';
import { WebhooksContext } from './application/webhooks-context';
import { WebhookQueries } from './application/webhooks.query';
import { WebhooksController } from './http/webhooks.controller';

/**
 * Webhooks (Enterprise): customers' endpoints (event-sourced), the deliveries the webhooks
 * projection writes from the other contexts' events, and the sender in every api process;
 * the plan follower switches endpoints off when their owner's plan loses webhooks.
 */
@Module({
  imports: [IdentityModule],
  controllers: [WebhooksController],
  providers: [...webhooksCommandHandlers, WebhooksContext, WebhookQueries, DeliveryOutbox, WebhookDispatcher, WebhookPlanFollower],
})
export class WebhooksModule {}
