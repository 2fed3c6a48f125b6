import { createContext, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { applyTheme, oppositeTheme, readSavedTheme, resolveTheme, saveTheme, type Theme } from './theme';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function browserStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * The theme the page shows, as an external store: public/theme.js applied it before the first
 * paint, the toggle and (until the user chooses) the system preference change it. A prerendered
 * page was rendered without a browser, as light: hydration starts from that and React moves to
 * this browser's theme straight after, so the markup always matches what the server sent.
 */
const themeStore = (() => {
  const listeners = new Set<() => void>();
  // A choice made where storage is blocked lasts for this page.
  let chosen: Theme | null = null;
  // One query for the page's life: React reads `current` on every render that touches the theme.
  let darkQuery: MediaQueryList | undefined;
  const systemDark = () => (darkQuery ??= window.matchMedia(DARK_QUERY));
  const current = (): Theme => chosen ?? resolveTheme(readSavedTheme(browserStorage()), systemDark().matches);
  const changed = () => {
    applyTheme(current(), document.documentElement);
    for (const listener of listeners) listener();
  };
  return {
    current,
    subscribe(listener: () => void) {
      listeners.add(listener);
      if (listeners.size === 1) systemDark().addEventListener('change', changed);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) systemDark().removeEventListener('change', changed);
      };
    },
    toggle() {
      chosen = oppositeTheme(current());
      saveTheme(browserStorage(), chosen);
      changed();
    },
  };
})();

const renderedWithoutBrowser = (): Theme => 'light';

interface ThemeState {
  theme: Theme;
  toggle: () => void;
}

const ThemeContext = createContext<ThemeState | null>(null);

/** Holds the theme for the toggle and the toasts. Until the user chooses, the system preference is followed live. */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const theme = useSyncExternalStore(themeStore.subscribe, themeStore.current, renderedWithoutBrowser);
  // theme.js cannot apply it where storage is blocked: the app does, once it starts.
  useEffect(() => applyTheme(themeStore.current(), document.documentElement), []);
  const value = useMemo(() => ({ theme, toggle: themeStore.toggle }), [theme]);
  return <ThemeContext value={value}>{children}</ThemeContext>;
}

export function useTheme(): ThemeState {
  const state = useContext(ThemeContext);
  if (!state) throw new Error('useTheme needs a ThemeProvider above it');
  return state;
}
