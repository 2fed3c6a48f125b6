import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';

/** What one request (or one background job) carries through every await. */
export interface RequestContext {
  correlationId: string;
  ip: string | null;
  userAgent: string | null;
  /** Set once the request is authenticated. */
  userId?: string | null;
  isStaff?: boolean;
  /** The API token that authenticated the request, when one did (not a session). */
  apiTokenId?: string | null;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

/**
 * One structured JSON logger for every process. Each line carries the correlation id of
 * the request it belongs to, the same id that lands in the metadata of the events it caused.
 */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? 'info',
  base: { service: process.env.MESHWORK_SERVICE ?? 'meshwork' },
  timestamp: pino.stdTimeFunctions.isoTime,
  mixin: () => {
    const context = requestContext.getStore();
    return context ? { correlationId: context.correlationId } : {};
  },
});

export type Logger = Pick<pino.Logger, 'info' | 'warn' | 'error' | 'debug'>;
