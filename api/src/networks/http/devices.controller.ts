import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DeviceList, DeviceRename, MessageAnswer, uuid } from '@meshwork/contracts';
import type { z } from 'zod';
import { AuthGuard, type Caller, CurrentCaller } from '../../identity';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { ZodPipe } from '../../platform/http/validation';
import { DeviceClock } from '../application/devices/device-clock';
import { DeviceDirectory } from '../application/devices/device-directory';
import { RenameDevice } from '../application/devices/rename-device.handler';
import { RevokeDevice } from '../application/devices/revoke-device.handler';

export const deviceId = new ZodPipe(uuid('Device id'));

/** The caller's devices: list, rename, revoke. */
@Tag('devices')
@Controller('devices')
@UseGuards(AuthGuard)
export class DevicesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly directory: DeviceDirectory,
    private readonly clock: DeviceClock,
  ) {}

  @Get()
  @Route({ summary: "The caller's devices, newest first; `current` marks the one calling.", response: DeviceList })
  async list(@CurrentCaller() caller: Caller): Promise<DeviceList> {
    const devices = await this.directory.devicesOf(caller.userId);
    return {
      devices: devices.map(({ id, name, platform, app_version, status, first_seen_at, last_seen_at }) => ({
        ...{ id, name, platform, app_version, status, first_seen_at, last_seen_at },
        current: id === caller.deviceId,
      })),
    };
  }

  @Post(':id/rename')
  @HttpCode(200)
  @Route({ response: MessageAnswer })
  async rename(
    @CurrentCaller() caller: Caller,
    @Param('id', deviceId) id: string,
    @Body(new ZodPipe(DeviceRename)) body: z.output<typeof DeviceRename>,
  ): Promise<MessageAnswer> {
    await this.commands.execute(new RenameDevice(caller.userId, id, body.name, this.clock.now()));
    return { message: 'Device renamed.' };
  }

  @Post(':id/revoke')
  @HttpCode(200)
  @Route({ summary: 'Revoke the device: its tokens stop working at once.', response: MessageAnswer })
  async revoke(@CurrentCaller() caller: Caller, @Param('id', deviceId) id: string): Promise<MessageAnswer> {
    await this.commands.execute(new RevokeDevice(id, { kind: 'user', userId: caller.userId }, 'Revoked by its owner', this.clock.now()));
    return { message: 'Device revoked.' };
  }
}
