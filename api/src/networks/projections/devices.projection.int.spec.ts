import { randomBytes, randomUUID } from 'node:crypto';
import { PersonalDataVault } from '../../identity/infrastructure/personal-data-vault';
import { anEvent } from '@meshwork/testkit/api/an-event';
import { projectionScenario, type StreamEvents } from '../../testing/projection-scenario';
import type { DeviceEvent } from '../domain/device.decider';
import { DeviceEventCodec } from '../infrastructure/device-event-codec';
import { devicesProjection } from './devices.projection';

const MASTER_KEY = randomBytes(32);
const AT = new Date('2026-03-01T10:00:00.000Z');
const STAFF = { userId: 'staff-1', isStaff: true, ip: '10.0.0.1', userAgent: 'console' };

describe('devices read model (events in, rows out)', () => {
  const scenario = projectionScenario((pool) => devicesProjection(new PersonalDataVault(pool, MASTER_KEY)));
  const vault = () => new PersonalDataVault(scenario.pool, MASTER_KEY);

  /** A device's events as the api stores them: the name encrypted under the owner's key. */
  async function device(id: string, userId: string, events: DeviceEvent[], actor = anEvent().metadata.actor): Promise<StreamEvents> {
    await vault().createKey(userId);
    const codec = new DeviceEventCodec(vault(), async () => userId);
    const metadata = { ...anEvent().metadata, actor };
    const stored = await Promise.all(events.map((e) => codec.encode(id, e, metadata)));
    return { streamId: `device-${id}`, events: stored.map((s, i) => anEvent({ type: events[i]!.type, occurredAt: AT, ...s })) };
  }
  const registered = (deviceId: string, userId: string): DeviceEvent => ({
    type: 'DeviceRegistered',
    data: {
      deviceId,
      userId,
      fingerprintHash: 'fp',
      name: 'Studio',
      platform: 'linux',
      appVersion: '1.0.0',
      via: 'device-grant',
      at: AT.toISOString(),
    },
  });
  const columns =
    'user_id, name, platform, app_version, status, registered_via, first_seen_at, last_seen_at, revoked_by, revoked_by_user_id';

  it('a device registered, renamed, seen on a new version and revoked by staff', async () => {
    const [id, userId] = [randomUUID(), randomUUID()];
    const seenAt = '2026-03-01T12:00:00.000Z';
    const then = await scenario.given(await device(id, userId, [registered(id, userId)])).when(
      await device(id, userId, [
        { type: 'DeviceRenamed', data: { name: 'Render node' } },
        { type: 'DeviceSeen', data: { platform: 'linux', appVersion: '1.1.0', at: seenAt } },
      ]),
      await device(id, userId, [{ type: 'DeviceRevoked', data: { by: 'staff', reason: 'Lost' } }], STAFF),
    );
    expect(await then.rows(`SELECT ${columns} FROM ${scenario.schema}.devices`)).toEqual([
      {
        user_id: userId,
        name: 'Render node',
        platform: 'linux',
        app_version: '1.1.0',
        status: 'revoked',
        registered_via: 'device-grant',
        first_seen_at: AT,
        last_seen_at: new Date(seenAt),
        revoked_by: 'staff',
        revoked_by_user_id: 'staff-1',
      },
    ]);
  });

  it("a deleted account's devices go with it; other users' stay", async () => {
    const [gone, kept] = [randomUUID(), randomUUID()];
    const [goneDevice, keptDevice] = [randomUUID(), randomUUID()];
    const then = await scenario
      .given(await device(goneDevice, gone, [registered(goneDevice, gone)]), await device(keptDevice, kept, [registered(keptDevice, kept)]))
      .when({ streamId: `user-${gone}`, events: [anEvent({ type: 'UserDeleted', data: {} })] });
    expect(await then.rows(`SELECT id, user_id FROM ${scenario.schema}.devices`)).toEqual([{ id: keptDevice, user_id: kept }]);
  });

  it('a name encrypted under a shredded key is read as no name (the row stays, nameless)', async () => {
    const [id, userId] = [randomUUID(), randomUUID()];
    const stored = await device(id, userId, [registered(id, userId)]);
    expect(JSON.stringify(stored.events[0]!.data)).not.toContain('Studio');
    await vault().destroyKey(userId);
    const then = await scenario.given().when(stored);
    expect(await then.rows(`SELECT name, status FROM ${scenario.schema}.devices`)).toEqual([{ name: null, status: 'active' }]);
  });
});
