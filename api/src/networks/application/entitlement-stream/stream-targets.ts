import type { RecordedEvent } from '@meshwork/contracts';
import type { ModelEvent, ModelEventType } from '../../../catalog/events';
import type { UserEventType } from '../../../identity/events';

/**
 * Whose entitlement documents an event may change, in the terms the stream can resolve
 * without a query: users and devices by id, plans by the plan each open stream is on.
 */
export type StreamTarget =
  | { kind: 'users'; userIds: string[] }
  | { kind: 'plans'; planIds: string[] }
  /** Every open stream: a model's status changed, and its plans are not in the event. */
  | { kind: 'everyone' }
  | { kind: 'revoked'; deviceId: string; revokedAt: string }
  /** Every session of the user ended (password changed or reset, deactivated, deleted): their streams end too. */
  | { kind: 'signed-out'; userId: string };

/** Model events that change which models are open (ModelAccessChanged names its plans; these do not). */
const MODEL_STATUS_EVENTS = new Set<string>([
  'ModelPublished',
  'ModelDeactivated',
  'ModelReactivated',
  'ModelDeleted',
] satisfies ModelEventType[]);

/** Identity's events that end every session of the user, devices' included. */
const SESSIONS_ENDED = new Set<string>([
  'PasswordChanged',
  'PasswordResetCompleted',
  'UserDeactivated',
  'UserDeleted',
] satisfies UserEventType[]);

const idAfter = (prefix: string, streamId: string): string | null => (streamId.startsWith(prefix) ? streamId.slice(prefix.length) : null);

/**
 * The event's effect on open streams, or null when no document can change:
 * - a subscription's events (`subscription-<user>`): that user;
 * - a plan's events (`plan-<plan>`, staff edits): the plan's subscribers;
 * - a model's access change: the subscribers of the plans it left or joined; its status
 *   (published, deactivated, reactivated, deleted): everyone, since the event names no plan;
 * - a customer's networks (`networks-<user>`, membership and suspensions included): that user;
 * - DeviceRevoked (`device-<device>`): that device, which is told and disconnected;
 * - identity ending every session of a user (`user-<user>`): their streams close without a
 *   word, and the host's reconnect meets the 401 its token now gets.
 * Whether a document really changed is decided after building it (content compared), so
 * a target here may be wider than the change, never narrower.
 */
export function targetOf(event: RecordedEvent): StreamTarget | null {
  const subscriber = idAfter('subscription-', event.streamId);
  if (subscriber) return { kind: 'users', userIds: [subscriber] };
  const owner = idAfter('networks-', event.streamId);
  if (owner) return { kind: 'users', userIds: [owner] };
  const plan = idAfter('plan-', event.streamId);
  if (plan) return { kind: 'plans', planIds: [plan] };
  if (event.streamId.startsWith('model-')) {
    if (event.type === 'ModelAccessChanged') {
      const { from, to } = (event as unknown as ModelEvent & { type: 'ModelAccessChanged' }).data;
      return { kind: 'plans', planIds: [...new Set([...from, ...to])] };
    }
    return MODEL_STATUS_EVENTS.has(event.type) ? { kind: 'everyone' } : null;
  }
  const device = idAfter('device-', event.streamId);
  if (device && event.type === 'DeviceRevoked') return { kind: 'revoked', deviceId: device, revokedAt: event.occurredAt.toISOString() };
  const user = idAfter('user-', event.streamId);
  if (user && SESSIONS_ENDED.has(event.type)) return { kind: 'signed-out', userId: user };
  return null;
}
