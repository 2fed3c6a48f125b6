// The networks context's events as other contexts read them: their types and stored names,
// nothing that runs. Any context may import this file.
import { eventTypesOf } from '../platform/domain/event-types';
import type { DeviceCodeEvent } from './domain/device-code.decider';
import type { DeviceUsageEvent } from './domain/device-usage.decider';
import type { DeviceEvent } from './domain/device.decider';
import type { NetworksEvent } from './domain/network.events';

export type { DeviceCodeEvent, DeviceEvent, DeviceUsageEvent, NetworksEvent };

/** Every networks event type as stored (stream `networks-<user id>`). */
export const NETWORKS_EVENT_TYPES = eventTypesOf<NetworksEvent>()([
  'NetworkCreated',
  'NetworkRenamed',
  'NetworkDeleted',
  'NetworkSuspended',
  'NetworkResumed',
  'HostAssigned',
  'JoinCodeIssued',
  'ClientJoined',
  'ClientDisconnected',
  'ClientRemoved',
  'HostReleased',
]);

/** Every device event type as stored (stream `device-<id>`; the device's name is encrypted). */
export const DEVICE_EVENT_TYPES = eventTypesOf<DeviceEvent>()([
  'DeviceRegistered',
  'DeviceRenamed',
  'DeviceSeen',
  'DeviceRevoked',
  'DeviceRefreshTokenReused',
]);

/** Every device-code event type as stored (the desktop's sign-in by code). */
export const DEVICE_CODE_EVENT_TYPES = eventTypesOf<DeviceCodeEvent>()([
  'DeviceCodeIssued',
  'DeviceCodeApproved',
  'DeviceCodeDenied',
  'DeviceCodeRedeemed',
]);

/** A host's usage report (stream `usage-<device id>-<YYYYMMDDHH>`): cumulative figures per model and hour. */
export const DEVICE_USAGE_EVENT_TYPES = eventTypesOf<DeviceUsageEvent>()(['DeviceUsageReported']);
