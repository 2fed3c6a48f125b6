import { randomUUID } from 'node:crypto';
import type { NewEvent } from '@meshwork/contracts';

/** A valid event with every metadata field filled, for tests. */
export function anEvent(overrides: Partial<NewEvent> = {}): NewEvent {
  return {
    eventId: randomUUID(),
    type: 'ThingHappened',
    schemaVersion: 1,
    occurredAt: new Date('2026-01-02T03:04:05.678Z'),
    data: { n: 1 },
    metadata: {
      correlationId: randomUUID(),
      causationId: null,
      actor: { userId: 'user-1', isStaff: false, ip: '127.0.0.1', userAgent: 'jest' },
    },
    ...overrides,
  };
}

export function events(count: number, overrides: Partial<NewEvent> = {}): NewEvent[] {
  return Array.from({ length: count }, (_, i) => anEvent({ data: { n: i }, ...overrides }));
}
