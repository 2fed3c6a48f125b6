import type { Decider, DomainEvent } from '../domain/decider';
import { replay } from '../domain/decider';

/**
 * Decider tests in the given/when/then shape:
 *   given(decider, [past events]).when(command).then([expected events])
 *   given(decider, [past events]).when(command).thenThrows(/message/)
 */
export function given<C, E extends DomainEvent, S>(decider: Decider<C, E, S>, history: E[] = []) {
  const state = replay(decider, history);
  return {
    when(command: C) {
      return {
        then(expected: E[]) {
          expect(decider.decide(command, state)).toEqual(expected);
        },
        thenThrows(error: RegExp | string | object) {
          expect(() => decider.decide(command, state)).toThrow(error as never);
        },
        /** The state after the new events, for assertions on evolve. */
        thenState() {
          return decider.decide(command, state).reduce((s, e) => decider.evolve(s, e), state);
        },
      };
    },
  };
}
