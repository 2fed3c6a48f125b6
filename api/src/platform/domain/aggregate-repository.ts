import { randomUUID } from 'node:crypto';
import type { EventMetadata, RecordedEvent } from '@meshwork/contracts';
import { WrongExpectedVersionError } from '../event-store/event-store.errors';
import type { AppendOptions, EventStore } from '../event-store/event-store.port';
import { currentEventMetadata } from '../event-store/event-metadata';
import type { Decider, DomainEvent } from './decider';
import { assertStorable } from './storable-event';
import { EVENT_UPCASTERS } from '../event-store/upcasters';

/** Turns domain events into stored data and back; identity encrypts personal fields here. */
export interface EventCodec<E extends DomainEvent> {
  encode(aggregateId: string, event: E, metadata: EventMetadata): Promise<{ data: unknown; metadata: EventMetadata }>;
  decode(aggregateId: string, event: RecordedEvent): Promise<E>;
}

export const plainCodec: EventCodec<DomainEvent> = {
  encode: async (_id, event, metadata) => ({ data: event.data, metadata }),
  decode: async (_id, event) => ({ type: event.type, data: event.data }),
};

export interface ExecuteResult<E, S> {
  events: E[];
  state: S;
  /** Global position of the last event written (0 when nothing was). */
  position: number;
}

/**
 * Load, decide, append with the expected version: the whole of a command handler's work
 * with an aggregate. On a concurrent change it reloads and decides again (deciders are
 * pure, so that is safe), a few times, before letting the conflict through as a 409.
 */
export class AggregateRepository<C, E extends DomainEvent, S> {
  constructor(
    private readonly store: EventStore,
    private readonly decider: Decider<C, E, S>,
    /** The stream category: this aggregate's streams are `<category>-<id>`. */
    readonly category: string,
    private readonly codec: EventCodec<E> = plainCodec as EventCodec<E>,
  ) {}

  streamId(id: string): string {
    return `${this.category}-${id}`;
  }

  async load(id: string): Promise<{ state: S; version: number }> {
    const { state, last } = await this.replay(id, () => true);
    return { state, version: last?.streamVersion ?? 0 };
  }

  /**
   * The aggregate as it stood at a point of its history (the auditors' replay): its stream
   * folded in order up to the last event `included` accepts, and that event.
   */
  async replay(id: string, included: (event: RecordedEvent) => boolean): Promise<{ state: S; last: RecordedEvent | null }> {
    let state = this.decider.initialState();
    let last: RecordedEvent | null = null;
    for (const event of await this.store.readStream(this.streamId(id))) {
      if (!included(event)) break;
      state = this.decider.evolve(state, await this.codec.decode(id, event));
      last = event;
    }
    return { state, last };
  }

  async execute(
    id: string,
    command: C,
    options: { unique?: (state: S, events: E[]) => AppendOptions; occurredAt?: Date } = {},
  ): Promise<ExecuteResult<E, S>> {
    for (let attempt = 1; ; attempt++) {
      const { state, version } = await this.load(id);
      const events = this.decider.decide(command, state);
      const after = events.reduce((s, e) => this.decider.evolve(s, e), state);
      if (events.length === 0) return { events, state: after, position: 0 };
      for (const event of events) assertStorable(event.data);
      const metadata = currentEventMetadata();
      const occurredAt = options.occurredAt ?? (command as { at?: Date }).at ?? new Date();
      const stored = await Promise.all(
        events.map(async (event) => {
          const encoded = await this.codec.encode(id, event, metadata);
          return {
            eventId: randomUUID(),
            type: event.type,
            schemaVersion: EVENT_UPCASTERS.latestVersion(event.type),
            occurredAt,
            data: encoded.data,
            metadata: encoded.metadata,
          };
        }),
      );
      try {
        const result = await this.store.append(this.streamId(id), stored, version, options.unique?.(state, events));
        return { events, state: after, position: result.positions[result.positions.length - 1]! };
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError) || attempt >= 3) throw error;
      }
    }
  }
}
