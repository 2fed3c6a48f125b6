import type { Decider, DomainEvent } from '../../platform/domain/decider';
import { unreachable } from '../../platform/domain/decider';
import { conflict, oauthError, ruleBroken } from '../../platform/domain/errors';

/**
 * One device authorization request (RFC 8628): issued to a host, approved or denied by a
 * signed-in person, redeemed once for tokens. Expiry is a matter of time, decided here from
 * the command's clock; nothing needs to happen when a code simply runs out. The codes
 * themselves never enter the log: the stream is found through unique keys holding their hashes.
 * No user is known when the code is issued, so the host's description of itself (the
 * name it suggests, platform, version) is stored as sent; the fingerprint only as its blind index.
 */

export interface DeviceRequest {
  clientId: string;
  deviceName: string;
  platform: string;
  appVersion: string;
  fingerprintHash: string;
}

export type DeviceCodeEvent =
  | DomainEvent<'DeviceCodeIssued', { codeId: string; request: DeviceRequest; issuedAt: string; expiresAt: string; interval: number }>
  | DomainEvent<'DeviceCodeApproved', { userId: string; deviceId: string }>
  | DomainEvent<'DeviceCodeDenied', { userId: string }>
  | DomainEvent<'DeviceCodeRedeemed', { deviceId: string }>;

export type DeviceCodeCommand =
  | { type: 'IssueDeviceCode'; at: Date; codeId: string; request: DeviceRequest; expiresAt: Date; interval: number }
  | { type: 'ApproveDeviceCode'; at: Date; userId: string; deviceId: string }
  | { type: 'DenyDeviceCode'; at: Date; userId: string }
  /** The host polls; `tooFast` says it polled again before its interval was up (kept outside the log). */
  | { type: 'RedeemDeviceCode'; at: Date; tooFast: boolean };

interface Issued {
  codeId: string;
  request: DeviceRequest;
  issuedAt: number;
  expiresAt: number;
}

export type DeviceCodeState =
  | { status: 'none' }
  | ({ status: 'pending' } & Issued)
  | ({ status: 'approved'; userId: string; deviceId: string } & Issued)
  | ({ status: 'denied' } & Issued)
  | ({ status: 'redeemed'; userId: string; deviceId: string } & Issued);

/** RFC 8628 §3.5's answers to a poll, in the spec's words for a person reading the body. */
export const grantErrors = {
  pending: () => oauthError('authorization_pending', 'Waiting for the device to be approved on the activation page.'),
  slowDown: () => oauthError('slow_down', 'Polling too often: wait the interval (now 5 seconds longer) between requests.'),
  expired: () => oauthError('expired_token', 'The device code has expired. Start the sign-in again.'),
  denied: () => oauthError('access_denied', 'The request was denied.'),
  invalid: () => oauthError('invalid_grant', 'The device code is not valid or was already used.'),
};

/** What /activate says about a code that cannot be confirmed. */
export const activationErrors = {
  expired: () => ruleBroken('This code has expired. Start the sign-in on your device again.', 'user_code'),
  used: () => conflict('This code has already been used.', 'user_code'),
};

const expired = (state: Issued, at: Date) => at.getTime() >= state.expiresAt;

function decide(command: DeviceCodeCommand, state: DeviceCodeState): DeviceCodeEvent[] {
  switch (command.type) {
    case 'IssueDeviceCode': {
      if (state.status !== 'none') throw conflict('This device code exists already.');
      const { codeId, request, at, expiresAt, interval } = command;
      const times = { issuedAt: at.toISOString(), expiresAt: expiresAt.toISOString() };
      return [{ type: 'DeviceCodeIssued', data: { codeId, request, ...times, interval } }];
    }
    case 'ApproveDeviceCode':
    case 'DenyDeviceCode': {
      if (state.status === 'none') throw grantErrors.invalid();
      if (state.status !== 'pending') throw activationErrors.used();
      if (expired(state, command.at)) throw activationErrors.expired();
      return command.type === 'ApproveDeviceCode'
        ? [{ type: 'DeviceCodeApproved', data: { userId: command.userId, deviceId: command.deviceId } }]
        : [{ type: 'DeviceCodeDenied', data: { userId: command.userId } }];
    }
    case 'RedeemDeviceCode':
      switch (state.status) {
        case 'none':
        case 'redeemed':
          throw grantErrors.invalid();
        case 'denied':
          throw grantErrors.denied();
        case 'pending':
          if (expired(state, command.at)) throw grantErrors.expired();
          throw command.tooFast ? grantErrors.slowDown() : grantErrors.pending();
        case 'approved':
          if (expired(state, command.at)) throw grantErrors.expired();
          return [{ type: 'DeviceCodeRedeemed', data: { deviceId: state.deviceId } }];
        default:
          return unreachable(state);
      }
    default:
      return unreachable(command);
  }
}

function evolve(state: DeviceCodeState, event: DeviceCodeEvent): DeviceCodeState {
  if (event.type === 'DeviceCodeIssued') {
    const { codeId, request, issuedAt, expiresAt } = event.data;
    return { status: 'pending', codeId, request, issuedAt: Date.parse(issuedAt), expiresAt: Date.parse(expiresAt) };
  }
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'DeviceCodeApproved':
      return { ...state, status: 'approved', userId: event.data.userId, deviceId: event.data.deviceId };
    case 'DeviceCodeDenied':
      return { ...state, status: 'denied' };
    case 'DeviceCodeRedeemed':
      return state.status === 'approved' ? { ...state, status: 'redeemed' } : state;
    default:
      return unreachable(event);
  }
}

export const deviceCodeDecider: Decider<DeviceCodeCommand, DeviceCodeEvent, DeviceCodeState> = {
  initialState: () => ({ status: 'none' }),
  decide,
  evolve,
};
