import { Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AdminDeviceList, MessageAnswer, uuid } from '@meshwork/contracts';
import { StaffGuard } from '../../identity';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { ZodPipe } from '../../platform/http/validation';
import { DeviceClock } from '../application/devices/device-clock';
import { DeviceDirectory } from '../application/devices/device-directory';
import { RevokeDevice } from '../application/devices/revoke-device.handler';
import { deviceId } from './devices.controller';

const userId = new ZodPipe(uuid('User id'));

/**
 * The console's view of a user's devices, and revoking one (the staff member is the event's actor).
 * Canonical under the console's `admin-panel/` prefix; the older `admin/` paths stay as an alias.
 */
@Tag('admin-devices')
@Controller(['admin-panel', 'admin'])
@UseGuards(StaffGuard)
export class DevicesAdminController {
  constructor(
    private readonly commands: CommandBus,
    private readonly directory: DeviceDirectory,
    private readonly clock: DeviceClock,
  ) {}

  @Get('users/:id/devices')
  @Route({ summary: "A user's devices, revoked ones included, newest first.", response: AdminDeviceList })
  async devices(@Param('id', userId) id: string): Promise<AdminDeviceList> {
    return { devices: await this.directory.devicesOf(id) };
  }

  @Post('devices/:id/revoke')
  @HttpCode(200)
  @Route({ summary: "Revoke any customer's device: its tokens stop working at once.", response: MessageAnswer })
  async revoke(@Param('id', deviceId) id: string): Promise<MessageAnswer> {
    await this.commands.execute(new RevokeDevice(id, { kind: 'staff' }, 'Revoked by staff', this.clock.now()));
    return { message: 'Device revoked.' };
  }
}
