import { NO_RESPONSE_MESSAGE, UNEXPECTED_MESSAGE } from '../api/api-error';

/** Which error screen a failed load gets (spec section 8, "Error screens"). */
export type LoadFailureKind = 'connection' | 'server' | 'maintenance' | 'access' | 'timeout' | 'other';

export interface LoadFailure {
  kind: LoadFailureKind;
  title: string;
  message: string;
  /** Shown as 'HTTP {status}' on the generic screen only; undefined when no response arrived. */
  status?: number;
}

// The catalogue's texts for 500 and 502; 504 and unlisted 5xx are not in the spec.
const serverMessages: Readonly<Record<number, string>> = {
  500: 'Internal server error. Please try again later.',
  502: 'Service temporarily unavailable. Please try again later.',
  504: 'The server took too long to respond. Please try again in a moment.',
};
const OTHER_SERVER_MESSAGE = 'The server ran into a problem. Please try again later.';

/**
 * Read as plain fields rather than `instanceof ApiError`: the spec's rules are written
 * against code, status and message, so any error carrying them is classified the same way.
 */
function fieldsOf(error: unknown): { code?: unknown; status?: unknown; message: string } {
  if (typeof error !== 'object' || error === null) return { message: typeof error === 'string' ? error : '' };
  const { code, status, message } = error as Record<string, unknown>;
  return { code, status, message: typeof message === 'string' ? message : '' };
}

/**
 * The screen for a page whose data could not load. The checks run in the spec's order:
 * no connection, then 5xx (503 is maintenance), then 401/403, then a timeout, else a
 * generic screen with the error's own message and its status.
 */
export function classifyLoadFailure(error: unknown): LoadFailure {
  const { code, status: rawStatus, message } = fieldsOf(error);
  const status = typeof rawStatus === 'number' ? rawStatus : undefined;

  if (code === 'NETWORK_ERROR' || message.includes('Network Error'))
    return { kind: 'connection', title: 'Connection Problem', message: NO_RESPONSE_MESSAGE };
  if (status === 503)
    return {
      kind: 'maintenance',
      title: 'Under Maintenance',
      message: "We're carrying out scheduled maintenance. Please check back in a few minutes.",
    };
  if (status !== undefined && status >= 500)
    return { kind: 'server', title: 'Server Error', message: serverMessages[status] ?? OTHER_SERVER_MESSAGE };
  if (status === 401 || status === 403)
    return {
      kind: 'access',
      title: 'Access Denied',
      message: "You don't have permission to view this. Try signing in again, or contact support if you think this is a mistake.",
    };
  if (code === 'TIMEOUT' || message.includes('timeout'))
    return {
      kind: 'timeout',
      title: 'Request Timeout',
      message: 'The request took too long to complete. Please check your connection and try again.',
    };
  return { kind: 'other', title: 'Error', message: message.trim() || UNEXPECTED_MESSAGE, status };
}
