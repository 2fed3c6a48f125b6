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
    // Approving appends the code's approval, then registers the device: a poll between the two
    // waits for the next one, rather than spending the code on a device that is not there yet.
    const { state: before } = await codes.load(codeId);
    if (before.status === 'approved' && (await devices.load(before.deviceId)).state.status === 'none') throw grantErrors.pending();
    const { state } = await codes.execute(codeId, { type: 'RedeemDeviceCode', at, tooFast });
    if (state.status !== 'redeemed') throw grantErrors.invalid();

    // Revoked (or never registered, after a failed approval) since the person approved it: no tokens.
    const { state: device } = await devices.load(state.deviceId);
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
}
