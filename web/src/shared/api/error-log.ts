import type { ApiError } from './api-error';

/** How many failures are kept for a support session (spec section 9). */
export const ERROR_LOG_LIMIT = 100;

export interface ErrorLogEntry {
  at: string;
  method: string;
  path: string;
  status?: number;
  code: ApiError['code'];
  type: ApiError['type'];
  message: string;
}

/** The latest failed calls, oldest first, bounded so a long session cannot grow it without end. */
export function createErrorLog(limit = ERROR_LOG_LIMIT) {
  const entries: ErrorLogEntry[] = [];
  return {
    record(method: string, path: string, error: ApiError): void {
      entries.push({
        at: new Date().toISOString(),
        method,
        path,
        status: error.status,
        code: error.code,
        type: error.type,
        message: error.message,
      });
      if (entries.length > limit) entries.splice(0, entries.length - limit);
    },
    entries(): readonly ErrorLogEntry[] {
      return [...entries];
    },
  };
}

export type ErrorLog = ReturnType<typeof createErrorLog>;
