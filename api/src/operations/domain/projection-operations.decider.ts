import { type Decider, unreachable } from '../../platform/domain/decider';
import { conflict, ruleBroken } from '../../platform/domain/errors';
import type { ProjectionOperationsEvent } from './projection-operations.events';

/** The event a consumer is stuck on, as its runner recorded it. */
export interface StuckAt {
  position: number;
  eventId: string;
  eventType: string;
}

export type ProjectionOperationsCommand = {
  type: 'SkipEvent';
  projection: string;
  position: number;
  reason: string;
  /** Where the consumer is stuck now (null: it is not), read by the handler. */
  stuckAt: StuckAt | null;
  at: Date;
};

export interface ProjectionOperationsState {
  /** Positions staff decided to skip. */
  skipped: number[];
}

export const notStuckThere = (projection: string, position: number) =>
  conflict(`${projection} is not stuck at position ${position}: only the event it cannot get past can be skipped.`, 'position');
export const reasonRequired = () => ruleBroken('Reason is required', 'reason');

/**
 * Decisions about one log consumer. Skipping is the only way past an event it cannot apply
 * without a fix, so it is allowed for exactly that event, with a reason, and on the record.
 */
export const projectionOperationsDecider: Decider<ProjectionOperationsCommand, ProjectionOperationsEvent, ProjectionOperationsState> = {
  initialState: () => ({ skipped: [] }),

  decide(command, state) {
    switch (command.type) {
      case 'SkipEvent': {
        if (state.skipped.includes(command.position)) return []; // decided already; the runner is on its way past
        if (command.stuckAt?.position !== command.position) throw notStuckThere(command.projection, command.position);
        if (command.reason.trim() === '') throw reasonRequired();
        const { projection, position, reason } = command;
        const { eventId, eventType } = command.stuckAt;
        return [{ type: 'ProjectionEventSkipped', data: { projection, position, eventId, eventType, reason } }];
      }
      default:
        return unreachable(command.type);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ProjectionEventSkipped':
        return { skipped: [...state.skipped, event.data.position] };
      default:
        return unreachable(event.type);
    }
  },
};
