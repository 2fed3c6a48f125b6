import { given } from '../../platform/testing/given-when-then';
import { projectionOperationsDecider as decider, type ProjectionOperationsCommand } from './projection-operations.decider';
import type { ProjectionOperationsEvent } from './projection-operations.events';

const at = new Date('2026-03-04T05:06:07Z');
const stuckAt = { position: 42, eventId: '0b8a6f1e-5d1c-4f0e-9a57-2f7f3c1d9e11', eventType: 'ReleaseUploaded' };
const skip = (overrides: Partial<ProjectionOperationsCommand> = {}): ProjectionOperationsCommand => ({
  type: 'SkipEvent',
  projection: 'catalog',
  position: 42,
  reason: 'Version part too large; the release was re-uploaded as 1.0.4',
  stuckAt,
  at,
  ...overrides,
});
const skipped = (position: number): ProjectionOperationsEvent => ({
  type: 'ProjectionEventSkipped',
  data: { projection: 'catalog', position, eventId: stuckAt.eventId, eventType: stuckAt.eventType, reason: 'earlier' },
});

describe('projection operations decider', () => {
  describe('with no decision yet', () => {
    it('records the skip of the event the projection is stuck on, with what it was and why', () => {
      given(decider)
        .when(skip())
        .then([
          {
            type: 'ProjectionEventSkipped',
            data: {
              projection: 'catalog',
              position: 42,
              eventId: stuckAt.eventId,
              eventType: 'ReleaseUploaded',
              reason: 'Version part too large; the release was re-uploaded as 1.0.4',
            },
          },
        ]);
    });

    it('refuses any other position: nothing is skipped that is not stuck', () => {
      given(decider)
        .when(skip({ position: 41 }))
        .thenThrows(/not stuck at position 41/);
      given(decider)
        .when(skip({ stuckAt: null }))
        .thenThrows(/not stuck at position 42/);
    });

    it('refuses a skip without a reason', () => {
      given(decider)
        .when(skip({ reason: '  ' }))
        .thenThrows(/Reason is required/);
    });
  });

  describe('with the position already skipped', () => {
    it('records nothing twice', () => {
      given(decider, [skipped(42)])
        .when(skip())
        .then([]);
    });

    it('still refuses a different position the projection is not stuck on', () => {
      given(decider, [skipped(42)])
        .when(skip({ position: 50 }))
        .thenThrows(/not stuck at position 50/);
    });
  });
});
