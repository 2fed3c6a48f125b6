import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { DisabledReason } from '../domain/webhook-endpoint.decider';
import { WebhooksContext } from './webhooks-context';

export class CreateWebhookEndpoint {
  constructor(
    readonly endpointId: string,
    readonly userId: string,
    readonly url: string,
    readonly description: string,
    readonly eventTypes: string[],
    readonly at: Date,
  ) {}
}

/** Registers an endpoint with a new secret; answers the secret, which is shown this once. */
@CommandHandler(CreateWebhookEndpoint)
export class CreateWebhookEndpointHandler implements ICommandHandler<CreateWebhookEndpoint, string> {
  constructor(private readonly context: WebhooksContext) {}

  async execute({ endpointId, userId, url, description, eventTypes, at }: CreateWebhookEndpoint): Promise<string> {
    await this.context.requirePlan(userId);
    const { secret, sealed, hint } = this.context.secrets.newSecret();
    const command = {
      type: 'CreateEndpoint',
      at,
      endpointId,
      userId,
      url: this.context.checkUrl(url),
      description,
      eventTypes,
      secret: { sealed, hint },
    } as const;
    const { position } = await this.context.endpoints.execute(endpointId, command);
    await this.context.caughtUp(position);
    return secret;
  }
}

export class UpdateWebhookEndpoint {
  constructor(
    readonly endpointId: string,
    readonly userId: string,
    readonly changes: { url?: string; description?: string; eventTypes?: string[]; enabled?: boolean },
    readonly at: Date,
  ) {}
}

/** Changes an endpoint's URL, description or events, or switches it on or off (on again after an automatic stop). */
@CommandHandler(UpdateWebhookEndpoint)
export class UpdateWebhookEndpointHandler implements ICommandHandler<UpdateWebhookEndpoint, void> {
  constructor(private readonly context: WebhooksContext) {}

  async execute({ endpointId, userId, changes, at }: UpdateWebhookEndpoint): Promise<void> {
    await this.context.requirePlan(userId);
    if (changes.url !== undefined) this.context.checkUrl(changes.url);
    const { position } = await this.context.endpoints.execute(endpointId, { type: 'UpdateEndpoint', at, userId, ...changes });
    await this.context.caughtUp(position);
  }
}

export class RollWebhookSecret {
  constructor(
    readonly endpointId: string,
    readonly userId: string,
    readonly overlapHours: number,
    readonly at: Date,
  ) {}
}

/** A new secret; the one it replaces still signs for the overlap. Answers the new secret and that end. */
@CommandHandler(RollWebhookSecret)
export class RollWebhookSecretHandler implements ICommandHandler<RollWebhookSecret, { secret: string; previousExpiresAt: string }> {
  constructor(private readonly context: WebhooksContext) {}

  async execute({ endpointId, userId, overlapHours, at }: RollWebhookSecret) {
    await this.context.requirePlan(userId);
    const { secret, sealed, hint } = this.context.secrets.newSecret();
    const { events, position } = await this.context.endpoints.execute(endpointId, {
      type: 'RollSecret',
      at,
      userId,
      overlapHours,
      secret: { sealed, hint },
    });
    await this.context.caughtUp(position);
    const rolled = events.find((e) => e.type === 'WebhookSecretRolled')!;
    return { secret, previousExpiresAt: (rolled.data as { previousExpiresAt: string }).previousExpiresAt };
  }
}

export class DeleteWebhookEndpoint {
  constructor(
    readonly endpointId: string,
    readonly userId: string,
    readonly at: Date,
  ) {}
}

/** Deletes an endpoint; its pending deliveries fail when the sender meets them. */
@CommandHandler(DeleteWebhookEndpoint)
export class DeleteWebhookEndpointHandler implements ICommandHandler<DeleteWebhookEndpoint, void> {
  constructor(private readonly context: WebhooksContext) {}

  async execute({ endpointId, userId, at }: DeleteWebhookEndpoint): Promise<void> {
    const { position } = await this.context.endpoints.execute(endpointId, { type: 'DeleteEndpoint', at, userId });
    await this.context.caughtUp(position);
  }
}

export class DisableWebhookEndpoint {
  constructor(
    readonly endpointId: string,
    readonly reason: Exclude<DisabledReason, 'user'>,
    readonly at: Date,
  ) {}
}

/** The system's stop (actor: system): an endpoint that keeps failing, or whose owner's plan lost webhooks. Answers whether it was on. */
@CommandHandler(DisableWebhookEndpoint)
export class DisableWebhookEndpointHandler implements ICommandHandler<DisableWebhookEndpoint, boolean> {
  constructor(private readonly context: WebhooksContext) {}

  async execute({ endpointId, reason, at }: DisableWebhookEndpoint): Promise<boolean> {
    const { events } = await this.context.endpoints.execute(endpointId, { type: 'DisableEndpoint', at, userId: null, reason });
    return events.length > 0;
  }
}

export const webhooksCommandHandlers = [
  CreateWebhookEndpointHandler,
  UpdateWebhookEndpointHandler,
  RollWebhookSecretHandler,
  DeleteWebhookEndpointHandler,
  DisableWebhookEndpointHandler,
];
