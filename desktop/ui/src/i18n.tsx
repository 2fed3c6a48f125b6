import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';

const en = {
  appName: 'Meshwork',
  loading: 'Connecting to the Meshwork host…',
  lostHost: 'The Meshwork host is not answering. It may have stopped; start it again and reopen this window.',
  signInTitle: 'Sign in to Meshwork',
  signInLead: 'Sign in with the account that holds your plan. This device then gets your plan’s models.',
  signInWithBrowser: 'Sign in with your browser',
  enterCode: 'Enter this code on the Meshwork site:',
  openActivate: 'Open the activation page',
  codeExpires: 'The code expires at {time}.',
  cancel: 'Cancel',
  orPassword: 'Or sign in with your email and password',
  email: 'Email',
  password: 'Password',
  signIn: 'Sign in',
  signingIn: 'Signing in…',
  overview: 'Overview',
  models: 'Models',
  chat: 'Chat',
  apiKeys: 'API keys',
  settings: 'Settings',
  plan: 'Plan',
  online: 'Online',
  connecting: 'Connecting…',
  offline: 'Offline',
  device: 'This device',
  entitlementValid: 'Your plan is active on this device.',
  entitlementInGrace: 'Meshwork has not been reached for a while: models keep running for {left}. Connect to the internet to renew.',
  entitlementValidOffline: 'Offline: models keep running for {left} without a connection.',
  servingStopped: 'Models are not being served',
  networks: 'Networks',
  noNetworks: 'This device is in no network yet.',
  networkRole: { host: 'host', client: 'client' },
  networkSuspended: 'suspended',
  clientsAllowed: 'up to {count} clients',
  unlimitedClients: 'unlimited clients',
  planModels: 'Models in your plan',
  noModels: 'Your plan includes no models yet.',
  status: {
    'not-downloaded': 'Not downloaded',
    queued: 'Queued',
    downloading: 'Downloading',
    installed: 'Installed',
    failed: 'Failed',
  },
  download: 'Download',
  retry: 'Try again',
  remove: 'Remove',
  notInPlan: 'No longer in your plan: remove it to free the space.',
  progress: '{done} of {total}',
  speed: '{rate}/s',
  chatLead: 'Talk to a model on this device. Nothing leaves your network.',
  model: 'Model',
  temperature: 'Temperature',
  noChatModel: 'Download a model under Models to chat with it.',
  message: 'Message',
  send: 'Send',
  stop: 'Stop',
  newChat: 'New chat',
  you: 'You',
  assistant: 'Assistant',
  apiKeysLead: 'Programs on your network call this host as they would call OpenAI, with one of these keys.',
  baseUrl: 'Base URL',
  keyName: 'Name',
  createKey: 'Create key',
  keyCreated: 'Copy this key now: it is not shown again.',
  copy: 'Copy',
  copied: 'Copied',
  noKeys: 'No keys yet.',
  created: 'Created',
  revoke: 'Revoke',
  confirmRevoke: 'Revoke the key “{name}”? Programs using it stop working at once.',
  language: 'Language',
  startAtLogin: 'Start Meshwork when I log in',
  account: 'Account',
  signedInAs: 'Signed in as the device “{name}” at {api}.',
  signOut: 'Sign out',
  version: 'Version {version}',
} as const;

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
export type Messages = Widen<typeof en>;

const fa: Messages = {
  appName: 'مش‌ورک',
  loading: 'در حال اتصال به میزبان مش‌ورک…',
  lostHost: 'میزبان مش‌ورک پاسخ نمی‌دهد. شاید متوقف شده است؛ دوباره اجرایش کنید و این پنجره را باز کنید.',
  signInTitle: 'ورود به مش‌ورک',
  signInLead: 'با حسابی که طرح شما در آن است وارد شوید. سپس مدل‌های طرح شما روی این دستگاه می‌آیند.',
  signInWithBrowser: 'ورود با مرورگر',
  enterCode: 'این کد را در سایت مش‌ورک وارد کنید:',
  openActivate: 'باز کردن صفحهٔ فعال‌سازی',
  codeExpires: 'این کد در {time} منقضی می‌شود.',
  cancel: 'انصراف',
  orPassword: 'یا با ایمیل و گذرواژه وارد شوید',
  email: 'ایمیل',
  password: 'گذرواژه',
  signIn: 'ورود',
  signingIn: 'در حال ورود…',
  overview: 'نمای کلی',
  models: 'مدل‌ها',
  chat: 'گفتگو',
  apiKeys: 'کلیدهای API',
  settings: 'تنظیمات',
  plan: 'طرح',
  online: 'برخط',
  connecting: 'در حال اتصال…',
  offline: 'برون‌خط',
  device: 'این دستگاه',
  entitlementValid: 'طرح شما روی این دستگاه فعال است.',
  entitlementInGrace: 'مدتی است به مش‌ورک دسترسی نبوده است: مدل‌ها تا {left} دیگر کار می‌کنند. برای تمدید به اینترنت وصل شوید.',
  entitlementValidOffline: 'برون‌خط: مدل‌ها بدون اتصال تا {left} دیگر کار می‌کنند.',
  servingStopped: 'مدل‌ها ارائه نمی‌شوند',
  networks: 'شبکه‌ها',
  noNetworks: 'این دستگاه هنوز در هیچ شبکه‌ای نیست.',
  networkRole: { host: 'میزبان', client: 'کارخواه' },
  networkSuspended: 'معلق',
  clientsAllowed: 'تا {count} کارخواه',
  unlimitedClients: 'کارخواه نامحدود',
  planModels: 'مدل‌های طرح شما',
  noModels: 'طرح شما هنوز مدلی ندارد.',
  status: {
    'not-downloaded': 'دریافت نشده',
    queued: 'در صف',
    downloading: 'در حال دریافت',
    installed: 'نصب شده',
    failed: 'ناموفق',
  },
  download: 'دریافت',
  retry: 'تلاش دوباره',
  remove: 'حذف',
  notInPlan: 'دیگر در طرح شما نیست: برای آزاد کردن فضا حذفش کنید.',
  progress: '{done} از {total}',
  speed: '{rate}/ثانیه',
  chatLead: 'با مدلی روی این دستگاه گفتگو کنید. چیزی از شبکهٔ شما بیرون نمی‌رود.',
  model: 'مدل',
  temperature: 'دما',
  noChatModel: 'برای گفتگو، ابتدا در بخش مدل‌ها مدلی دریافت کنید.',
  message: 'پیام',
  send: 'ارسال',
  stop: 'توقف',
  newChat: 'گفتگوی تازه',
  you: 'شما',
  assistant: 'دستیار',
  apiKeysLead: 'برنامه‌های شبکهٔ شما این میزبان را مانند OpenAI و با یکی از این کلیدها فرا می‌خوانند.',
  baseUrl: 'نشانی پایه',
  keyName: 'نام',
  createKey: 'ساخت کلید',
  keyCreated: 'همین حالا این کلید را رونوشت کنید: دیگر نشان داده نمی‌شود.',
  copy: 'رونوشت',
  copied: 'رونوشت شد',
  noKeys: 'هنوز کلیدی نیست.',
  created: 'ساخته شده',
  revoke: 'باطل کردن',
  confirmRevoke: 'کلید «{name}» باطل شود؟ برنامه‌هایی که از آن استفاده می‌کنند بی‌درنگ از کار می‌افتند.',
  language: 'زبان',
  startAtLogin: 'اجرای مش‌ورک هنگام ورود به سیستم',
  account: 'حساب',
  signedInAs: 'با دستگاه «{name}» در {api} وارد شده‌اید.',
  signOut: 'خروج',
  version: 'نسخهٔ {version}',
};

export const LANGUAGES = { en: { name: 'English', dir: 'ltr' }, fa: { name: 'فارسی', dir: 'rtl' } } as const;
export type Language = keyof typeof LANGUAGES;
const MESSAGES: Record<Language, Messages> = { en, fa };
const STORAGE_KEY = 'meshwork-host-language';

/** `{name}` placeholders filled in. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => String(values[key] ?? whole));
}

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
      bytes(value) {
        const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
        const step = Math.min(units.length - 1, Math.floor(Math.log(Math.max(value, 1)) / Math.log(1024)));
        return number(value / 1024 ** step, { style: 'unit', unit: units[step], unitDisplay: 'short', maximumFractionDigits: 1 });
      },
      duration(seconds) {
        const days = Math.floor(seconds / 86_400);
        const hours = Math.floor((seconds % 86_400) / 3600);
        const minutes = Math.max(1, Math.floor((seconds % 3600) / 60));
        const part = (value: number, unit: string) => number(value, { style: 'unit', unit, unitDisplay: 'long' });
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
