import type { toast as sonnerToast } from 'sonner';
import { ApiError } from '../api/api-error';

/**
 * Sonner (its toaster and its toasts) is not in the page's first script: it is fetched with the
 * first toast, or once the page has settled (src/app/app.tsx), whichever comes first. A toast
 * raised before the toaster mounts is shown as it does.
 */
let sonner: Promise<typeof import('sonner')> | undefined;
const sonnerListeners = new Set<() => void>();

export function loadSonner(): Promise<typeof import('sonner')> {
  if (!sonner) {
    // A failed fetch (the visitor went offline) is tried again by the next toast.
    sonner = import('sonner').catch((error: unknown) => {
      sonner = undefined;
      throw error;
    });
    for (const listener of sonnerListeners) listener();
  }
  return sonner;
}

export const sonnerRequested = () => sonner !== undefined;

export function onSonnerRequested(listener: () => void): () => void {
  sonnerListeners.add(listener);
  return () => sonnerListeners.delete(listener);
}

export function withToast(show: (toast: typeof sonnerToast) => void): void {
  loadSonner().then(
    ({ toast }) => show(toast),
    () => undefined,
  );
}

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
  withToast((toast) => toast.success(message, { duration }));
}

/** A neutral note: neither a success nor a failure. */
export function notifyInfo(message: string): void {
  withToast((toast) => toast.info(message, { duration: TOAST_DURATION.default }));
}

/** An error toast whose title is the message; `cause` picks the duration. */
export function notifyError(message: string, cause?: unknown): void {
  withToast((toast) => toast.error(message, { duration: errorToastDuration(cause) }));
}

/** A screen's fixed failure title ('Failed to update profile'), with the server's reason underneath when there is one. */
export function notifyFailure(title: string, cause: unknown): void {
  const description = cause instanceof ApiError && cause.message !== title ? cause.message : undefined;
  withToast((toast) => toast.error(title, { description, duration: errorToastDuration(cause) }));
}
