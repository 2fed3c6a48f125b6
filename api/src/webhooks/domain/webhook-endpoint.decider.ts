import { type Decider, type DomainEvent, unreachable } from '../../platform/domain/decider';
import { conflict, notFound } from '../../platform/domain/errors';

/**
 * A customer's webhook endpoint (stream `webhookendpoint-<id>`). Its signing secret enters the
 * log only sealed under the server's key (see secret-box.ts), with a hint the owner may see.
 */

/** Who switched it off: its owner, the sender after it kept failing, or a plan without webhooks. */
export type DisabledReason = 'user' | 'failing' | 'plan';

interface SealedSecret {
  /** The secret sealed under the server's key: never the secret itself. */
  sealed: string;
  /** `whsec_…abcd`: enough for the owner to tell secrets apart. */
  hint: string;
}

export type WebhookEndpointEvent =
  | DomainEvent<
      'WebhookEndpointCreated',
      { endpointId: string; userId: string; url: string; description: string; eventTypes: string[]; secret: SealedSecret; at: string }
    >
  | DomainEvent<'WebhookEndpointUpdated', { url?: string; description?: string; eventTypes?: string[] }>
  | DomainEvent<'WebhookSecretRolled', { secret: SealedSecret; previousExpiresAt: string }>
  | DomainEvent<'WebhookEndpointDisabled', { reason: DisabledReason }>
  | DomainEvent<'WebhookEndpointEnabled', Record<string, never>>
  | DomainEvent<'WebhookEndpointDeleted', Record<string, never>>;

export type WebhookEndpointCommand =
  | {
      type: 'CreateEndpoint';
      at: Date;
      endpointId: string;
      userId: string;
      url: string;
      description: string;
      eventTypes: string[];
      secret: SealedSecret;
    }
  | { type: 'UpdateEndpoint'; at: Date; userId: string; url?: string; description?: string; eventTypes?: string[]; enabled?: boolean }
  | { type: 'RollSecret'; at: Date; userId: string; secret: SealedSecret; overlapHours: number }
  /** userId null: the system (the sender, the plan check), not the owner. */
  | { type: 'DisableEndpoint'; at: Date; userId: string | null; reason: DisabledReason }
  | { type: 'DeleteEndpoint'; at: Date; userId: string };

export type WebhookEndpointState =
  | { status: 'none' | 'deleted' }
  | {
      status: 'live';
      userId: string;
      url: string;
      description: string;
      eventTypes: string[];
      enabled: boolean;
      disabledReason: DisabledReason | null;
    };

type Live = Extract<WebhookEndpointState, { status: 'live' }>;

/** The owner's endpoint; anyone else's, or a deleted one, is not found (no probing ids). */
function owned(state: WebhookEndpointState, userId: string | null): Live {
  if (state.status !== 'live' || (userId !== null && state.userId !== userId)) throw notFound('Webhook endpoint not found.');
  return state;
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

function decide(command: WebhookEndpointCommand, state: WebhookEndpointState): WebhookEndpointEvent[] {
  switch (command.type) {
    case 'CreateEndpoint': {
      if (state.status !== 'none') throw conflict('This webhook endpoint already exists.');
      const { endpointId, userId, url, description, eventTypes, secret, at } = command;
      return [{ type: 'WebhookEndpointCreated', data: { endpointId, userId, url, description, eventTypes, secret, at: at.toISOString() } }];
    }
    case 'UpdateEndpoint': {
      const endpoint = owned(state, command.userId);
      const changes: { url?: string; description?: string; eventTypes?: string[] } = {};
      if (command.url !== undefined && command.url !== endpoint.url) changes.url = command.url;
      if (command.description !== undefined && command.description !== endpoint.description) changes.description = command.description;
      if (command.eventTypes !== undefined && !sameList(command.eventTypes, endpoint.eventTypes)) changes.eventTypes = command.eventTypes;
      const events: WebhookEndpointEvent[] = Object.keys(changes).length > 0 ? [{ type: 'WebhookEndpointUpdated', data: changes }] : [];
      if (command.enabled === true && !endpoint.enabled) events.push({ type: 'WebhookEndpointEnabled', data: {} });
      if (command.enabled === false && endpoint.enabled) events.push({ type: 'WebhookEndpointDisabled', data: { reason: 'user' } });
      return events;
    }
    case 'RollSecret': {
      owned(state, command.userId);
      const previousExpiresAt = new Date(command.at.getTime() + command.overlapHours * 3_600_000).toISOString();
      return [{ type: 'WebhookSecretRolled', data: { secret: command.secret, previousExpiresAt } }];
    }
    case 'DisableEndpoint': {
      const endpoint = owned(state, command.userId);
      return endpoint.enabled ? [{ type: 'WebhookEndpointDisabled', data: { reason: command.reason } }] : [];
    }
    case 'DeleteEndpoint':
      owned(state, command.userId);
      return [{ type: 'WebhookEndpointDeleted', data: {} }];
    default:
      return unreachable(command);
  }
}

function evolve(state: WebhookEndpointState, event: WebhookEndpointEvent): WebhookEndpointState {
  switch (event.type) {
    case 'WebhookEndpointCreated': {
      const { userId, url, description, eventTypes } = event.data;
      return { status: 'live', userId, url, description, eventTypes, enabled: true, disabledReason: null };
    }
    case 'WebhookEndpointUpdated':
      return state.status === 'live' ? { ...state, ...event.data } : state;
    case 'WebhookSecretRolled':
      return state;
    case 'WebhookEndpointDisabled':
      return state.status === 'live' ? { ...state, enabled: false, disabledReason: event.data.reason } : state;
    case 'WebhookEndpointEnabled':
      return state.status === 'live' ? { ...state, enabled: true, disabledReason: null } : state;
    case 'WebhookEndpointDeleted':
      return { status: 'deleted' };
    default:
      return unreachable(event);
  }
}

export const webhookEndpointDecider: Decider<WebhookEndpointCommand, WebhookEndpointEvent, WebhookEndpointState> = {
  initialState: () => ({ status: 'none' }),
  decide,
  evolve,
};
