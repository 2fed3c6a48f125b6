import { Controller, Get, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthGuard, type Caller, CurrentCaller } from '../../identity';
import { forbidden } from '../../platform/domain/errors';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { EntitlementStreamTail } from '../application/entitlement-stream/entitlement-stream.tail';
import { parseLastEventId } from '../application/entitlement-stream/sse';

/** The live side of the entitlement document: server-sent events for device tokens only. */
@Tag('devices')
@Controller('devices/entitlements')
@UseGuards(AuthGuard)
export class DeviceEntitlementStreamController {
  constructor(private readonly streams: EntitlementStreamTail) {}

  @Get('stream')
  @Route({
    summary:
      'Server-sent events: the signed entitlement document now (`entitlements`, id = its seq; skipped when Last-Event-ID is at least that) ' +
      'and whenever it changes, `: heartbeat` every 15 s, and `revoked` before the server closes the stream of a revoked device.',
    file: 'text/event-stream',
    // A web session is signed in but is no device.
    errors: [403],
  })
  stream(@CurrentCaller() caller: Caller, @Req() request: Request, @Res() response: Response): void {
    const { userId, deviceId } = caller;
    if (!deviceId) throw forbidden('Entitlements are issued to signed-in devices: sign this device in with a device code.');
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      // Proxies such as nginx would otherwise hold the events back to fill a buffer.
      'X-Accel-Buffering': 'no',
    });
    request.socket.setNoDelay(true);
    request.socket.setTimeout(0);
    const close = this.streams.open({ userId, deviceId }, parseLastEventId(request.header('last-event-id')), {
      write: (chunk) => response.write(chunk),
      end: () => response.end(),
    });
    response.on('close', close);
  }
}
