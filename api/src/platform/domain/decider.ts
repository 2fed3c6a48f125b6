/**
 * An aggregate as a pure decider: no clock, no randomness, no I/O. Time and ids come in
 * with the command; the handler around it loads, decides, appends.
 */
export interface DomainEvent<TType extends string = string, TData = unknown> {
  type: TType;
  data: TData;
}

export interface Decider<TCommand, TEvent extends DomainEvent, TState> {
  initialState(): TState;
  decide(command: TCommand, state: TState): TEvent[];
  evolve(state: TState, event: TEvent): TState;
}

/** Folds a stream's events into state. */
export function replay<TEvent extends DomainEvent, TState>(
  decider: Pick<Decider<unknown, TEvent, TState>, 'initialState' | 'evolve'>,
  events: TEvent[],
): TState {
  return events.reduce((state, event) => decider.evolve(state, event), decider.initialState());
}

/** Exhaustiveness guard for switches over a union. */
export function unreachable(value: never): never {
  throw new Error(`unhandled case ${JSON.stringify(value)}`);
}
