import { Injectable } from '@nestjs/common';
import { IdentityContext } from './identity-context';
import { SessionIssuer } from './session-issuer';

/** A device's tokens: a short access token the AuthGuard accepts, and its refresh token. */
export interface DeviceTokens {
  accessToken: string;
  refreshToken: string;
  /** Seconds the access token lives. */
  expiresIn: number;
}

export type DeviceRefresh =
  | ({ status: 'rotated'; userId: string; deviceId: string } & DeviceTokens)
  | { status: 'reused'; userId: string; deviceId: string; sessionId: string }
  | { status: 'invalid' };

/** How long a device's refresh-token family lasts before the device must be approved again. */
const DEVICE_SESSION_DAYS = 90;

/**
 * The port through which the networks context gives devices their own tokens, on identity's
 * session machinery (one implementation of refresh-token families, access tokens and the
 * signed-in cache): a device's family is a session bound to the device, its access tokens
 * carry the device id, and revoking the device ends its sessions on every api instance.
 */
@Injectable()
export class DeviceSessions {
  constructor(
    private readonly identity: IdentityContext,
    private readonly issuer: SessionIssuer,
  ) {}

  /** Opens a family for the device; null when the user may not sign in (deactivated, deleted). */
  async open(userId: string, deviceId: string, at: Date): Promise<DeviceTokens | null> {
    const { state } = await this.identity.users.load(userId);
    if (state.status !== 'active') return null;
    const { sessionId, refreshToken } = await this.identity.sessions.open(userId, at, DEVICE_SESSION_DAYS, deviceId);
    return this.tokens({ userId, email: state.email, isStaff: state.isStaff }, sessionId, deviceId, refreshToken, at);
  }

  /** Spends a device's refresh token; a spent one revokes the family (the caller records it). */
  async refresh(refreshToken: string, at: Date): Promise<DeviceRefresh> {
    const { sessions, users } = this.identity;
    const result = await sessions.rotate(refreshToken, at, true);
    if (result.status === 'invalid' || !result.deviceId) return { status: 'invalid' };
    const { userId, sessionId, deviceId } = result;
    if (result.status === 'reused') return { status: 'reused', userId, deviceId, sessionId };
    const { state } = await users.load(userId);
    if (state.status !== 'active') {
      await sessions.revoke(sessionId, 'account-not-active', at);
      return { status: 'invalid' };
    }
    const user = { userId, email: state.email, isStaff: state.isStaff };
    return { status: 'rotated', userId, deviceId, ...this.tokens(user, sessionId, deviceId, result.refreshToken, at) };
  }

  /** Ends every session of the device at once, here and (by NOTIFY) on every other instance. */
  async end(deviceId: string, reason: string, at: Date): Promise<void> {
    await this.identity.sessions.revokeDevice(deviceId, reason, at);
  }

  private tokens(
    user: { userId: string; email: string; isStaff: boolean },
    sessionId: string,
    deviceId: string,
    refreshToken: string,
    at: Date,
  ): DeviceTokens {
    return {
      accessToken: this.issuer.accessToken(user, sessionId, at, deviceId),
      refreshToken,
      expiresIn: this.identity.config.ACCESS_TOKEN_TTL_SECONDS,
    };
  }
}
