import createCache, { type EmotionCache } from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { type ReactNode, use, useEffect, useSyncExternalStore } from 'react';
import type { Store } from 'react-admin';
import { cspNonce } from './csp-nonce';

export type Direction = 'ltr' | 'rtl';

// The nonce lets emotion's <style> elements past the console's Content-Security-Policy.
const ltrCache = createCache({ key: 'mui', nonce: cspNonce });

// MUI flips its styles for right-to-left only when emotion runs them through the RTL plugin,
// which loads the first time a right-to-left locale is chosen (left-to-right readers never need it).
let rtlCache: Promise<EmotionCache> | undefined;
const rtlCacheOnce = () =>
  (rtlCache ??= Promise.all([import('@mui/stylis-plugin-rtl'), import('stylis')]).then(([{ default: rtlPlugin }, { prefixer }]) =>
    createCache({ key: 'muirtl', nonce: cspNonce, stylisPlugins: [prefixer, rtlPlugin] }),
  ));

const RTL_LOCALES = new Set(['fa']);

/** The locale chosen in the app bar, read from react-admin's store outside <Admin>. */
export function useStoredLocale(store: Store, fallback: string): string {
  return useSyncExternalStore(
    (onChange) => store.subscribe('locale', onChange),
    () => store.getItem<string>('locale', fallback) ?? fallback,
  );
}

export function directionOf(locale: string): Direction {
  return RTL_LOCALES.has(locale) ? 'rtl' : 'ltr';
}

/**
 * Persian reads right to left: the document gets `dir` and `lang`, and every MUI style is
 * flipped. The MUI theme's `direction` is set by the caller (see app.tsx).
 */
export function DirectionProvider({ locale, children }: { locale: string; children: ReactNode }) {
  const direction = directionOf(locale);
  useEffect(() => {
    document.documentElement.dir = direction;
    document.documentElement.lang = locale;
  }, [direction, locale]);
  const cache = direction === 'rtl' ? use(rtlCacheOnce()) : ltrCache;
  return <CacheProvider value={cache}>{children}</CacheProvider>;
}
