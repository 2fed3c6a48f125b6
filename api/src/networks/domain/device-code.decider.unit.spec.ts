import { given } from '../../platform/testing/given-when-then';
import { deviceCodeDecider, type DeviceCodeEvent } from './device-code.decider';

const at = new Date('2026-03-01T10:00:00Z');
const expiresAt = new Date('2026-03-01T10:10:00Z');
const request = { clientId: 'meshwork-desktop', deviceName: 'studio', platform: 'linux', appVersion: '1.0.0', fingerprintHash: 'fp' };
const issued: DeviceCodeEvent = {
  type: 'DeviceCodeIssued',
  data: { codeId: 'c1', request, issuedAt: at.toISOString(), expiresAt: expiresAt.toISOString(), interval: 5 },
};
const approved: DeviceCodeEvent = { type: 'DeviceCodeApproved', data: { userId: 'u1', deviceId: 'd1' } };
const denied: DeviceCodeEvent = { type: 'DeviceCodeDenied', data: { userId: 'u1' } };
const redeemed: DeviceCodeEvent = { type: 'DeviceCodeRedeemed', data: { deviceId: 'd1' } };

const minute = (n: number) => new Date(at.getTime() + n * 60_000);
const poll = (when = minute(1), tooFast = false) => ({ type: 'RedeemDeviceCode' as const, at: when, tooFast });
const approve = (when = minute(1)) => ({ type: 'ApproveDeviceCode' as const, at: when, userId: 'u1', deviceId: 'd1' });

describe('device code decider', () => {
  describe('when not issued', () => {
    it('issues, with its expiry and interval', () => {
      given(deviceCodeDecider).when({ type: 'IssueDeviceCode', at, codeId: 'c1', request, expiresAt, interval: 5 }).then([issued]);
    });
    it('answers a poll and an approval with invalid_grant', () => {
      given(deviceCodeDecider)
        .when(poll())
        .thenThrows(expect.objectContaining({ oauthCode: 'invalid_grant' }));
      given(deviceCodeDecider)
        .when(approve())
        .thenThrows(expect.objectContaining({ oauthCode: 'invalid_grant' }));
    });
  });

  describe('when pending', () => {
    it('answers a poll with authorization_pending, or slow_down when polled too fast', () => {
      given(deviceCodeDecider, [issued])
        .when(poll())
        .thenThrows(expect.objectContaining({ oauthCode: 'authorization_pending' }));
      given(deviceCodeDecider, [issued])
        .when(poll(minute(1), true))
        .thenThrows(expect.objectContaining({ oauthCode: 'slow_down' }));
    });
    it('is approved for a device, or denied, by the person signed in', () => {
      given(deviceCodeDecider, [issued]).when(approve()).then([approved]);
      given(deviceCodeDecider, [issued])
        .when({ type: 'DenyDeviceCode', at: minute(1), userId: 'u1' })
        .then([denied]);
    });
    it('runs out after ten minutes: expired_token to the host, "expired" on /activate', () => {
      given(deviceCodeDecider, [issued])
        .when(poll(minute(10)))
        .thenThrows(expect.objectContaining({ oauthCode: 'expired_token' }));
      given(deviceCodeDecider, [issued])
        .when(approve(minute(10)))
        .thenThrows(/expired/);
    });
    it('is not issued twice', () => {
      given(deviceCodeDecider, [issued])
        .when({ type: 'IssueDeviceCode', at, codeId: 'c1', request, expiresAt, interval: 5 })
        .thenThrows(/exists/);
    });
  });

  describe('when approved', () => {
    it('is redeemed once for the approved device', () => {
      given(deviceCodeDecider, [issued, approved])
        .when(poll(minute(2)))
        .then([redeemed]);
    });
    it('is redeemed even when the host polls early: the tokens are ready', () => {
      given(deviceCodeDecider, [issued, approved])
        .when(poll(minute(2), true))
        .then([redeemed]);
    });
    it('cannot be approved (or denied) again', () => {
      given(deviceCodeDecider, [issued, approved])
        .when(approve(minute(2)))
        .thenThrows(/already been used/);
      given(deviceCodeDecider, [issued, approved])
        .when({ type: 'DenyDeviceCode', at: minute(2), userId: 'u1' })
        .thenThrows(/already been used/);
    });
    it('expires if not redeemed in time', () => {
      given(deviceCodeDecider, [issued, approved])
        .when(poll(minute(11)))
        .thenThrows(expect.objectContaining({ oauthCode: 'expired_token' }));
    });
  });

  describe('when denied', () => {
    it('answers access_denied, and cannot be approved after all', () => {
      given(deviceCodeDecider, [issued, denied])
        .when(poll())
        .thenThrows(expect.objectContaining({ oauthCode: 'access_denied' }));
      given(deviceCodeDecider, [issued, denied])
        .when(approve())
        .thenThrows(/already been used/);
    });
  });

  describe('when redeemed', () => {
    it('is single use: a second redemption is invalid_grant', () => {
      given(deviceCodeDecider, [issued, approved, redeemed])
        .when(poll(minute(2)))
        .thenThrows(expect.objectContaining({ oauthCode: 'invalid_grant' }));
    });
  });
});
