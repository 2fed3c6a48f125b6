// The identity context's events as other contexts read them: their types and stored names,
// nothing that runs. Any context may import this file.
import { eventTypesOf } from '../platform/domain/event-types';
import type { ApiTokenEvent } from './domain/api-token.decider';
import type { UserEvent } from './domain/user.events';

export type { UserEvent, UserEventType } from './domain/user.events';

/** Every user event type as stored (stream `user-<id>`; personal fields are encrypted, see UserEventCodec). */
export const USER_EVENT_TYPES = eventTypesOf<UserEvent>()([
  'UserRegistered',
  'ProfileUpdated',
  'PasswordChanged',
  'PasswordResetRequested',
  'PasswordResetCompleted',
  'UserSignedIn',
  'UserSignedOut',
  'UserRolesChanged',
  'UserDeactivated',
  'UserReactivated',
  'UserDeleted',
]);

export type { ApiTokenEvent } from './domain/api-token.decider';

/** API tokens' lifecycle as stored (stream `apitoken-<id>`; never the secret or its hash). */
export const API_TOKEN_EVENT_TYPES = eventTypesOf<ApiTokenEvent>()(['ApiTokenCreated', 'ApiTokenRevoked']);
