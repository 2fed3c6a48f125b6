import { useLocaleState } from 'react-admin';

/** The Intl locale of the console's language: Persian digits in Persian, en-US otherwise (spec section 9). */
export function useIntlLocale(): string {
  const [locale] = useLocaleState();
  return locale === 'fa' ? 'fa-IR' : 'en-US';
}

/** "$29.00", or its Persian rendering. */
export function formatMoney(amount: number | string, currency: string, intlLocale: string): string {
  return new Intl.NumberFormat(intlLocale, { style: 'currency', currency }).format(Number(amount));
}
