import { describe, expect, it } from 'vitest';
import { applyTheme, readSavedTheme, resolveTheme, saveTheme, THEME_STORAGE_KEY, type ThemeRoot } from './theme';

function fakeRoot(): ThemeRoot & { classes: Set<string> } {
  const classes = new Set<string>();
  return {
    classes,
    style: { colorScheme: '' },
    classList: {
      toggle(token, force) {
        const on = force ?? !classes.has(token);
        if (on) classes.add(token);
        else classes.delete(token);
        return on;
      },
    },
  };
}

function fakeStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    values,
  };
}

describe('resolveTheme', () => {
  it('uses a saved choice over the system preference', () => {
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });

  it('follows the system preference when nothing valid is saved', () => {
    expect(resolveTheme(null, true)).toBe('dark');
    expect(resolveTheme(null, false)).toBe('light');
    expect(resolveTheme('sepia', true)).toBe('dark');
  });
});

describe('applyTheme', () => {
  it('puts the dark class on the root for dark and takes it off for light', () => {
    const root = fakeRoot();
    applyTheme('dark', root);
    expect(root.classes.has('dark')).toBe(true);
    expect(root.style.colorScheme).toBe('dark');
    applyTheme('light', root);
    expect(root.classes.has('dark')).toBe(false);
    expect(root.style.colorScheme).toBe('light');
  });
});

describe('saved theme', () => {
  it('is stored under the key "theme" and read back', () => {
    const storage = fakeStorage();
    saveTheme(storage, 'dark');
    expect(storage.values.get(THEME_STORAGE_KEY)).toBe('dark');
    expect(readSavedTheme(storage)).toBe('dark');
  });

  it('reads as nothing when storage is missing or throws', () => {
    expect(readSavedTheme(null)).toBeNull();
    const blocked = {
      getItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(readSavedTheme(blocked)).toBeNull();
  });
});
