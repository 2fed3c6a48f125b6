import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import farsiMessages from 'ra-language-farsi';
import type { TranslationMessages } from 'react-admin';
import { en } from '../i18n/en';
import { fa } from '../i18n/fa';

export type ConsoleLocale = 'en' | 'fa';

type Catalogue = { [key: string]: string | Catalogue };

/** Deep merge, later catalogues winning: a key missing in one language falls back to the one before. */
function merge(...catalogues: object[]): Catalogue {
  const result: Catalogue = {};
  for (const catalogue of catalogues) {
    for (const [key, value] of Object.entries(catalogue) as [string, string | Catalogue][]) {
      const previous = result[key];
      result[key] = typeof value === 'object' && typeof previous === 'object' ? merge(previous, value) : value;
    }
  }
  return result;
}

const english = merge(englishMessages, en) as TranslationMessages;
// English underneath, so a react-admin key newer than ra-language-farsi still reads as English, not as a key.
const persian = merge(englishMessages, farsiMessages, fa) as TranslationMessages;

/** English (default) and Persian; Persian also turns the console right to left (see app/direction.tsx). */
export const i18nProvider = polyglotI18nProvider((locale) => (locale === 'fa' ? persian : english), 'en', [
  { locale: 'en', name: en.meshwork.locale.en },
  { locale: 'fa', name: en.meshwork.locale.fa },
]);
