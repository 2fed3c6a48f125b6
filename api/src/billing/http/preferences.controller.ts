import { Body, Controller, Patch, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Preferences, PreferencesUpdate } from '@meshwork/contracts';
import { AuthGuard, type Caller, CurrentCaller } from '../../identity';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { ZodPipe } from '../../platform/http/validation';
import { BillingQueries } from '../application/billing.query';
import { UpdatePreferences } from '../application/update-preferences.handler';

/** The signed-in user's dashboard preferences (onboarding shown or done). */
@Tag('account')
@Controller()
@UseGuards(AuthGuard)
export class PreferencesController {
  constructor(
    private readonly queries: BillingQueries,
    private readonly commands: CommandBus,
  ) {}

  @Patch('users/preferences')
  @Route({ response: Preferences })
  async updatePreferences(
    @CurrentCaller() caller: Caller,
    @Body(new ZodPipe(PreferencesUpdate)) body: z.output<typeof PreferencesUpdate>,
  ): Promise<Preferences> {
    const changes = { onboardingCompleted: body.onboarding_completed, showOnboarding: body.show_onboarding };
    await this.commands.execute(new UpdatePreferences(caller.userId, changes, new Date()));
    return this.queries.preferences(caller.userId);
  }
}
