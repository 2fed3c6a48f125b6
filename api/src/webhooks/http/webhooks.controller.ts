import { randomUUID } from 'node:crypto';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  uuid,
  WEBHOOK_EVENT_TYPES,
  WebhookDeliveryAnswer,
  WebhookDeliveryDetail,
  WebhookDeliveryListQuery,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointCreate,
  WebhookEndpointCreated,
  WebhookEndpointList,
  WebhookEndpointUpdate,
  WebhookEventTypeList,
  WebhookSecretRoll,
  WebhookSecretRolled,
} from '@meshwork/contracts';
import type { z } from 'zod';
import { AuthGuard, type Caller, CurrentCaller } from '../../identity';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { ZodPipe } from '../../platform/http/validation';
import { DeliveryOutbox } from '../application/delivery-outbox';
import {
  CreateWebhookEndpoint,
  DeleteWebhookEndpoint,
  RollWebhookSecret,
  UpdateWebhookEndpoint,
} from '../application/endpoint-commands.handler';
import { WebhooksContext } from '../application/webhooks-context';
import { toDelivery, toEndpoint, WebhookQueries } from '../application/webhooks.query';

const endpointId = new ZodPipe(uuid('Endpoint id'));
const deliveryId = new ZodPipe(uuid('Delivery id'));

/** Webhooks (Enterprise): endpoints, their secrets, test events and the delivery log. */
@Tag('webhooks')
@Controller('webhooks')
@UseGuards(AuthGuard)
export class WebhooksController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: WebhookQueries,
    private readonly outbox: DeliveryOutbox,
    private readonly context: WebhooksContext,
  ) {}

  @Get('event-types')
  @Route({ summary: 'The event types an endpoint may subscribe to.', response: WebhookEventTypeList, errors: [403] })
  async eventTypes(@CurrentCaller() caller: Caller): Promise<WebhookEventTypeList> {
    await this.context.requirePlan(caller.userId);
    return { event_types: Object.entries(WEBHOOK_EVENT_TYPES).map(([type, description]) => ({ type, description })) };
  }

  @Get('endpoints')
  @Route({ summary: "The caller's webhook endpoints.", response: WebhookEndpointList, errors: [403] })
  async list(@CurrentCaller() caller: Caller): Promise<WebhookEndpointList> {
    await this.context.requirePlan(caller.userId);
    return { results: await this.queries.endpointsOf(caller.userId) };
  }

  @Post('endpoints')
  @Route({ summary: 'Register an endpoint; its signing secret is shown this once.', response: WebhookEndpointCreated, errors: [403] })
  async create(
    @CurrentCaller() caller: Caller,
    @Body(new ZodPipe(WebhookEndpointCreate)) body: z.output<typeof WebhookEndpointCreate>,
  ): Promise<WebhookEndpointCreated> {
    const id = randomUUID();
    const secret = await this.commands.execute(
      new CreateWebhookEndpoint(id, caller.userId, body.url, body.description ?? '', body.event_types, new Date()),
    );
    return { ...toEndpoint(await this.queries.endpoint(caller.userId, id)), secret };
  }

  @Patch('endpoints/:id')
  @Route({ summary: 'Change an endpoint, or enable or disable it.', response: WebhookEndpoint, errors: [403] })
  async update(
    @CurrentCaller() caller: Caller,
    @Param('id', endpointId) id: string,
    @Body(new ZodPipe(WebhookEndpointUpdate)) body: z.output<typeof WebhookEndpointUpdate>,
  ): Promise<WebhookEndpoint> {
    const { url, description, event_types: eventTypes, enabled } = body;
    await this.commands.execute(new UpdateWebhookEndpoint(id, caller.userId, { url, description, eventTypes, enabled }, new Date()));
    return toEndpoint(await this.queries.endpoint(caller.userId, id));
  }

  @Delete('endpoints/:id')
  @HttpCode(204)
  @Route({ summary: 'Delete an endpoint.' })
  async remove(@CurrentCaller() caller: Caller, @Param('id', endpointId) id: string): Promise<void> {
    await this.commands.execute(new DeleteWebhookEndpoint(id, caller.userId, new Date()));
  }

  @Post('endpoints/:id/roll-secret')
  @HttpCode(200)
  @Route({
    summary: 'A new signing secret; the old one also signs for `overlap_hours` (default 24).',
    response: WebhookSecretRolled,
    errors: [403],
  })
  async rollSecret(
    @CurrentCaller() caller: Caller,
    @Param('id', endpointId) id: string,
    @Body(new ZodPipe(WebhookSecretRoll)) body: z.output<typeof WebhookSecretRoll>,
  ): Promise<WebhookSecretRolled> {
    const rolled = await this.commands.execute(new RollWebhookSecret(id, caller.userId, body.overlap_hours ?? 24, new Date()));
    return { secret: rolled.secret, previous_expires_at: rolled.previousExpiresAt };
  }

  @Post('endpoints/:id/test')
  @HttpCode(202)
  @Route({ summary: 'Send the endpoint a `webhook.test` event.', response: WebhookDeliveryAnswer, errors: [403] })
  async test(@CurrentCaller() caller: Caller, @Param('id', endpointId) id: string): Promise<WebhookDeliveryAnswer> {
    await this.context.requirePlan(caller.userId);
    const endpoint = await this.queries.endpoint(caller.userId, id);
    return { delivery: toDelivery(await this.outbox.test(endpoint.id, caller.userId, new Date())) };
  }

  @Get('endpoints/:id/deliveries')
  @Route({ summary: "The endpoint's deliveries, newest first, 25 a page.", response: WebhookDeliveryPage, errors: [403] })
  async deliveries(
    @CurrentCaller() caller: Caller,
    @Param('id', endpointId) id: string,
    @Query(new ZodPipe(WebhookDeliveryListQuery)) query: z.output<typeof WebhookDeliveryListQuery>,
  ): Promise<WebhookDeliveryPage> {
    await this.context.requirePlan(caller.userId);
    return this.queries.deliveries(caller.userId, id, query.page ?? 1);
  }

  @Get('deliveries/:id')
  @Route({ summary: 'One delivery with the body sent and the start of the answer.', response: WebhookDeliveryDetail, errors: [403] })
  async delivery(@CurrentCaller() caller: Caller, @Param('id', deliveryId) id: string): Promise<WebhookDeliveryDetail> {
    await this.context.requirePlan(caller.userId);
    return this.queries.deliveryDetail(await this.queries.delivery(caller.userId, id));
  }

  @Post('deliveries/:id/resend')
  @HttpCode(202)
  @Route({
    summary: 'Send the delivery again: the same event id, a new series of attempts.',
    response: WebhookDeliveryAnswer,
    errors: [403],
  })
  async resend(@CurrentCaller() caller: Caller, @Param('id', deliveryId) id: string): Promise<WebhookDeliveryAnswer> {
    await this.context.requirePlan(caller.userId);
    const original = await this.queries.delivery(caller.userId, id);
    await this.queries.endpoint(caller.userId, original.endpoint_id);
    return { delivery: toDelivery(await this.outbox.resend(original)) };
  }
}
