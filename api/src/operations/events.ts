// The operations context's events as other contexts read them: their types and stored names,
// nothing that runs. Any context may import this file.
import { eventTypesOf } from '../platform/domain/event-types';
import type { ConsoleErrorEvent } from './domain/console-error.decider';
import type { ProjectionOperationsEvent } from './domain/projection-operations.events';

export type { ConsoleErrorEvent, ProjectionOperationsEvent };

/** Every console error event type as stored. */
export const CONSOLE_ERROR_EVENT_TYPES = eventTypesOf<ConsoleErrorEvent>()(['ConsoleErrorReported']);

/** Every log-consumer decision event type as stored (stream `projection-<consumer name>`). */
export const PROJECTION_OPERATIONS_EVENT_TYPES = eventTypesOf<ProjectionOperationsEvent>()(['ProjectionEventSkipped']);
