/**
 * The error catalogue of spec section 8: every failed call becomes one ApiError whose
 * message, type and severity the screens and toasts read, so no screen parses a body itself.
 */

export type ErrorType = 'network' | 'authentication' | 'authorization' | 'validation' | 'server' | 'client';
export type ErrorSeverity = 'low' | 'medium' | 'high';
/** NETWORK_ERROR and TIMEOUT have no response; the error screens tell them apart by code. */
export type ErrorCode = 'NETWORK_ERROR' | 'TIMEOUT' | 'HTTP_ERROR';

export const NO_RESPONSE_MESSAGE = 'Unable to connect to the server. Please check your internet connection.';
export const UNEXPECTED_MESSAGE = 'An unexpected error occurred';

const statusMessages: Readonly<Record<number, string>> = {
  400: 'Invalid request. Please check your input.',
  401: 'Authentication required. Please log in.',
  403: "Access denied. You don't have permission to perform this action.",
  404: 'The requested resource was not found.',
  422: 'Validation failed. Please check your input.',
  429: 'Too many requests. Please try again later.',
  500: 'Internal server error. Please try again later.',
  502: 'Service temporarily unavailable. Please try again later.',
  503: 'Service temporarily unavailable. Please try again later.',
};

/** The message shown for a status when the body says nothing usable. */
export function defaultMessageForStatus(status: number): string {
  return statusMessages[status] ?? UNEXPECTED_MESSAGE;
}

/** Field name to messages, as the api sends it under `errors`. */
export type FieldErrors = Record<string, string[]>;

function nonBlank(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function firstMessage(value: unknown): string | undefined {
  if (Array.isArray(value)) return value.map(firstMessage).find((m) => m !== undefined);
  return nonBlank(value);
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The `errors` map of a body, every field reduced to its string messages. */
export function fieldErrorsOf(body: unknown): FieldErrors {
  const errors = asRecord(asRecord(body)?.errors);
  if (!errors) return {};
  const result: FieldErrors = {};
  for (const [field, value] of Object.entries(errors)) {
    const list = (Array.isArray(value) ? value : [value]).filter((m): m is string => nonBlank(m) !== undefined);
    if (list.length > 0) result[field] = list;
  }
  return result;
}

/** Message choice order: message, detail, error, first of errors, first of non_field_errors, then the status default. */
export function chooseMessage(body: unknown, status: number): string {
  const record = asRecord(body);
  const fromErrors = Object.values(fieldErrorsOf(body))[0]?.[0];
  return (
    nonBlank(record?.message) ??
    nonBlank(record?.detail) ??
    nonBlank(record?.error) ??
    fromErrors ??
    firstMessage(record?.non_field_errors) ??
    defaultMessageForStatus(status)
  );
}

/** Type and severity by status: 401 and 403 and 5xx are high, validation is low. */
export function classifyStatus(status: number): { type: ErrorType; severity: ErrorSeverity } {
  if (status === 401) return { type: 'authentication', severity: 'high' };
  if (status === 403) return { type: 'authorization', severity: 'high' };
  if (status === 400 || status === 422) return { type: 'validation', severity: 'low' };
  if (status >= 500) return { type: 'server', severity: 'high' };
  return { type: 'client', severity: 'medium' };
}

export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    message: string,
    readonly type: ErrorType,
    readonly severity: ErrorSeverity,
    readonly code: ErrorCode,
    /** Undefined when no response arrived. */
    readonly status?: number,
    readonly fieldErrors: FieldErrors = {},
    readonly body?: unknown,
  ) {
    super(message);
  }

  /** A response arrived with a failing status. */
  static fromResponse(status: number, body: unknown): ApiError {
    const { type, severity } = classifyStatus(status);
    return new ApiError(chooseMessage(body, status), type, severity, 'HTTP_ERROR', status, fieldErrorsOf(body), body);
  }

  /** The request never got an answer: offline, DNS, refused connection, CORS. */
  static network(): ApiError {
    return new ApiError(NO_RESPONSE_MESSAGE, 'network', 'medium', 'NETWORK_ERROR');
  }

  /** No answer within the request timeout: still no response, but a different screen. */
  static timeout(): ApiError {
    return new ApiError(NO_RESPONSE_MESSAGE, 'network', 'medium', 'TIMEOUT');
  }
}

/** The text to show for any thrown value: the catalogue message, else the screen's own fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.message : fallback;
}
