import { toIntegrationMessage, topicFor } from './integration-message';
import type { RecordedEvent } from './event-envelope';

const recorded: RecordedEvent = {
  eventId: 'e-1',
  type: 'UserRegistered',
  schemaVersion: 2,
  streamId: 'user-42',
  streamVersion: 1,
  position: 7,
  occurredAt: new Date('2026-05-06T07:08:09.000Z'),
  recordedAt: new Date('2026-05-06T07:08:09.100Z'),
  data: { email: 'a@b.c', passwordHash: 'argon2…', nested: [{ resetToken: 'x', keep: 1 }], clientSecret: 's' },
  metadata: { correlationId: 'c-1', causationId: null, actor: { userId: 'user-42', isStaff: false, ip: '10.0.0.1', userAgent: 'UA' } },
};

describe('integration messages', () => {
  it('leave out the ip, the user agent and secret-looking fields at any depth', () => {
    const message = toIntegrationMessage(recorded);
    expect(message).toEqual({
      eventId: 'e-1',
      type: 'UserRegistered',
      schemaVersion: 2,
      streamId: 'user-42',
      streamVersion: 1,
      position: 7,
      occurredAt: '2026-05-06T07:08:09.000Z',
      correlationId: 'c-1',
      causationId: null,
      actor: { userId: 'user-42', isStaff: false },
      data: { email: 'a@b.c', nested: [{ keep: 1 }] },
    });
    expect(JSON.stringify(message)).not.toMatch(/10\.0\.0\.1|UA|argon2/);
  });

  it('go to one topic per stream category', () => {
    expect(topicFor('user-42')).toBe('meshwork.user');
    expect(topicFor('plan-pro-monthly', 'test')).toBe('test.plan');
  });
});
