import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { bytesIn, en, fa, type Messages } from './messages';

export { fill, type Messages } from './messages';

export const LANGUAGES = { en: { name: 'English', dir: 'ltr' }, fa: { name: 'فارسی', dir: 'rtl' } } as const;
export type Language = keyof typeof LANGUAGES;
const MESSAGES: Record<Language, Messages> = { en, fa };
const STORAGE_KEY = 'meshwork-host-language';

interface I18n {
  language: Language;
  t: Messages;
  setLanguage(language: Language): void;
  /** Numbers, sizes and times in the language's own digits and forms. */
  number(value: number, options?: Intl.NumberFormatOptions): string;
  bytes(value: number): string;
  duration(seconds: number): string;
  time(iso: string): string;
}

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ children }: { children: ReactNode }) {
  const [language, setLanguage] = useState<Language>(() => {
    const saved = localStorage.getItem(STORAGE_KEY);
    return saved === 'fa' || saved === 'en' ? saved : 'en';
  });
  useEffect(() => {
    localStorage.setItem(STORAGE_KEY, language);
    document.documentElement.lang = language;
    document.documentElement.dir = LANGUAGES[language].dir;
  }, [language]);
  const value = useMemo<I18n>(() => {
    const locale = language === 'fa' ? 'fa-IR' : 'en-US';
    const number = (value: number, options?: Intl.NumberFormatOptions) => new Intl.NumberFormat(locale, options).format(value);
    return {
      language,
      t: MESSAGES[language],
      setLanguage,
      number,
      bytes: bytesIn(locale),
      duration(seconds) {
        const days = Math.floor(seconds / 86_400);
        const hours = Math.floor((seconds % 86_400) / 3600);
        const minutes = Math.max(1, Math.floor((seconds % 3600) / 60));
        const part = (value: number, unit: string) => number(value, { style: 'unit', unit, unitDisplay: 'long' });
        if (seconds < 60) return part(Math.max(1, Math.ceil(seconds)), 'second');
        if (days > 0) return `${part(days, 'day')} ${part(hours, 'hour')}`;
        if (hours > 0) return `${part(hours, 'hour')} ${part(minutes, 'minute')}`;
        return part(minutes, 'minute');
      },
      time: (iso) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)),
    };
  }, [language]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}
