import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { formatUserCode, normalizeUserCode, type PendingActivation } from '@meshwork/contracts';
import { activationErrors } from '../../domain/device-code.decider';
import { DeviceActivations } from './device-activations';
import { DevicesContext } from './devices-context';

export class PreviewActivation {
  constructor(
    readonly userId: string,
    readonly userCode: string,
    readonly at: Date,
  ) {}
}

/**
 * What /activate shows before the person decides: the request behind the code they typed.
 * A command, though it appends nothing: it counts wrong codes (a write) and must read the
 * code's own state, not a read model that may lag the host's request by a moment.
 */
@CommandHandler(PreviewActivation)
export class PreviewActivationHandler implements ICommandHandler<PreviewActivation, PendingActivation> {
  constructor(
    private readonly context: DevicesContext,
    private readonly activations: DeviceActivations,
  ) {}

  async execute({ userId, userCode, at }: PreviewActivation): Promise<PendingActivation> {
    const codeId = await this.activations.find(userId, userCode, at);
    const { state } = await this.context.codes.load(codeId);
    if (state.status !== 'pending') throw activationErrors.used();
    if (at.getTime() >= state.expiresAt) throw activationErrors.expired();
    const { deviceName, platform, appVersion } = state.request;
    return {
      user_code: formatUserCode(normalizeUserCode(userCode)!),
      device_name: deviceName,
      platform,
      app_version: appVersion,
      requested_at: new Date(state.issuedAt).toISOString(),
      expires_at: new Date(state.expiresAt).toISOString(),
    };
  }
}
