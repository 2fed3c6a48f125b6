import { Controller, Get, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AuthGuard, type Caller, CurrentCaller } from '../../identity';
import { forbidden } from '../../platform/domain/errors';
import { Route, Tag } from '../../platform/http/openapi/route-contract';
import { EntitlementStreamTail } from '../application/entitlement-stream/entitlement-stream.tail';
import { parseLastEventId, sse } from '../application/entitlement-stream/sse';

/** setTimeout's longest delay (about 24.8 days): a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

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
      'and whenever it changes, `: heartbeat` every 15 s, `revoked` before the server closes the stream of a revoked device, ' +
      'and `expired` before it closes a stream whose access token has expired (reconnect with a fresh token).',
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
    // No longer than the token that opened it: a token taken from a device streams no longer
    // than it would be accepted. The host reconnects at once with a fresh one.
    const untilExpiry = (caller.tokenExpiresAt?.getTime() ?? Infinity) - Date.now();
    const expiry = setTimeout(
      () => {
        response.write(sse.expired);
        response.end();
      },
      Math.max(0, Math.min(untilExpiry, MAX_TIMER_MS)),
    );
    response.on('close', () => {
      clearTimeout(expiry);
      close();
    });
  }
}
