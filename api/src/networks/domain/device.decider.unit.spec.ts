import { given } from '../../platform/testing/given-when-then';
import { deviceDecider, type DeviceEvent, UNNAMED_DEVICE } from './device.decider';

const at = new Date('2026-03-01T10:00:00Z');
const later = (ms: number) => new Date(at.getTime() + ms);
const HOUR = 60 * 60 * 1000;

const registered: DeviceEvent = {
  type: 'DeviceRegistered',
  data: {
    deviceId: 'd1',
    userId: 'u1',
    fingerprintHash: 'fp1',
    name: 'Studio Mac',
    platform: 'darwin',
    appVersion: '1.0.0',
    via: 'device-grant',
    at: at.toISOString(),
  },
};
const revoked: DeviceEvent = { type: 'DeviceRevoked', data: { by: 'user', reason: 'Revoked by its owner' } };
const signIn = (overrides: object = {}) => ({
  type: 'SignInDevice' as const,
  at,
  deviceId: 'd1',
  userId: 'u1',
  fingerprintHash: 'fp1',
  name: 'Studio Mac' as string | null,
  platform: 'darwin' as string | null,
  appVersion: '1.0.0' as string | null,
  via: 'device-grant' as const,
  ...overrides,
});

describe('device decider', () => {
  describe('when no device exists', () => {
    it('registers the device approved on /activate', () => {
      given(deviceDecider).when(signIn()).then([registered]);
    });

    it("registers a desktop's password sign-in under a default name, platform and version unknown", () => {
      given(deviceDecider)
        .when(signIn({ name: null, platform: null, appVersion: null, via: 'login' }))
        .then([
          {
            type: 'DeviceRegistered',
            data: { ...registered.data, name: UNNAMED_DEVICE, platform: 'unknown', appVersion: 'unknown', via: 'login' },
          },
        ]);
    });

    it('refuses the rest as not found', () => {
      given(deviceDecider)
        .when({ type: 'RenameDevice', at, userId: 'u1', name: 'x' })
        .thenThrows(/Device not found/);
      given(deviceDecider)
        .when({ type: 'RevokeDevice', at, by: 'staff', userId: null, reason: 'x' })
        .thenThrows(/Device not found/);
      given(deviceDecider)
        .when({ type: 'SeeDevice', at, userId: 'u1' })
        .thenThrows(/Device not found/);
    });
  });

  describe('when active', () => {
    it('is seen at most once an hour', () => {
      given(deviceDecider, [registered])
        .when({ type: 'SeeDevice', at: later(HOUR - 1), userId: 'u1' })
        .then([]);
      given(deviceDecider, [registered])
        .when({ type: 'SeeDevice', at: later(HOUR), userId: 'u1' })
        .then([{ type: 'DeviceSeen', data: { platform: 'darwin', appVersion: '1.0.0', at: later(HOUR).toISOString() } }]);
    });

    it('is seen at once when the host runs a new version, and renamed when approved under a new name', () => {
      given(deviceDecider, [registered])
        .when(signIn({ at: later(1000), name: 'Office Mac', appVersion: '1.1.0' }))
        .then([
          { type: 'DeviceRenamed', data: { name: 'Office Mac' } },
          { type: 'DeviceSeen', data: { platform: 'darwin', appVersion: '1.1.0', at: later(1000).toISOString() } },
        ]);
    });

    it('a password sign-in keeps the name, platform and version it has', () => {
      given(deviceDecider, [registered])
        .when(signIn({ at: later(2 * HOUR), name: null, platform: null, appVersion: null, via: 'login' }))
        .then([{ type: 'DeviceSeen', data: { platform: 'darwin', appVersion: '1.0.0', at: later(2 * HOUR).toISOString() } }]);
    });

    it('is renamed by its owner, and not at all to the same name', () => {
      given(deviceDecider, [registered])
        .when({ type: 'RenameDevice', at, userId: 'u1', name: 'Den' })
        .then([{ type: 'DeviceRenamed', data: { name: 'Den' } }]);
      given(deviceDecider, [registered]).when({ type: 'RenameDevice', at, userId: 'u1', name: 'Studio Mac' }).then([]);
    });

    it("is not found by another user, whatever they ask (no probing other people's ids)", () => {
      given(deviceDecider, [registered])
        .when({ type: 'RenameDevice', at, userId: 'u2', name: 'Mine' })
        .thenThrows(/Device not found/);
      given(deviceDecider, [registered])
        .when({ type: 'RevokeDevice', at, by: 'user', userId: 'u2', reason: 'x' })
        .thenThrows(/Device not found/);
      given(deviceDecider, [registered])
        .when(signIn({ userId: 'u2' }))
        .thenThrows(/Device not found/);
    });

    it('is revoked by its owner or by staff, saying who', () => {
      given(deviceDecider, [registered])
        .when({ type: 'RevokeDevice', at, by: 'user', userId: 'u1', reason: 'Revoked by its owner' })
        .then([revoked]);
      given(deviceDecider, [registered])
        .when({ type: 'RevokeDevice', at, by: 'staff', userId: null, reason: 'Lost laptop' })
        .then([{ type: 'DeviceRevoked', data: { by: 'staff', reason: 'Lost laptop' } }]);
    });

    it('records a reused refresh token', () => {
      given(deviceDecider, [registered])
        .when({ type: 'RecordRefreshTokenReuse', at, sessionId: 's1' })
        .then([{ type: 'DeviceRefreshTokenReused', data: { sessionId: 's1' } }]);
    });
  });

  describe('when revoked', () => {
    it('is revoked once: a second revocation changes nothing', () => {
      given(deviceDecider, [registered, revoked]).when({ type: 'RevokeDevice', at, by: 'staff', userId: null, reason: 'x' }).then([]);
    });

    it('is neither renamed nor signed in again (a new approval registers a new device)', () => {
      given(deviceDecider, [registered, revoked])
        .when({ type: 'RenameDevice', at, userId: 'u1', name: 'x' })
        .thenThrows(/revoked/);
      given(deviceDecider, [registered, revoked])
        .when(signIn())
        .thenThrows(/revoked/);
    });

    it('is no longer seen', () => {
      given(deviceDecider, [registered, revoked])
        .when({ type: 'SeeDevice', at: later(2 * HOUR), userId: 'u1' })
        .then([]);
    });

    it('keeps its state: revoked, with its owner', () => {
      expect(
        given(deviceDecider, [registered]).when({ type: 'RevokeDevice', at, by: 'user', userId: 'u1', reason: 'x' }).thenState(),
      ).toMatchObject({
        status: 'revoked',
        userId: 'u1',
      });
    });
  });
});
