import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { applyTheme, oppositeTheme, readSavedTheme, resolveTheme, saveTheme, type Theme } from './theme';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function browserStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

interface ThemeState {
  theme: Theme;
  toggle: () => void;
}

const ThemeContext = createContext<ThemeState | null>(null);

/** Holds the theme for the toggle and the toasts. Until the user chooses, the system preference is followed live. */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const [theme, setTheme] = useState<Theme>(() => resolveTheme(readSavedTheme(browserStorage()), window.matchMedia(DARK_QUERY).matches));

  useEffect(() => applyTheme(theme, document.documentElement), [theme]);

  useEffect(() => {
    const media = window.matchMedia(DARK_QUERY);
    const follow = (event: MediaQueryListEvent) => {
      if (readSavedTheme(browserStorage()) === null) setTheme(event.matches ? 'dark' : 'light');
    };
    media.addEventListener('change', follow);
    return () => media.removeEventListener('change', follow);
  }, []);

  const toggle = useCallback(() => {
    const next = oppositeTheme(theme);
    saveTheme(browserStorage(), next);
    setTheme(next);
  }, [theme]);

  const value = useMemo(() => ({ theme, toggle }), [theme, toggle]);
  return <ThemeContext value={value}>{children}</ThemeContext>;
}

export function useTheme(): ThemeState {
  const state = useContext(ThemeContext);
  if (!state) throw new Error('useTheme needs a ThemeProvider above it');
  return state;
}
