import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { DeviceTokenAnswer } from '@meshwork/contracts';
import { oauthError } from '../../../platform/domain/errors';
import { DevicesContext } from './devices-context';
import { tokenAnswer } from './redeem-device-code.handler';

export class RefreshDeviceToken {
  constructor(
    readonly refreshToken: string,
    readonly at: Date,
  ) {}
}

const refreshRefused = () => oauthError('invalid_grant', 'The refresh token is not valid. Sign this device in again.');

/**
 * Spends a device's refresh token for the next pair (RFC 6749 §6). A token already spent
 * means it leaked: the device's whole token family is revoked (by identity's session store)
 * and the reuse recorded on the device's stream; the device signs in again by the grant.
 */
@CommandHandler(RefreshDeviceToken)
export class RefreshDeviceTokenHandler implements ICommandHandler<RefreshDeviceToken, DeviceTokenAnswer> {
  constructor(private readonly context: DevicesContext) {}

  async execute({ refreshToken, at }: RefreshDeviceToken): Promise<DeviceTokenAnswer> {
    const { devices, sessions } = this.context;
    const result = await sessions.refresh(refreshToken, at);
    if (result.status === 'invalid') throw refreshRefused();
    if (result.status === 'reused') {
      await devices.execute(result.deviceId, { type: 'RecordRefreshTokenReuse', at, sessionId: result.sessionId });
      throw refreshRefused();
    }
    await devices.execute(result.deviceId, { type: 'SeeDevice', at, userId: result.userId });
    return tokenAnswer(result.deviceId, result);
  }
}
