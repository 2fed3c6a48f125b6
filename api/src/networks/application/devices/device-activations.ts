import { Injectable } from '@nestjs/common';
import { normalizeUserCode } from '@meshwork/contracts';
import { ruleBroken, tooManyRequests } from '../../../platform/domain/errors';
import { MISS_WINDOW_MINUTES } from '../../infrastructure/device-grant-limits';
import { DEVICE_CODE_STREAM, DevicesContext } from './devices-context';

const wrongCode = () => ruleBroken('That code is not valid. Check the code your device shows.', 'user_code');

/**
 * Finds the device code a person typed on /activate, for them to confirm or decide. Wrong
 * codes are counted per user (in PostgreSQL, so across api instances); past the limit every
 * code is refused for a while, the right one too, so guessing learns nothing.
 */
@Injectable()
export class DeviceActivations {
  constructor(private readonly context: DevicesContext) {}

  /** The code's id; throws 400 for a wrong code and 429 while the user is blocked. */
  async find(userId: string, typed: string, at: Date): Promise<string> {
    const { limits } = this.context;
    if (!(await limits.attempt(userId, at)))
      throw tooManyRequests(`Too many wrong codes. Try again in ${MISS_WINDOW_MINUTES} minutes.`, MISS_WINDOW_MINUTES * 60);
    const code = normalizeUserCode(typed);
    const codeId = code ? await this.context.idOwning(this.context.userCodeKey(code), DEVICE_CODE_STREAM) : null;
    if (!codeId) throw wrongCode();
    await limits.found(userId);
    return codeId;
  }
}
