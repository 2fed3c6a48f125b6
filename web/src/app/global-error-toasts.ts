import { TOAST_DURATION, withToast } from '../shared/toast/notify';

const MESSAGE = 'Something went wrong. Please refresh the page and try again.';

/** Spec section 8: an error no screen handled still tells the user something, once rather than per error. */
export function installGlobalErrorToasts(target: Window = window): void {
  const show = () => withToast((toast) => toast.error(MESSAGE, { id: 'unhandled-error', duration: TOAST_DURATION.error }));
  target.addEventListener('error', show);
  target.addEventListener('unhandledrejection', show);
}
