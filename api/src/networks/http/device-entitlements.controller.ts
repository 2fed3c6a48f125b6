import { Controller, Get, UseGuards } from '@nestjs/common';
import { SignedEntitlements } from '@meshwork/contracts';
import { AuthGuard, type Caller, CurrentCaller } from '../../identity';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { DeviceClock } from '../application/devices/device-clock';
import { DeviceEntitlements } from '../application/device-entitlements.query';

/** What a desktop host obeys: its signed entitlement document, for device tokens only. */
@Tag('devices')
@Controller('devices/entitlements')
@UseGuards(AuthGuard)
export class DeviceEntitlementsController {
  constructor(
    private readonly entitlements: DeviceEntitlements,
    private readonly clock: DeviceClock,
  ) {}

  @Get()
  @Route({
    summary: "The calling device's entitlement document (plan, models, networks), signed with Ed25519; verify it with GET /devices/keys/.",
    response: SignedEntitlements,
    // A web session is signed in but is no device.
    errors: [403],
  })
  document(@CurrentCaller() caller: Caller): Promise<SignedEntitlements> {
    return this.entitlements.signedFor(caller, this.clock.now());
  }
}
