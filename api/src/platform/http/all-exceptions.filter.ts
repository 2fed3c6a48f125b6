import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import type { Response } from 'express';
import { DomainError, type DomainErrorKind } from '../domain/errors';
import { EventStoreError } from '../event-store/event-store.errors';
import { logger } from '../logging/logger';
import { defaultMessage, type ErrorBody } from './error-body';
import { ValidationFailed } from './validation';

/**
 * The one place where errors become HTTP answers, all in the spec's error body. Domain
 * errors say their kind and this maps it to a status; anything unexpected is logged in full
 * and answered with a plain 500 that reveals nothing.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const { status, body } = toHttp(exception);
    if (status >= 500) logger.error({ err: exception }, 'request failed');
    if (exception instanceof DomainError && exception.retryAfterSeconds)
      response.setHeader('Retry-After', String(exception.retryAfterSeconds));
    response.status(status).json(body);
  }
}

/** The only place a domain error's kind becomes an HTTP status. */
export const STATUS_OF: Record<DomainErrorKind, number> = {
  rule_broken: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many_requests: 429,
  unavailable: 503,
};

export function toHttp(exception: unknown): { status: number; body: ErrorBody } {
  if (exception instanceof ValidationFailed) return { status: 400, body: exception.body };
  if (exception instanceof DomainError) {
    const status = STATUS_OF[exception.kind];
    const message = exception.detail ?? defaultMessage(status);
    const body: ErrorBody = { message };
    if (exception.field) body.errors = { [exception.field]: [message] };
    if (exception.oauthCode) Object.assign(body, { error: exception.oauthCode, error_description: message });
    return { status, body };
  }
  if (exception instanceof EventStoreError) return { status: exception.httpStatus, body: { message: exception.message } };
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const answer = exception.getResponse();
    const message =
      typeof answer === 'object' && answer !== null && 'message' in answer ? (answer as { message: unknown }).message : answer;
    // Nest's own texts ("Cannot GET /x") are replaced by the spec's; texts we wrote are kept.
    const ours = typeof message === 'string' && !/^Cannot [A-Z]+ /.test(message) && status !== 500;
    return { status, body: { message: ours ? message : defaultMessage(status) } };
  }
  return { status: 500, body: { message: defaultMessage(500) } };
}
