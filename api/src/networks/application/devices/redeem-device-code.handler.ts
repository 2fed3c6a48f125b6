import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { DeviceTokenAnswer } from '@meshwork/contracts';
import type { DeviceTokens } from '../../../identity';
import { grantErrors } from '../../domain/device-code.decider';
import { DEVICE_CODE_STREAM, DevicesContext } from './devices-context';

export class RedeemDeviceCode {
  constructor(
    readonly deviceCode: string,
    readonly at: Date,
  ) {}
}

/** RFC 6749 §5.1's answer, with the device the tokens belong to. */
export const tokenAnswer = (deviceId: string, tokens: DeviceTokens): DeviceTokenAnswer => ({
  access_token: tokens.accessToken,
  refresh_token: tokens.refreshToken,
  token_type: 'Bearer',
  expires_in: tokens.expiresIn,
  device_id: deviceId,
});

/**
 * The host's poll (RFC 8628 §3.4): while the person has not decided, authorization_pending
 * (slow_down when it polls faster than its interval, counted across api instances); once
 * approved, the code is spent, once, for the device's first tokens.
 */
@CommandHandler(RedeemDeviceCode)
export class RedeemDeviceCodeHandler implements ICommandHandler<RedeemDeviceCode, DeviceTokenAnswer> {
  constructor(private readonly context: DevicesContext) {}

  async execute({ deviceCode, at }: RedeemDeviceCode): Promise<DeviceTokenAnswer> {
    const { codes, devices, limits, sessions } = this.context;
    const codeId = await this.context.idOwning(this.context.deviceCodeKey(deviceCode), DEVICE_CODE_STREAM);
    if (!codeId) throw grantErrors.invalid();
    const tooFast = await limits.polled(codeId, at);
    const { state } = await codes.execute(codeId, { type: 'RedeemDeviceCode', at, tooFast });
    if (state.status !== 'redeemed') throw grantErrors.invalid();

    // Revoked (or never registered, after a failed approval) since the person approved it: no tokens.
    const device = await this.registered(state.deviceId);
    if (device.status !== 'active') throw grantErrors.denied();
    await devices.execute(state.deviceId, { type: 'SeeDevice', at, userId: state.userId });
    const tokens = await sessions.open(state.userId, state.deviceId, at);
    if (!tokens) throw grantErrors.denied();
    // A revocation that raced this redemption may have ended the sessions before this one opened.
    if ((await devices.load(state.deviceId)).state.status !== 'active') {
      await sessions.end(state.deviceId, 'device-revoked', at);
      throw grantErrors.denied();
    }
    return tokenAnswer(state.deviceId, tokens);
  }

  /**
   * The device the approval names, once registered: approving appends the code's approval, then
   * registers the device, and a poll can land between the two (checking before redeeming left a
   * window too). Bounded: an approval whose registration failed never registers it.
   */
  private async registered(deviceId: string) {
    for (let attempt = 0; ; attempt++) {
      const { state } = await this.context.devices.load(deviceId);
      if (state.status !== 'none' || attempt >= REGISTRATION_WAITS) return state;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** How many times (50 ms apart) a redemption waits for the approved device's registration. */
const REGISTRATION_WAITS = 40;
