import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type DeviceCodeAnswer, formatUserCode, USER_CODE_ALPHABET } from '@meshwork/contracts';
import { UniqueValueTakenError } from '../../../platform/event-store/event-store.errors';
import { POLL_INTERVAL_SECONDS } from '../../infrastructure/device-grant-limits';
import { DevicesContext } from './devices-context';

/** RFC 8628 §3.2: how long a code waits for its approval. */
export const DEVICE_CODE_TTL_SECONDS = 600;

export class IssueDeviceCode {
  constructor(
    readonly request: { clientId: string; deviceName: string; platform: string; appVersion: string; hardwareFingerprint: string },
    readonly at: Date,
  ) {}
}

const userCode = () => Array.from({ length: 8 }, () => USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]).join('');

/**
 * Starts a device's sign-in: a device code for the host to poll with and a short user code
 * for the person to type on /activate. Both are claimed as unique keys (hashes only) in the
 * append's transaction; the rare user code already taken is drawn again.
 */
@CommandHandler(IssueDeviceCode)
export class IssueDeviceCodeHandler implements ICommandHandler<IssueDeviceCode, DeviceCodeAnswer> {
  constructor(private readonly context: DevicesContext) {}

  async execute({ request, at }: IssueDeviceCode): Promise<DeviceCodeAnswer> {
    const { hardwareFingerprint, ...described } = request;
    const fingerprintHash = this.context.fingerprintHash(hardwareFingerprint);
    const expiresAt = new Date(at.getTime() + DEVICE_CODE_TTL_SECONDS * 1000);
    for (let attempt = 1; ; attempt++) {
      const codeId = randomUUID();
      const deviceCode = randomBytes(32).toString('base64url');
      const code = userCode();
      try {
        await this.context.codes.execute(
          codeId,
          { type: 'IssueDeviceCode', at, codeId, request: { ...described, fingerprintHash }, expiresAt, interval: POLL_INTERVAL_SECONDS },
          { unique: () => ({ claim: [this.context.deviceCodeKey(deviceCode), this.context.userCodeKey(code)] }) },
        );
      } catch (error) {
        if (error instanceof UniqueValueTakenError && attempt < 3) continue;
        throw error;
      }
      const verificationUri = `${this.context.config.publicUrl}/activate`;
      return {
        device_code: deviceCode,
        user_code: formatUserCode(code),
        verification_uri: verificationUri,
        verification_uri_complete: `${verificationUri}?user_code=${formatUserCode(code)}`,
        expires_in: DEVICE_CODE_TTL_SECONDS,
        interval: POLL_INTERVAL_SECONDS,
      };
    }
  }
}
