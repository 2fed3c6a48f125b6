/** Spec section 4, theme: the saved choice, else the system preference; dark is a class on the root. */
export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'theme';
export const DARK_CLASS = 'dark';

/** The theme to show: a valid saved value wins, otherwise the operating system's preference. */
export function resolveTheme(saved: string | null | undefined, systemPrefersDark: boolean): Theme {
  if (saved === 'light' || saved === 'dark') return saved;
  return systemPrefersDark ? 'dark' : 'light';
}

export function oppositeTheme(theme: Theme): Theme {
  return theme === 'dark' ? 'light' : 'dark';
}

/** The parts of a root element the theme touches (an HTMLElement in the browser). */
export interface ThemeRoot {
  classList: { toggle(token: string, force?: boolean): boolean };
  style: { colorScheme: string };
}

/** Sets or removes the `dark` class, and tells the browser which scrollbars and form controls to draw. */
export function applyTheme(theme: Theme, root: ThemeRoot): void {
  root.classList.toggle(DARK_CLASS, theme === 'dark');
  root.style.colorScheme = theme;
}

/** The saved choice, or null when there is none or storage is unavailable. */
export function readSavedTheme(storage: Pick<Storage, 'getItem'> | null): string | null {
  try {
    return storage?.getItem(THEME_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

export function saveTheme(storage: Pick<Storage, 'setItem'> | null, theme: Theme): void {
  try {
    storage?.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage blocked: the choice lasts for this page only.
  }
}
