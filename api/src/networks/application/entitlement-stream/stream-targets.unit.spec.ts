import type { RecordedEvent } from '@meshwork/contracts';
import { StreamConnection, StreamConnections } from './stream-connections';
import { targetOf } from './stream-targets';

const at = new Date('2026-11-23T10:00:00.000Z');
let position = 0;
const event = (streamId: string, type: string, data: object = {}): RecordedEvent =>
  ({
    eventId: `e${++position}`,
    streamId,
    type,
    schemaVersion: 1,
    data,
    metadata: {},
    occurredAt: at,
    position,
  }) as unknown as RecordedEvent;

describe('which open streams an event touches', () => {
  it('a subscription’s events: that subscriber', () => {
    expect(targetOf(event('subscription-u1', 'EntitlementsChanged'))).toEqual({ kind: 'users', userIds: ['u1'] });
    expect(targetOf(event('subscription-u1', 'SubscriptionCancelled'))).toEqual({ kind: 'users', userIds: ['u1'] });
  });

  it('a plan’s events (staff edits): the plan’s subscribers', () => {
    expect(targetOf(event('plan-pro', 'PlanUpdated', { changes: { maxNetworks: 6 } }))).toEqual({ kind: 'plans', planIds: ['pro'] });
  });

  it('a model’s access change: the plans it left and joined; its status: everyone; its upload: nobody', () => {
    const access = event('model-m1', 'ModelAccessChanged', { from: ['free', 'pro'], to: ['pro', 'enterprise'], bulk: false });
    expect(targetOf(access)).toEqual({ kind: 'plans', planIds: ['free', 'pro', 'enterprise'] });
    for (const type of ['ModelPublished', 'ModelDeactivated', 'ModelReactivated', 'ModelDeleted'])
      expect(targetOf(event('model-m1', type))).toEqual({ kind: 'everyone' });
    expect(targetOf(event('model-m1', 'ModelFileStored'))).toBeNull();
    expect(targetOf(event('model-m1', 'ModelUploadStarted'))).toBeNull();
  });

  it('a customer’s networks (membership and suspensions too): that customer', () => {
    expect(targetOf(event('networks-u2', 'NetworkSuspended'))).toEqual({ kind: 'users', userIds: ['u2'] });
    expect(targetOf(event('networks-u2', 'ClientJoined'))).toEqual({ kind: 'users', userIds: ['u2'] });
  });

  it('DeviceRevoked: that device, with the time; other device and device-code events: nobody', () => {
    expect(targetOf(event('device-d1', 'DeviceRevoked', { by: 'user', reason: 'lost' }))).toEqual({
      kind: 'revoked',
      deviceId: 'd1',
      revokedAt: '2026-11-23T10:00:00.000Z',
    });
    expect(targetOf(event('device-d1', 'DeviceRenamed'))).toBeNull();
    expect(targetOf(event('devicecode-c1', 'DeviceCodeApproved'))).toBeNull();
  });

  it('identity ending every session of a user: their streams; other identity events: nobody', () => {
    for (const type of ['PasswordChanged', 'PasswordResetCompleted', 'UserDeactivated', 'UserDeleted'])
      expect(targetOf(event('user-u1', type))).toEqual({ kind: 'signed-out', userId: 'u1' });
    expect(targetOf(event('user-u1', 'ProfileUpdated'))).toBeNull();
    expect(targetOf(event('user-u1', 'UserSignedIn'))).toBeNull();
  });
});

describe('resolving a target to the streams this instance holds', () => {
  const sink = { write: () => undefined, end: () => undefined };
  const streamOf = (userId: string, deviceId: string, planId: string | null) => {
    const connection = new StreamConnection({ userId, deviceId }, null, sink);
    connection.planId = planId;
    return connection;
  };
  const ids = (connections: StreamConnection[]) => connections.map((c) => c.device.deviceId).sort();

  it('finds users by id, plans by the plan each stream’s document names, devices by id; a closed stream is gone', () => {
    const streams = new StreamConnections();
    const laptop = streamOf('u1', 'd1', 'pro');
    const desktop = streamOf('u1', 'd2', 'pro');
    const free = streamOf('u2', 'd3', 'free');
    const waiting = streamOf('u3', 'd4', null);
    for (const s of [laptop, desktop, free, waiting]) streams.add(s);
    expect(streams.size).toBe(4);

    expect(ids(streams.resolve({ kind: 'users', userIds: ['u1', 'nobody'] }))).toEqual(['d1', 'd2']);
    expect(ids(streams.resolve({ kind: 'plans', planIds: ['pro'] }))).toEqual(['d1', 'd2']);
    expect(ids(streams.resolve({ kind: 'plans', planIds: ['enterprise'] }))).toEqual([]);
    expect(ids(streams.resolve({ kind: 'everyone' }))).toEqual(['d1', 'd2', 'd3', 'd4']);
    expect(ids(streams.resolve({ kind: 'revoked', deviceId: 'd3', revokedAt: '' }))).toEqual(['d3']);
    expect(ids(streams.resolve({ kind: 'signed-out', userId: 'u1' }))).toEqual(['d1', 'd2']);

    streams.remove(desktop);
    streams.remove(desktop);
    expect(streams.size).toBe(3);
    expect(ids(streams.resolve({ kind: 'users', userIds: ['u1'] }))).toEqual(['d1']);
  });
});
