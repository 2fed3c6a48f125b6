import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import type { TranslationMessages } from 'react-admin';
import { en } from '../i18n/en';
import { mergeCatalogues } from './catalogue';

export type ConsoleLocale = 'en' | 'fa';

const english = mergeCatalogues(englishMessages, en) as TranslationMessages;

/**
 * English (default) and Persian; Persian also turns the console right to left (see
 * app/direction.tsx). Persian's catalogue loads when it is first chosen, so English readers
 * never download it; react-admin shows its loading state meanwhile.
 */
export const i18nProvider = polyglotI18nProvider(
  (locale) => (locale === 'fa' ? import('./persian-messages').then((m) => m.persian) : english),
  'en',
  [
    { locale: 'en', name: en.meshwork.locale.en },
    { locale: 'fa', name: en.meshwork.locale.fa },
  ],
);
