// The webhooks context's events as other contexts read them: their types and stored names,
// nothing that runs. Any context may import this file.
import { eventTypesOf } from '../platform/domain/event-types';
import type { WebhookEndpointEvent } from './domain/webhook-endpoint.decider';

export type { WebhookEndpointEvent };

/** Every webhook endpoint event type as stored (stream `webhookendpoint-<id>`). */
export const WEBHOOK_ENDPOINT_EVENT_TYPES = eventTypesOf<WebhookEndpointEvent>()([
  'WebhookEndpointCreated',
  'WebhookEndpointUpdated',
  'WebhookSecretRolled',
  'WebhookEndpointDisabled',
  'WebhookEndpointEnabled',
  'WebhookEndpointDeleted',
]);
