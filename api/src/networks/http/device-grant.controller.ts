import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DEVICE_CODE_GRANT, DeviceCodeAnswer, DeviceCodeRequest, DeviceTokenAnswer, DeviceTokenRequest } from '@meshwork/contracts';
import type { z } from 'zod';
import { RateLimited } from '../../identity';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { DeviceClock } from '../application/devices/device-clock';
import { IssueDeviceCode } from '../application/devices/issue-device-code.handler';
import { RedeemDeviceCode } from '../application/devices/redeem-device-code.handler';
import { RefreshDeviceToken } from '../application/devices/refresh-device-token.handler';
import { DeviceOAuthPipe } from './device-oauth.pipe';

/**
 * The device authorization grant's two anonymous endpoints (RFC 8628 §3.1 and §3.4), for
 * the desktop host. JSON or form-encoded, as OAuth clients send; refusals carry OAuth's
 * `error` beside the spec's `message`.
 */
@Tag('devices')
@Controller('devices')
export class DeviceGrantController {
  constructor(
    private readonly commands: CommandBus,
    private readonly clock: DeviceClock,
  ) {}

  @Post('code')
  @HttpCode(200)
  @RateLimited('device-code')
  @Route({
    summary: 'Start signing a device in (RFC 8628 §3.2): a device code to poll with and a user code to enter at /activate.',
    response: DeviceCodeAnswer,
  })
  code(@Body(new DeviceOAuthPipe(DeviceCodeRequest)) body: z.output<typeof DeviceCodeRequest>): Promise<DeviceCodeAnswer> {
    const request = {
      clientId: body.client_id,
      deviceName: body.device_name,
      platform: body.platform,
      appVersion: body.app_version,
      hardwareFingerprint: body.hardware_fingerprint,
    };
    return this.commands.execute(new IssueDeviceCode(request, this.clock.now()));
  }

  @Post('token')
  @HttpCode(200)
  @Route({
    summary:
      'Poll with the device code for the tokens (authorization_pending, slow_down, expired_token, access_denied until then), or spend a refresh token for the next pair.',
    response: DeviceTokenAnswer,
  })
  token(@Body(new DeviceOAuthPipe(DeviceTokenRequest)) body: z.output<typeof DeviceTokenRequest>): Promise<DeviceTokenAnswer> {
    const at = this.clock.now();
    return this.commands.execute(
      body.grant_type === DEVICE_CODE_GRANT ? new RedeemDeviceCode(body.device_code, at) : new RefreshDeviceToken(body.refresh_token, at),
    );
  }
}
