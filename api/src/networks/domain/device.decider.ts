import type { Decider, DomainEvent } from '../../platform/domain/decider';
import { unreachable } from '../../platform/domain/decider';
import { conflict, notFound } from '../../platform/domain/errors';

/**
 * A customer's machine: one per (user, hardware fingerprint), claimed through the event
 * store's unique keys. The fingerprint enters the log only as a blind index (an HMAC under
 * the master key), so the same machine is recognised without the log holding its id.
 */

/** How a device came to sign in: approved on /activate, or a desktop's password sign-in. */
export type DeviceVia = 'device-grant' | 'login';
export type RevokedBy = 'user' | 'staff';

/** A DeviceSeen is recorded at most this often per device (the log is not a heartbeat). */
export const SEEN_EVERY_MS = 60 * 60 * 1000;

export type DeviceEvent =
  | DomainEvent<
      'DeviceRegistered',
      {
        deviceId: string;
        userId: string;
        fingerprintHash: string;
        /** Personal: encrypted with the user's key in the log. */
        name: string | null;
        platform: string;
        appVersion: string;
        via: DeviceVia;
        at: string;
      }
    >
  | DomainEvent<'DeviceRenamed', { name: string | null }>
  | DomainEvent<'DeviceSeen', { platform: string; appVersion: string; at: string }>
  | DomainEvent<'DeviceRevoked', { by: RevokedBy; reason: string }>
  | DomainEvent<'DeviceRefreshTokenReused', { sessionId: string }>;

/** The fields of each event encrypted with the owner's key (see device-event-codec.ts). */
export const DEVICE_PERSONAL_FIELDS: Partial<Record<DeviceEvent['type'], readonly string[]>> = {
  DeviceRegistered: ['name'],
  DeviceRenamed: ['name'],
};

export type DeviceCommand =
  | {
      /** Approved on /activate or signed in with a password: registers it, or renames it and notes it seen. */
      type: 'SignInDevice';
      at: Date;
      deviceId: string;
      userId: string;
      fingerprintHash: string;
      /** null keeps the name it has (a password sign-in names nothing). */
      name: string | null;
      platform: string | null;
      appVersion: string | null;
      via: DeviceVia;
    }
  | { type: 'SeeDevice'; at: Date; userId: string }
  | { type: 'RenameDevice'; at: Date; userId: string; name: string }
  | { type: 'RevokeDevice'; at: Date; by: RevokedBy; userId: string | null; reason: string }
  | { type: 'RecordRefreshTokenReuse'; at: Date; sessionId: string };

interface Known {
  deviceId: string;
  userId: string;
  fingerprintHash: string;
  name: string | null;
  platform: string;
  appVersion: string;
  lastSeenAt: number;
}

export type DeviceState = { status: 'none' } | ({ status: 'active' } & Known) | ({ status: 'revoked' } & Known);

/** The name a device gets when nobody named it (a desktop's password sign-in). */
export const UNNAMED_DEVICE = 'Desktop device';
const UNKNOWN = 'unknown';

const deviceNotFound = () => notFound('Device not found.');
const revoked = () => conflict('This device has been revoked.');

/** The device of this user (someone else's device is not found, never forbidden: no probing ids). */
function owned(state: DeviceState, userId: string | null): Exclude<DeviceState, { status: 'none' }> {
  if (state.status === 'none' || (userId !== null && state.userId !== userId)) throw deviceNotFound();
  return state;
}

/** A DeviceSeen when an hour has passed or the host changed (a new app version). */
function seen(state: Known, at: Date, platform: string | null, appVersion: string | null): DeviceEvent[] {
  const next = { platform: platform ?? state.platform, appVersion: appVersion ?? state.appVersion };
  const changed = next.platform !== state.platform || next.appVersion !== state.appVersion;
  if (!changed && at.getTime() - state.lastSeenAt < SEEN_EVERY_MS) return [];
  return [{ type: 'DeviceSeen', data: { ...next, at: at.toISOString() } }];
}

function decide(command: DeviceCommand, state: DeviceState): DeviceEvent[] {
  switch (command.type) {
    case 'SignInDevice': {
      if (state.status === 'none') {
        const { deviceId, userId, fingerprintHash, name, platform, appVersion, via, at } = command;
        const data = { deviceId, userId, fingerprintHash, platform: platform ?? UNKNOWN, appVersion: appVersion ?? UNKNOWN, via };
        return [{ type: 'DeviceRegistered', data: { ...data, name: name ?? UNNAMED_DEVICE, at: at.toISOString() } }];
      }
      const device = owned(state, command.userId);
      if (device.status === 'revoked') throw revoked();
      const renamed: DeviceEvent[] = command.name !== null && command.name !== device.name ? [renamedTo(command.name)] : [];
      return [...renamed, ...seen(device, command.at, command.platform, command.appVersion)];
    }
    case 'SeeDevice': {
      const device = owned(state, command.userId);
      return device.status === 'active' ? seen(device, command.at, null, null) : [];
    }
    case 'RenameDevice': {
      const device = owned(state, command.userId);
      if (device.status === 'revoked') throw revoked();
      return command.name === device.name ? [] : [renamedTo(command.name)];
    }
    case 'RevokeDevice': {
      const device = owned(state, command.userId);
      return device.status === 'revoked' ? [] : [{ type: 'DeviceRevoked', data: { by: command.by, reason: command.reason } }];
    }
    case 'RecordRefreshTokenReuse':
      owned(state, null);
      return [{ type: 'DeviceRefreshTokenReused', data: { sessionId: command.sessionId } }];
    default:
      return unreachable(command);
  }
}

const renamedTo = (name: string): DeviceEvent => ({ type: 'DeviceRenamed', data: { name } });

function evolve(state: DeviceState, event: DeviceEvent): DeviceState {
  switch (event.type) {
    case 'DeviceRegistered': {
      const { deviceId, userId, fingerprintHash, name, platform, appVersion, at } = event.data;
      return { status: 'active', deviceId, userId, fingerprintHash, name, platform, appVersion, lastSeenAt: Date.parse(at) };
    }
    case 'DeviceRenamed':
      return state.status === 'none' ? state : { ...state, name: event.data.name };
    case 'DeviceSeen': {
      const { platform, appVersion, at } = event.data;
      return state.status === 'none' ? state : { ...state, platform, appVersion, lastSeenAt: Date.parse(at) };
    }
    case 'DeviceRevoked':
      return state.status === 'none' ? state : { ...state, status: 'revoked' };
    case 'DeviceRefreshTokenReused':
      return state;
    default:
      return unreachable(event);
  }
}

export const deviceDecider: Decider<DeviceCommand, DeviceEvent, DeviceState> = {
  initialState: () => ({ status: 'none' }),
  decide,
  evolve,
};
