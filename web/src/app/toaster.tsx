import { Toaster as SonnerToaster } from 'sonner';
// Sonner's rules as a file of ours: its own run-time <style> is dropped at build (vite.config.ts).
import 'sonner/dist/styles.css';
import { useTheme } from '../shared/theme/theme-provider';
import { MAX_VISIBLE_TOASTS, TOAST_DURATION } from '../shared/toast/notify';

/** Where toasts show (spec section 9); loaded apart from the page's first script (app.tsx). */
export function Toaster() {
  const { theme } = useTheme();
  return (
    <SonnerToaster
      position="top-right"
      // Below the 64 px top bar, so a toast never hides the account menu.
      offset={{ top: 76, right: 16 }}
      visibleToasts={MAX_VISIBLE_TOASTS}
      duration={TOAST_DURATION.default}
      theme={theme}
      richColors
      closeButton
    />
  );
}
