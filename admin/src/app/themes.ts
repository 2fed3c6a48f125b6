import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';
import type { Direction } from './direction';

// Roboto has no Persian letters: name fonts that do before the generic fallback.
const fontFamily = ['Roboto', 'Vazirmatn', 'Tahoma', '"DejaVu Sans"', 'Arial', 'sans-serif'].join(', ');

/** react-admin's default light and dark themes, turned to the reading direction of the locale. */
export function consoleThemes(direction: Direction): { light: RaThemeOptions; dark: RaThemeOptions } {
  return {
    light: { ...defaultLightTheme, direction, typography: { ...defaultLightTheme.typography, fontFamily } },
    dark: { ...defaultDarkTheme, direction, typography: { ...defaultDarkTheme.typography, fontFamily } },
  };
}
