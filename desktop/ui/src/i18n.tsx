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
  network: 'Network',
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
  deviceHostsNetwork: 'This device hosts “{name}”.',
  deviceInNetwork: 'This device is a client of “{name}”.',
  openNetwork: 'Open Network',
  trustSource: { release: 'Keys: from this app’s release', 'first-sign-in': 'Keys: pinned at first sign-in (run from source)' },
  trustProblem: 'The plan cannot be trusted now: {problem}',
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
  timeLeft: '{time} left',
  activity: {
    waiting: 'Waiting for the download before it',
    verifying: 'Checking the part downloaded before',
    downloading: 'Downloading',
    installing: 'Installing',
  },
  stalled: 'Waiting for data',
  networkLead:
    'A network runs one model across several of your machines on this LAN: each runs some of the model’s blocks, and together they answer as one.',
  createNetwork: 'Create a network',
  createNetworkLead: 'This device hosts it; your other machines join it with a code it shows.',
  networkName: 'Network name',
  createNetworkButton: 'Create network',
  needInstalledModel: 'A network runs a model installed on this device: download one first.',
  goToModels: 'Go to Models',
  joinNetwork: 'Join a network on this LAN',
  joinLead: 'Enter the code its host shows under Network.',
  lookingForNetworks: 'Looking for your networks on this LAN…',
  hostedBy: 'hosted by {host} at {address}',
  hostCertificate: 'Host’s certificate',
  knownHost: 'Verified: the host Meshwork names for this network (or the one this device joined before)',
  unknownHost: 'Not verified yet: join only if this certificate is the one the host’s window shows under Network.',
  joinCode: 'Join code',
  join: 'Join',
  networkStatus: { active: 'Active', suspended: 'Suspended' },
  youHost: 'Hosts this network',
  youAreClient: 'Is a client of this network',
  connectedToHost: 'Connected to the host',
  notConnectedToHost: 'Not connected to the host',
  /** Why the network does not run the model now: the runtime's codes (HostNetworkMessage), with the values they name. */
  networkMessage: {
    awaiting_confirmation: 'Waiting for Meshwork to confirm this network.',
    suspended: 'This network is suspended: your plan allows fewer networks, or no longer includes its model.',
    not_serving: '{reason}',
    model_missing: 'Download {model} on this device to run the network.',
    host_refused: '{message}',
    host_unreachable: 'The network’s host cannot be reached: {error}',
    host_offline: 'The network’s host is offline: {error}',
  },
  joinCodeLead: 'On the machine that joins, enter this code under Network.',
  codeExpiresIn: 'Expires in {left}',
  codeExpired: 'This code has expired: make a new one.',
  noJoinCode: 'No join code at the moment: make one to add a machine.',
  newCode: 'New code',
  clientCount: '{count} of {max} clients',
  clientCountUnlimited: 'Clients: {count} (no limit)',
  devices: 'Devices',
  memberDevice: 'Device',
  memberRoleHeading: 'Role',
  memberRole: { host: 'Host', client: 'Client' },
  memberConnection: 'Connection',
  memberBlocks: 'Blocks',
  freeMemory: 'Free memory',
  memberSpeed: 'Speed',
  actions: 'Actions',
  thisDeviceMark: '(this device)',
  blocksNone: 'none',
  blocksOne: 'Block {list}',
  blocksMany: 'Blocks {list}',
  listSeparator: ', ',
  notMeasured: 'not measured',
  removeMember: 'Remove {name}',
  confirmRemoveMember: 'Remove “{name}” from the network? It stops running its part of the model at once.',
  stopHosting: 'Stop hosting',
  confirmStopHosting:
    'Stop hosting “{name}”? Its clients disconnect and the model stops running across your machines. The network stays on your account.',
  leaveNetwork: 'Leave network',
  confirmLeave: 'Leave “{name}”? This device stops running its part of the model.',
  chatLead: 'Talk to a model on this device. Nothing leaves your network.',
  model: 'Model',
  temperature: 'Temperature',
  maxTokens: 'Max tokens',
  temperatureHint: '0 gives the same answer every time; higher varies the wording.',
  maxTokensHint: 'The answer stops after this many tokens.',
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
  network: 'شبکه',
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
  deviceHostsNetwork: 'این دستگاه میزبان «{name}» است.',
  deviceInNetwork: 'این دستگاه کارخواه «{name}» است.',
  openNetwork: 'باز کردن بخش شبکه',
  trustSource: { release: 'کلیدها: از نسخهٔ انتشاریافتهٔ این برنامه', 'first-sign-in': 'کلیدها: ثبت‌شده در نخستین ورود (اجرا از کد منبع)' },
  trustProblem: 'اکنون نمی‌توان به طرح اعتماد کرد: {problem}',
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
  timeLeft: '{time} مانده',
  activity: {
    waiting: 'در انتظار پایان دریافت قبلی',
    verifying: 'بررسی بخشی که پیش‌تر دریافت شده',
    downloading: 'در حال دریافت',
    installing: 'در حال نصب',
  },
  stalled: 'در انتظار داده',
  networkLead:
    'شبکه یک مدل را روی چند دستگاه شما در همین شبکهٔ محلی اجرا می‌کند: هر دستگاه بخشی از بلوک‌های مدل را اجرا می‌کند و همه با هم مانند یک دستگاه پاسخ می‌دهند.',
  createNetwork: 'ساختن شبکهٔ تازه',
  createNetworkLead: 'این دستگاه میزبان آن می‌شود و دستگاه‌های دیگرتان با کدی که نشان می‌دهد به آن می‌پیوندند.',
  networkName: 'نام شبکه',
  createNetworkButton: 'ساخت شبکه',
  needInstalledModel: 'شبکه مدلی را اجرا می‌کند که روی این دستگاه نصب شده است: ابتدا یک مدل دریافت کنید.',
  goToModels: 'رفتن به مدل‌ها',
  joinNetwork: 'پیوستن به شبکه‌ای در این شبکهٔ محلی',
  joinLead: 'کدی را که میزبانش در بخش «شبکه» نشان می‌دهد وارد کنید.',
  lookingForNetworks: 'در حال جست‌وجوی شبکه‌های شما در این شبکهٔ محلی…',
  hostedBy: 'به میزبانی {host} در {address}',
  hostCertificate: 'گواهی میزبان',
  knownHost: 'تأییدشده: میزبانی که مش‌ورک برای این شبکه نام می‌برد (یا میزبانی که این دستگاه پیش‌تر به آن پیوسته است)',
  unknownHost: 'هنوز تأیید نشده است: فقط اگر این گواهی همانی است که پنجرهٔ میزبان در بخش «شبکه» نشان می‌دهد بپیوندید.',
  joinCode: 'کد پیوستن',
  join: 'پیوستن',
  networkStatus: { active: 'فعال', suspended: 'معلق' },
  youHost: 'میزبان این شبکه است',
  youAreClient: 'کارخواه این شبکه است',
  connectedToHost: 'به میزبان وصل است',
  notConnectedToHost: 'به میزبان وصل نیست',
  networkMessage: {
    awaiting_confirmation: 'در انتظار تأیید این شبکه از سوی مش‌ورک.',
    suspended: 'این شبکه معلق است: طرح شما شبکه‌های کمتری را مجاز می‌داند، یا دیگر مدل آن را در بر ندارد.',
    not_serving: 'مدل‌ها ارائه نمی‌شوند: {reason}',
    model_missing: 'برای اجرای شبکه، {model} را روی این دستگاه دریافت کنید.',
    host_refused: 'میزبان شبکه این دستگاه را نپذیرفت: {message}',
    host_unreachable: 'دسترسی به میزبان شبکه ممکن نیست: {error}',
    host_offline: 'میزبان شبکه برون‌خط است: {error}',
  },
  joinCodeLead: 'در دستگاهی که می‌پیوندد، این کد را در بخش «شبکه» وارد کنید.',
  codeExpiresIn: '{left} تا انقضا',
  codeExpired: 'این کد منقضی شده است: کد تازه‌ای بسازید.',
  noJoinCode: 'اکنون کد پیوستنی نیست: برای افزودن دستگاه، کدی بسازید.',
  newCode: 'کد تازه',
  clientCount: '{count} از {max} کارخواه',
  clientCountUnlimited: 'کارخواه‌ها: {count} (بی‌محدودیت)',
  devices: 'دستگاه‌ها',
  memberDevice: 'دستگاه',
  memberRoleHeading: 'نقش',
  memberRole: { host: 'میزبان', client: 'کارخواه' },
  memberConnection: 'اتصال',
  memberBlocks: 'بلوک‌ها',
  freeMemory: 'حافظهٔ آزاد',
  memberSpeed: 'سرعت',
  actions: 'کارها',
  thisDeviceMark: '(این دستگاه)',
  blocksNone: 'هیچ',
  blocksOne: 'بلوک {list}',
  blocksMany: 'بلوک‌های {list}',
  listSeparator: '، ',
  notMeasured: 'سنجیده نشده',
  removeMember: 'حذف {name}',
  confirmRemoveMember: '«{name}» از شبکه حذف شود؟ بی‌درنگ اجرای بخش خود از مدل را متوقف می‌کند.',
  stopHosting: 'توقف میزبانی',
  confirmStopHosting:
    'میزبانی «{name}» متوقف شود؟ کارخواه‌هایش قطع می‌شوند و مدل دیگر روی دستگاه‌هایتان اجرا نمی‌شود. شبکه در حساب شما می‌ماند.',
  leaveNetwork: 'ترک شبکه',
  confirmLeave: '«{name}» را ترک می‌کنید؟ این دستگاه اجرای بخش خود از مدل را متوقف می‌کند.',
  chatLead: 'با مدلی روی این دستگاه گفتگو کنید. چیزی از شبکهٔ شما بیرون نمی‌رود.',
  model: 'مدل',
  temperature: 'دما',
  maxTokens: 'بیشینهٔ توکن‌ها',
  temperatureHint: 'با ۰ پاسخ هر بار یکی است؛ بیشتر، عبارت‌ها را گوناگون می‌کند.',
  maxTokensHint: 'پاسخ پس از این شمار توکن می‌ایستد.',
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
