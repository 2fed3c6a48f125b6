import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { BillingContext } from './billing-context';

export class UpdatePreferences {
  constructor(
    readonly userId: string,
    readonly changes: { onboardingCompleted?: boolean; showOnboarding?: boolean },
    readonly at: Date,
  ) {}
}

/** The dashboard's onboarding flags, as the user set them; returns once the read model shows them. */
@CommandHandler(UpdatePreferences)
export class UpdatePreferencesHandler implements ICommandHandler<UpdatePreferences, void> {
  constructor(private readonly billing: BillingContext) {}

  async execute({ userId, changes, at }: UpdatePreferences): Promise<void> {
    const { position } = await this.billing.preferences.execute(userId, { type: 'UpdatePreferences', at, ...changes });
    await this.billing.caughtUp(position);
  }
}
