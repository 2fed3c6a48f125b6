import { z } from 'zod';
import { queryInteger, text } from '../common/fields';
import { timestamp } from '../http/http.contract';

/**
 * Webhooks (Enterprise): endpoints a customer registers, the events they subscribe to, and
 * the log of deliveries. Payloads sent to the endpoints are versioned by `api_version`.
 */

export const WEBHOOK_API_VERSION = '2026-11-01';

/** Every event type an endpoint may subscribe to, with what it means. */
export const WEBHOOK_EVENT_TYPES = {
  'subscription.changed': 'The subscription was activated, upgraded, downgraded, renewed, cancelled, past due or expired.',
  'payment.succeeded': 'A payment went through.',
  'payment.failed': 'A payment was declined.',
  'payment.refunded': 'A payment was refunded, in part or in full.',
  'device.signed_in': 'A new device signed in to the account.',
  'device.revoked': 'A device was revoked: its tokens stopped working.',
  'network.created': 'A network was created.',
  'network.suspended': 'A network was suspended (the plan no longer allows it).',
  'network.deleted': 'A network was deleted.',
  'network.client_joined': 'A client device joined a network.',
  'network.client_left': 'A client device left a network, or was removed from it.',
  'model_access.changed': "A model became available to the account's plan, or stopped being.",
} as const;
export type WebhookEventType = keyof typeof WEBHOOK_EVENT_TYPES;
export const webhookEventTypeNames = Object.keys(WEBHOOK_EVENT_TYPES) as WebhookEventType[];
/** The type of the event an endpoint's owner sends themselves to try it. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WebhookEventTypeList = z
  .object({ event_types: z.array(z.object({ type: z.string(), description: z.string() })) })
  .meta({ id: 'WebhookEventTypeList' });
export type WebhookEventTypeList = z.output<typeof WebhookEventTypeList>;

/** http(s)://host[:port][/path]: no credentials, no spaces (the contracts run where `URL` may not exist). */
const ENDPOINT_URL = /^https?:\/\/[a-z0-9.\-[\]:]+(:\d{1,5})?([/?#][^\s]*)?$/i;

const endpointUrl = text('URL', { max: 2000 }).regex(ENDPOINT_URL, 'URL must be an http or https URL without credentials');

const eventTypes = z
  .array(z.enum(webhookEventTypeNames, { error: 'Event types must be among GET /webhooks/event-types/' }), {
    error: 'Event types must be a list',
  })
  .min(1, 'Choose at least one event type')
  .max(webhookEventTypeNames.length)
  .transform((types) => [...new Set(types)].sort());

export const WebhookEndpointCreate = z.strictObject({
  url: endpointUrl,
  description: text('Description', { max: 500, required: false }).optional(),
  event_types: eventTypes,
});
export type WebhookEndpointCreate = z.input<typeof WebhookEndpointCreate>;

export const WebhookEndpointUpdate = z.strictObject({
  url: endpointUrl.optional(),
  description: text('Description', { max: 500, required: false }).optional(),
  event_types: eventTypes.optional(),
  enabled: z.boolean({ error: 'Enabled must be true or false' }).optional(),
});
export type WebhookEndpointUpdate = z.input<typeof WebhookEndpointUpdate>;

export const WebhookSecretRoll = z.strictObject({
  overlap_hours: z
    .number({ error: 'Overlap hours must be a number' })
    .int('Overlap hours must be a whole number')
    .min(0, 'Overlap hours must be at least 0')
    .max(72, 'Overlap hours must be at most 72')
    .optional(),
});
export type WebhookSecretRoll = z.input<typeof WebhookSecretRoll>;

export const WebhookEndpoint = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string(),
    event_types: z.array(z.string()),
    enabled: z.boolean(),
    /** 'user', 'failing' (disabled after repeated failed deliveries) or 'plan' (the plan lost webhooks). */
    disabled_reason: z.string().nullable(),
    created_at: timestamp,
    secret_hint: z.string(),
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.output<typeof WebhookEndpoint>;

export const WebhookEndpointList = z.object({ results: z.array(WebhookEndpoint) }).meta({ id: 'WebhookEndpointList' });
export type WebhookEndpointList = z.output<typeof WebhookEndpointList>;

export const WebhookEndpointCreated = WebhookEndpoint.extend({ secret: z.string() }).meta({ id: 'WebhookEndpointCreated' });
export type WebhookEndpointCreated = z.output<typeof WebhookEndpointCreated>;

export const WebhookSecretRolled = z.object({ secret: z.string(), previous_expires_at: timestamp }).meta({ id: 'WebhookSecretRolled' });
export type WebhookSecretRolled = z.output<typeof WebhookSecretRolled>;

export const WebhookDelivery = z
  .object({
    id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed', 'retrying']),
    attempts: z.number().int(),
    response_status: z.number().int().nullable(),
    latency_ms: z.number().int().nullable(),
    error: z.string().nullable(),
    created_at: timestamp,
    last_attempt_at: timestamp.nullable(),
    next_attempt_at: timestamp.nullable(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.output<typeof WebhookDelivery>;

export const WebhookDeliveryDetail = WebhookDelivery.extend({
  request_body: z.string(),
  response_body_excerpt: z.string().nullable(),
}).meta({ id: 'WebhookDeliveryDetail' });
export type WebhookDeliveryDetail = z.output<typeof WebhookDeliveryDetail>;

export const WebhookDeliveryPage = z
  .object({ count: z.number().int(), results: z.array(WebhookDelivery) })
  .meta({ id: 'WebhookDeliveryPage' });
export type WebhookDeliveryPage = z.output<typeof WebhookDeliveryPage>;

export const WebhookDeliveryAnswer = z.object({ delivery: WebhookDelivery }).meta({ id: 'WebhookDeliveryAnswer' });
export type WebhookDeliveryAnswer = z.output<typeof WebhookDeliveryAnswer>;

export const WebhookDeliveryListQuery = z.strictObject({ page: queryInteger('Page', { min: 1, max: 100_000 }).optional() });

/** What every request to an endpoint carries: the envelope around `data`. */
function envelope<T extends string, D extends z.ZodType>(type: T, data: D) {
  return z
    .object({
      id: z.string().describe('The event id: the same on every retry and resend; de-duplicate on it.'),
      type: z.literal(type),
      api_version: z.literal(WEBHOOK_API_VERSION),
      created_at: timestamp,
      data,
    })
    .meta({
      id: `WebhookEvent_${type.replaceAll('.', '_')}`,
      description: type === WEBHOOK_TEST_EVENT ? 'A test event.' : WEBHOOK_EVENT_TYPES[type as WebhookEventType],
    });
}

const network = { network_id: z.string() };
const client = { network_id: z.string(), device_id: z.string() };
const payment = { payment_id: z.string(), plan_id: z.string(), amount_cents: z.number().int(), currency: z.string() };

/** One schema per event type: the body POSTed to the endpoint (OpenAPI `webhooks`). */
export const WEBHOOK_PAYLOADS = {
  'subscription.changed': envelope(
    'subscription.changed',
    z.object({
      change: z.enum([
        'activated',
        'upgraded',
        'downgrade_scheduled',
        'downgraded',
        'cancellation_scheduled',
        'cancellation_withdrawn',
        'renewed',
        'past_due',
        'expired',
      ]),
      plan_id: z.string().nullable(),
      effective_at: timestamp.nullable(),
    }),
  ),
  'payment.succeeded': envelope('payment.succeeded', z.object(payment)),
  'payment.failed': envelope('payment.failed', z.object({ ...payment, reason: z.string() })),
  'payment.refunded': envelope(
    'payment.refunded',
    z.object({ ...payment, refund_id: z.string(), refunded_cents: z.number().int(), fully: z.boolean() }),
  ),
  'device.signed_in': envelope('device.signed_in', z.object({ device_id: z.string(), platform: z.string() })),
  'device.revoked': envelope('device.revoked', z.object({ device_id: z.string(), by: z.enum(['user', 'staff']) })),
  'network.created': envelope('network.created', z.object({ ...network, model_id: z.string() })),
  'network.suspended': envelope('network.suspended', z.object({ ...network, reason: z.string() })),
  'network.deleted': envelope('network.deleted', z.object(network)),
  'network.client_joined': envelope('network.client_joined', z.object(client)),
  'network.client_left': envelope('network.client_left', z.object({ ...client, reason: z.string() })),
  'model_access.changed': envelope(
    'model_access.changed',
    z.object({ model_id: z.string(), plan_id: z.string(), access: z.enum(['granted', 'revoked']) }),
  ),
  [WEBHOOK_TEST_EVENT]: envelope(WEBHOOK_TEST_EVENT, z.object({ endpoint_id: z.string(), message: z.string() })),
} as const;
