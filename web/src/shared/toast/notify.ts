import { toast } from 'sonner';
import { ApiError } from '../api/api-error';

/** Spec section 9: how long each kind of toast stays, in milliseconds. */
export const TOAST_DURATION = {
  network: 6000,
  authentication: 5000,
  validation: 4000,
  error: 5000,
  success: 2000,
  default: 4000,
  /** Toasts raised from the top bar (sign out). */
  topBar: 4000,
} as const;

/** At most this many toasts are on screen at once. */
export const MAX_VISIBLE_TOASTS = 20;

/** Network problems stay longest, validation shortest; anything else is an ordinary error. */
export function errorToastDuration(cause: unknown): number {
  if (!(cause instanceof ApiError)) return TOAST_DURATION.error;
  if (cause.type === 'network') return TOAST_DURATION.network;
  if (cause.type === 'authentication') return TOAST_DURATION.authentication;
  if (cause.type === 'validation') return TOAST_DURATION.validation;
  return TOAST_DURATION.error;
}

export function notifySuccess(message: string, duration: number = TOAST_DURATION.success): void {
  toast.success(message, { duration });
}

/** A neutral note: neither a success nor a failure. */
export function notifyInfo(message: string): void {
  toast.info(message, { duration: TOAST_DURATION.default });
}

/** An error toast whose title is the message; `cause` picks the duration. */
export function notifyError(message: string, cause?: unknown): void {
  toast.error(message, { duration: errorToastDuration(cause) });
}

/** A screen's fixed failure title ('Failed to update profile'), with the server's reason underneath when there is one. */
export function notifyFailure(title: string, cause: unknown): void {
  const description = cause instanceof ApiError && cause.message !== title ? cause.message : undefined;
  toast.error(title, { description, duration: errorToastDuration(cause) });
}
