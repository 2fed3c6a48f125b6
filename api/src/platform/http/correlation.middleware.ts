import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { logger, requestContext } from '../logging/logger';

export const CORRELATION_HEADER = 'x-correlation-id';
const ACCEPTABLE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * What the request log keeps of an address: its path and the names in its query, never their
 * values. A query can carry a secret, as the link in a password-reset mail does (?token=).
 */
export function loggableUrl(originalUrl: string): string {
  const queryStart = originalUrl.indexOf('?');
  if (queryStart === -1) return originalUrl;
  const names = [...new Set(new URLSearchParams(originalUrl.slice(queryStart + 1)).keys())];
  return `${originalUrl.slice(0, queryStart)}?${names.map((name) => `${encodeURIComponent(name)}=…`).join('&')}`;
}

/**
 * Gives every request a correlation id (the caller's, when it sent a sane one), returns it
 * in the response, and runs the rest of the request inside that context so log lines and
 * event metadata carry it. Logs one line per finished request.
 */
export function correlationMiddleware(request: Request, response: Response, next: NextFunction): void {
  const offered = request.header(CORRELATION_HEADER);
  const correlationId = offered && ACCEPTABLE_ID.test(offered) ? offered : randomUUID();
  response.setHeader(CORRELATION_HEADER, correlationId);
  const started = process.hrtime.bigint();
  response.on('finish', () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    requestContext.run({ correlationId, ip: request.ip ?? null, userAgent: request.header('user-agent') ?? null }, () =>
      logger.info(
        { method: request.method, url: loggableUrl(request.originalUrl), status: response.statusCode, ms: Math.round(ms * 10) / 10 },
        'request',
      ),
    );
  });
  requestContext.run({ correlationId, ip: request.ip ?? null, userAgent: request.header('user-agent') ?? null }, next);
}
