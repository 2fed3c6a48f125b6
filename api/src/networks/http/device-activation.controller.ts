import { Body, Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ActivationDecision, ActivationQuery, MessageAnswer, PendingActivation } from '@meshwork/contracts';
import type { z } from 'zod';
import { AuthGuard, type Caller, CurrentCaller } from '../../identity';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { ZodPipe } from '../../platform/http/validation';
import { DecideActivation } from '../application/devices/decide-activation.handler';
import { DeviceClock } from '../application/devices/device-clock';
import { PreviewActivation } from '../application/devices/preview-activation.handler';

/** The site's /activate page: the signed-in person confirms the device behind a user code. */
@Tag('devices')
@Controller('devices/activate')
@UseGuards(AuthGuard)
export class DeviceActivationController {
  constructor(
    private readonly commands: CommandBus,
    private readonly clock: DeviceClock,
  ) {}

  @Get()
  @Route({
    summary: 'The pending request behind a user code, to confirm. Wrong codes are limited per user.',
    response: PendingActivation,
    errors: [409, 429],
  })
  pending(
    @CurrentCaller() caller: Caller,
    @Query(new ZodPipe(ActivationQuery)) query: z.output<typeof ActivationQuery>,
  ): Promise<PendingActivation> {
    return this.commands.execute(new PreviewActivation(caller.userId, query.user_code, this.clock.now()));
  }

  @Post()
  @HttpCode(200)
  @Route({ summary: 'Approve the device (naming it) or deny it; a code is decided once.', response: MessageAnswer, errors: [429] })
  async decide(
    @CurrentCaller() caller: Caller,
    @Body(new ZodPipe(ActivationDecision)) body: z.output<typeof ActivationDecision>,
  ): Promise<MessageAnswer> {
    const decision = new DecideActivation(caller.userId, body.user_code, body.approve, body.name ?? null, this.clock.now());
    const { approved } = await this.commands.execute<DecideActivation, { approved: boolean }>(decision);
    return { message: approved ? 'Device approved. It will finish signing in by itself.' : 'Sign-in request denied.' };
  }
}
