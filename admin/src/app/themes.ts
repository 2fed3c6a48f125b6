import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';
import type { Direction } from './direction';
import { LinkBehavior } from './link-behavior';

// Roboto has no Persian letters: name fonts that do before the generic fallback.
const fontFamily = ['Roboto', 'Vazirmatn', 'Tahoma', '"DejaVu Sans"', 'Arial', 'sans-serif'].join(', ');

/** react-admin's theme in the locale's reading direction, its link buttons routed (see link-behavior.tsx). */
function consoleTheme(base: RaThemeOptions, direction: Direction): RaThemeOptions {
  return {
    ...base,
    direction,
    typography: { ...base.typography, fontFamily },
    components: { ...base.components, MuiButtonBase: { ...base.components?.MuiButtonBase, defaultProps: { LinkComponent: LinkBehavior } } },
  };
}

/** react-admin's default light and dark themes, turned to the reading direction of the locale. */
export function consoleThemes(direction: Direction): { light: RaThemeOptions; dark: RaThemeOptions } {
  return { light: consoleTheme(defaultLightTheme, direction), dark: consoleTheme(defaultDarkTheme, direction) };
}
