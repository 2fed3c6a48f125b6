/*
 * The window's words in English and Persian, and the runtime's codes (HostState's messages)
 * worded with them. Plain TypeScript, no React, so the unit test reads the same tables.
 */
import type {
  HostLinkFailure,
  HostModelError,
  HostNetworkMessage,
  HostRefusalReason,
  HostServingReason,
  HostSignedOutMessage,
  HostTrustProblem,
  LanRefusal,
  LanRemoval,
} from '@meshwork/contracts';

export const en = {
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
  /**
   * Why the network does not run the model now: the runtime's codes (HostNetworkMessage), with
   * the values they name; `reason` and `error` are the serving reason's and the link failure's words.
   */
  /** Why a network's host refused this device (LanRefusal), in the window's words. */
  lanRefusal: {
    hosts_no_network: 'This device hosts no network.',
    hello_first: 'Say who you are first.',
    plan_unconfirmed: 'This device’s plan could not be confirmed: {detail}',
    other_account: 'Only devices of the same Meshwork account can join this network.',
    not_a_member: 'This device is not a member of the network: join it with the code.',
    awaiting_confirmation: 'Meshwork has not confirmed this network yet; try again in a moment.',
    suspended: 'This network is suspended.',
    code_overused: 'This join code was tried too many times: issue a new one on the host.',
    code_invalid: 'This join code is invalid or has expired.',
    client_limit: 'Your {plan} plan allows {max_clients} clients per network. Upgrade to add more.',
    client_limit_one: 'Your {plan} plan allows 1 client per network. Upgrade to add more.',
  },
  /** Why this device is no longer in a network it did not leave itself (LanRemoval): `leftNetwork` names the network. */
  leftNetwork: 'This device is no longer in “{name}”. {reason}',
  lanRemoval: {
    removed_by_host: 'The network’s host removed this device.',
    host_stopped: 'The host stopped hosting this network.',
    client_limit: 'Your plan now allows {max_clients} clients per network: this device was disconnected.',
    client_limit_one: 'Your plan now allows 1 client per network: this device was disconnected.',
    network_ended:
      'Meshwork took this device out of the network: it was deleted, this device was removed from it, or your plan now allows fewer clients.',
  },
  networkMessage: {
    awaiting_confirmation: 'Waiting for Meshwork to confirm this network.',
    suspended: 'This network is suspended: your plan allows fewer networks, or no longer includes its model.',
    not_serving: '{reason}',
    model_missing: 'Download {model} on this device to run the network.',
    memory_short:
      'The devices online cannot hold {model} together: they need {needed} more free memory. Add a device to the network, or free memory on these.',
    host_refused: '{reason}',
    host_unreachable: 'The network’s host cannot be reached: {error}',
    host_offline: 'The network’s host is offline: {error}',
  },
  /** Why models are not served now (HostServingReason); `untrusted` is the trust problem's words. */
  servingReason: {
    signed_out: 'Sign in to serve models.',
    untrusted: '{problem}',
    awaiting_plan: 'Waiting for this device’s plan from Meshwork.',
    plan_expired:
      'This device could not confirm its plan with Meshwork since {since} and its offline grace has ended. Models are served again as soon as it reconnects.',
  },
  /** Why the plan cannot be trusted now (HostTrustProblem); plan_unverifiable has one wording per advice. */
  trustProblems: {
    clock_went_back:
      "This computer's clock reads earlier than a time Meshwork already saw on it, so its plan cannot be trusted offline. Set the date and time right: models are served again once it reconnects to Meshwork.",
    plan_unverifiable: 'This device cannot verify its plan from Meshwork ({detail}), so it does not serve models.',
    plan_unverifiable_check_clock:
      "This device cannot verify its plan from Meshwork ({detail}), so it does not serve models. Check this computer's date and time.",
    plan_unverifiable_reinstall:
      'This device cannot verify its plan from Meshwork ({detail}), so it does not serve models. Install Meshwork again from your site to get its current keys.',
  },
  /** Why a LAN link to the host failed (HostLinkFailure). */
  linkFailure: {
    unreachable: '{detail}',
    connection_failed: "The device's connection failed: {detail}",
    disconnected: 'The device disconnected.',
    stopped_answering: 'The device stopped answering.',
    no_answer_within: 'The device did not answer within {seconds} s.',
    no_answer_in_time: 'The device did not answer in time.',
    closed: 'The link was closed.',
    frame_too_large: 'The device sent a frame over the limits.',
    broke_protocol: 'The device broke the protocol: {detail}',
    device_error: '{detail}',
    wrong_size: 'The device answered with the wrong size.',
    not_the_host: 'the device at that address is not this network’s host',
    not_welcomed: 'the host did not welcome this device',
  },
  /** Why a download failed (HostModelError). */
  modelError: {
    no_longer_in_plan: 'Your plan no longer includes the model "{model}".',
    manifest_mismatch: 'The catalog\'s manifest of "{model}" is not the one your plan names; try again later.',
    disk_filled: 'The disk filled up while {model} was downloading. Free some space and download it again: what came down is kept.',
    disk_too_small: 'Not enough free disk space for {model}: it needs {needed} and {free} is free.',
    download_failed: '{error}',
  },
  /** Why the device is signed out (HostSignedOutMessage). */
  signedOut: {
    code_expired: 'The code expired. Start the sign-in again.',
    sign_in_failed: '{error}',
    session_ended: 'Signed out: {reason}',
    no_longer_signed_in: 'This device is no longer signed in.',
    device_signed_out: 'This device was signed out from your account.',
  },
  /**
   * Why the host refused a command (HostRefusalReason); `detail` is the api's, the host device's
   * or the system's words, `failure` the link failure's words.
   */
  refusal: {
    sign_in_first: 'Sign in first.',
    sign_in_to_download: 'Sign in to download models.',
    not_in_plan: 'Your plan does not include the model "{model}".',
    model_store_failed: '{detail}',
    already_in_network: 'This device is already in a network: leave it first.',
    awaiting_plan: 'Waiting for this device’s plan from Meshwork.',
    only_host_issues_codes: 'Only the network’s host issues join codes.',
    only_host_removes: 'Only the network’s host removes devices.',
    not_a_member: 'That device is not in this network.',
    several_hosts_announce: 'Several devices announce this network: choose the one whose certificate its host’s window shows.',
    host_not_vouched:
      'The device at that address is not this network’s host: Meshwork names another certificate for it. Join the entry marked verified.',
    network_not_on_lan: 'This network is not on this LAN now. Enter its host’s address as its window shows it.',
    code_for_another_network: 'This code is for another network.',
    api_refused: '{detail}',
    host_unreachable_at: 'The network’s host cannot be reached at {address}: {failure}',
    not_the_host: 'The device at that address is not this network’s host.',
    host_did_not_answer: 'The host did not answer: {failure}',
    host_refused: '{reason}',
    wrong_code: 'This join code is wrong, or the device at that address is not this network’s host.',
    not_admitted: 'The host did not admit this device.',
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
  modelBlocks: 'The model’s blocks',
  modelBlocksLead: 'Which device runs each of the model’s {total} blocks.',
  blockOf: 'Block {block}: {names}',
  blockUnheld: 'Block {block}: no device',
  unheld: 'No device',
  stripLabel: '{name}: {blocks} of {total}',
  memory: 'Memory',
  /** A device's tokens a second through its blocks, now and over ten minutes (its host's timing). */
  memberActivity: 'Work',
  tokensPerSecond: '{rate} tokens/s now',
  activityHistory: 'last 10 minutes in 10-second averages, up to {peak} tokens/s',
  memoryWeights: 'Weights held',
  memoryFixed: 'Fixed part',
  memoryOther: 'Other use',
  memoryFree: 'Free',
  memoryMeasured: 'Measured: {rss} in use, {peak} at peak',
  memoryFreeOnly: '{free} free',
  /** Its measured memory over the same ten minutes as its work. */
  memoryHistory: 'Memory over the same 10 minutes: from {low} to {peak} in use',
  memoryHistorySteady: 'Memory over the same 10 minutes: {peak} in use',
  disk: 'Disk',
  diskUsed: '{bytes} used by the model',
  filesFrom: 'Where its files came from',
  fileSource: { lan: 'From the host over the LAN', platform: 'From Meshwork', installed: 'Installed whole' },
  filesOne: '{bytes} in 1 file',
  filesMany: '{bytes} in {count} files',
  fileList: 'Its files',
  holdsNothing: 'Holds none of the model yet.',
  receiving: 'Receiving its share: {done} of {total}',
  memoryShortTitle: 'Not enough memory for {model}',
  memoryShortNeeded: '{needed} more free memory needed',
  memoryShortAdvice:
    'Add a device with at least {needed} free to this network, or close programs on these devices to free memory. The model runs as soon as the devices online can hold it together.',
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

export const fa: Messages = {
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
  lanRefusal: {
    hosts_no_network: 'این دستگاه میزبان هیچ شبکه‌ای نیست.',
    hello_first: 'نخست خود را معرفی کنید.',
    plan_unconfirmed: 'طرح این دستگاه تأیید نشد: {detail}',
    other_account: 'تنها دستگاه‌های همان حساب مش‌ورک می‌توانند به این شبکه بپیوندند.',
    not_a_member: 'این دستگاه عضو شبکه نیست: با کد به آن بپیوندید.',
    awaiting_confirmation: 'مش‌ورک هنوز این شبکه را تأیید نکرده است؛ کمی بعد دوباره بکوشید.',
    suspended: 'این شبکه معلق است.',
    code_overused: 'این کد پیوستن بیش از اندازه آزموده شد: کد تازه‌ای روی میزبان بسازید.',
    code_invalid: 'این کد پیوستن نامعتبر است یا زمانش گذشته است.',
    client_limit: 'طرح {plan} شما در هر شبکه {max_clients} کارخواه را مجاز می‌داند. برای افزودن بیشتر، طرح را ارتقا دهید.',
    client_limit_one: 'طرح {plan} شما در هر شبکه 1 کارخواه را مجاز می‌داند. برای افزودن بیشتر، طرح را ارتقا دهید.',
  },
  leftNetwork: 'این دستگاه دیگر در «{name}» نیست. {reason}',
  lanRemoval: {
    removed_by_host: 'میزبان شبکه این دستگاه را حذف کرد.',
    host_stopped: 'میزبان، میزبانی این شبکه را پایان داد.',
    client_limit: 'طرح شما اکنون در هر شبکه {max_clients} کارخواه را مجاز می‌داند: اتصال این دستگاه قطع شد.',
    client_limit_one: 'طرح شما اکنون در هر شبکه 1 کارخواه را مجاز می‌داند: اتصال این دستگاه قطع شد.',
    network_ended:
      'مش‌ورک این دستگاه را از شبکه بیرون برد: شبکه حذف شد، این دستگاه از آن حذف شد، یا طرح شما اکنون کارخواه‌های کمتری را مجاز می‌داند.',
  },
  networkMessage: {
    awaiting_confirmation: 'در انتظار تأیید این شبکه از سوی مش‌ورک.',
    suspended: 'این شبکه معلق است: طرح شما شبکه‌های کمتری را مجاز می‌داند، یا دیگر مدل آن را در بر ندارد.',
    not_serving: 'مدل‌ها ارائه نمی‌شوند: {reason}',
    model_missing: 'برای اجرای شبکه، {model} را روی این دستگاه دریافت کنید.',
    memory_short:
      'دستگاه‌های برخط با هم جای {model} را ندارند: {needed} حافظهٔ آزاد بیشتر لازم است. دستگاهی به شبکه بیفزایید، یا حافظهٔ این‌ها را آزاد کنید.',
    host_refused: 'میزبان شبکه این دستگاه را نپذیرفت: {reason}',
    host_unreachable: 'دسترسی به میزبان شبکه ممکن نیست: {error}',
    host_offline: 'میزبان شبکه برون‌خط است: {error}',
  },
  servingReason: {
    signed_out: 'برای ارائهٔ مدل‌ها وارد شوید.',
    untrusted: '{problem}',
    awaiting_plan: 'در انتظار طرح این دستگاه از مش‌ورک.',
    plan_expired:
      'این دستگاه از {since} نتوانسته است طرح خود را با مش‌ورک تأیید کند و مهلت برون‌خط آن به پایان رسیده است. به‌محض اتصال دوباره، مدل‌ها باز ارائه می‌شوند.',
  },
  trustProblems: {
    clock_went_back:
      'ساعت این رایانه زمانی پیش‌تر از آنچه مش‌ورک پیش‌تر روی آن دیده است نشان می‌دهد، پس به طرح آن در حالت برون‌خط نمی‌توان اعتماد کرد. تاریخ و ساعت را درست کنید: با اتصال دوباره به مش‌ورک، مدل‌ها باز ارائه می‌شوند.',
    plan_unverifiable: 'این دستگاه نمی‌تواند طرح خود را از مش‌ورک تأیید کند ({detail})، پس مدل‌ها را ارائه نمی‌کند.',
    plan_unverifiable_check_clock:
      'این دستگاه نمی‌تواند طرح خود را از مش‌ورک تأیید کند ({detail})، پس مدل‌ها را ارائه نمی‌کند. تاریخ و ساعت این رایانه را بررسی کنید.',
    plan_unverifiable_reinstall:
      'این دستگاه نمی‌تواند طرح خود را از مش‌ورک تأیید کند ({detail})، پس مدل‌ها را ارائه نمی‌کند. مش‌ورک را دوباره از سایت خود نصب کنید تا کلیدهای کنونی‌اش را بگیرد.',
  },
  linkFailure: {
    unreachable: '{detail}',
    connection_failed: 'اتصال دستگاه ناموفق بود: {detail}',
    disconnected: 'اتصال دستگاه قطع شد.',
    stopped_answering: 'دستگاه دیگر پاسخ نمی‌دهد.',
    no_answer_within: 'دستگاه در {seconds} ثانیه پاسخ نداد.',
    no_answer_in_time: 'دستگاه به‌موقع پاسخ نداد.',
    closed: 'پیوند بسته شد.',
    frame_too_large: 'دستگاه قابی بزرگ‌تر از حد مجاز فرستاد.',
    broke_protocol: 'دستگاه قواعد پروتکل را رعایت نکرد: {detail}',
    device_error: '{detail}',
    wrong_size: 'پاسخ دستگاه اندازهٔ نادرستی داشت.',
    not_the_host: 'دستگاهی که در آن نشانی است میزبان این شبکه نیست',
    not_welcomed: 'میزبان این دستگاه را نپذیرفت',
  },
  modelError: {
    no_longer_in_plan: 'طرح شما دیگر مدل «{model}» را در بر ندارد.',
    manifest_mismatch: 'فهرست بستهٔ «{model}» در کاتالوگ همانی نیست که طرح شما نام می‌برد؛ بعداً دوباره تلاش کنید.',
    disk_filled: 'هنگام دریافت {model} دیسک پر شد. کمی فضا آزاد کنید و دوباره دریافتش کنید: آنچه دریافت شده نگه داشته می‌شود.',
    disk_too_small: 'فضای آزاد دیسک برای {model} کافی نیست: {needed} لازم است و {free} آزاد است.',
    download_failed: 'دریافت ناموفق بود: {error}',
  },
  signedOut: {
    code_expired: 'کد منقضی شد. ورود را دوباره آغاز کنید.',
    sign_in_failed: 'ورود انجام نشد: {error}',
    session_ended: 'از حساب خارج شدید: {reason}',
    no_longer_signed_in: 'این دستگاه دیگر وارد حساب نیست.',
    device_signed_out: 'این دستگاه از حساب شما خارج شد.',
  },
  refusal: {
    sign_in_first: 'ابتدا وارد شوید.',
    sign_in_to_download: 'برای دریافت مدل‌ها وارد شوید.',
    not_in_plan: 'طرح شما مدل «{model}» را در بر ندارد.',
    model_store_failed: 'کار با مدل انجام نشد: {detail}',
    already_in_network: 'این دستگاه هم‌اکنون در یک شبکه است: ابتدا آن را ترک کنید.',
    awaiting_plan: 'در انتظار طرح این دستگاه از مش‌ورک.',
    only_host_issues_codes: 'فقط میزبان شبکه کد پیوستن می‌سازد.',
    only_host_removes: 'فقط میزبان شبکه دستگاه‌ها را حذف می‌کند.',
    not_a_member: 'آن دستگاه در این شبکه نیست.',
    several_hosts_announce: 'چند دستگاه این شبکه را اعلام می‌کنند: آنی را برگزینید که گواهی‌اش همانی است که پنجرهٔ میزبان نشان می‌دهد.',
    host_not_vouched:
      'دستگاهی که در آن نشانی است میزبان این شبکه نیست: مش‌ورک گواهی دیگری را برای آن نام می‌برد. به موردی بپیوندید که «تأییدشده» است.',
    network_not_on_lan: 'این شبکه اکنون در این شبکهٔ محلی نیست. نشانی میزبانش را همان‌گونه که پنجره‌اش نشان می‌دهد وارد کنید.',
    code_for_another_network: 'این کد برای شبکهٔ دیگری است.',
    api_refused: 'مش‌ورک نپذیرفت: {detail}',
    host_unreachable_at: 'دسترسی به میزبان شبکه در {address} ممکن نیست: {failure}',
    not_the_host: 'دستگاهی که در آن نشانی است میزبان این شبکه نیست.',
    host_did_not_answer: 'میزبان پاسخ نداد: {failure}',
    host_refused: 'میزبان شبکه این دستگاه را نپذیرفت: {reason}',
    wrong_code: 'این کد پیوستن نادرست است، یا دستگاهی که در آن نشانی است میزبان این شبکه نیست.',
    not_admitted: 'میزبان این دستگاه را نپذیرفت.',
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
  modelBlocks: 'بلوک‌های مدل',
  modelBlocksLead: 'هر یک از {total} بلوک مدل را کدام دستگاه اجرا می‌کند.',
  blockOf: 'بلوک {block}: {names}',
  blockUnheld: 'بلوک {block}: هیچ دستگاهی',
  unheld: 'هیچ دستگاهی',
  stripLabel: '{name}: {blocks} از {total}',
  memory: 'حافظه',
  memberActivity: 'کار',
  tokensPerSecond: 'اکنون {rate} توکن در ثانیه',
  activityHistory: 'ده دقیقهٔ گذشته در میانگین‌های ده‌ثانیه‌ای، تا {peak} توکن در ثانیه',
  memoryWeights: 'وزن‌های نگه‌داشته',
  memoryFixed: 'بخش ثابت',
  memoryOther: 'کاربرد دیگر',
  memoryFree: 'آزاد',
  memoryMeasured: 'سنجیده: {rss} در کار، {peak} در اوج',
  memoryFreeOnly: '{free} آزاد',
  memoryHistory: 'حافظه در همین ده دقیقه: از {low} تا {peak} در کار',
  memoryHistorySteady: 'حافظه در همین ده دقیقه: {peak} در کار',
  disk: 'دیسک',
  diskUsed: '{bytes} در اختیار مدل',
  filesFrom: 'پرونده‌هایش از کجا آمده‌اند',
  fileSource: { lan: 'از میزبان در شبکهٔ محلی', platform: 'از مش‌ورک', installed: 'نصب‌شدهٔ کامل' },
  filesOne: '{bytes} در ۱ پرونده',
  filesMany: '{bytes} در {count} پرونده',
  fileList: 'پرونده‌هایش',
  holdsNothing: 'هنوز هیچ بخشی از مدل را ندارد.',
  receiving: 'در حال دریافت سهم خود: {done} از {total}',
  memoryShortTitle: 'حافظه برای {model} کافی نیست',
  memoryShortNeeded: '{needed} حافظهٔ آزاد بیشتر لازم است',
  memoryShortAdvice:
    'دستگاهی با دست‌کم {needed} حافظهٔ آزاد به این شبکه بیفزایید، یا برنامه‌هایی را روی این دستگاه‌ها ببندید تا حافظه آزاد شود. به‌محض آنکه دستگاه‌های برخط با هم جای مدل را داشته باشند، مدل اجرا می‌شود.',
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

/** `{name}` placeholders filled in. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => String(values[key] ?? whole));
}

/** How the window writes the numbers a code carries, in its language. */
export interface Formats {
  bytes(value: number): string;
}

/** Sizes as the window writes them in `locale` (fa-IR: Persian digits): bytes to gigabytes, one decimal at most. */
export function bytesIn(locale: string): (value: number) => string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
  return (value) => {
    const step = Math.min(units.length - 1, Math.floor(Math.log(Math.max(value, 1)) / Math.log(1024)));
    return new Intl.NumberFormat(locale, { style: 'unit', unit: units[step], unitDisplay: 'short', maximumFractionDigits: 1 }).format(
      value / 1024 ** step,
    );
  };
}

export function trustProblemText(t: Messages, problem: HostTrustProblem): string {
  if (problem.code === 'clock_went_back') return t.trustProblems.clock_went_back;
  const key = problem.advice === null ? 'plan_unverifiable' : (`plan_unverifiable_${problem.advice}` as const);
  return fill(t.trustProblems[key], { detail: problem.detail });
}

export function servingReasonText(t: Messages, reason: HostServingReason): string {
  if (reason.code === 'untrusted') return fill(t.servingReason.untrusted, { problem: trustProblemText(t, reason.problem) });
  return fill(t.servingReason[reason.code], reason);
}

export function linkFailureText(t: Messages, failure: HostLinkFailure): string {
  return fill(t.linkFailure[failure.code], failure);
}

export function lanRefusalText(t: Messages, reason: LanRefusal): string {
  if (reason.code === 'client_limit' && reason.max_clients === 1) return fill(t.lanRefusal.client_limit_one, reason);
  return fill(t.lanRefusal[reason.code], reason);
}

export function lanRemovalText(t: Messages, reason: LanRemoval): string {
  if (reason.code === 'client_limit' && reason.max_clients === 1) return t.lanRemoval.client_limit_one;
  return fill(t.lanRemoval[reason.code], reason);
}

export function networkMessageText(t: Messages, message: HostNetworkMessage, formats: Formats): string {
  const template = t.networkMessage[message.code];
  switch (message.code) {
    case 'host_refused':
      return fill(template, { reason: lanRefusalText(t, message.reason) });
    case 'not_serving':
      return fill(template, { reason: servingReasonText(t, message.reason) });
    case 'host_unreachable':
    case 'host_offline':
      return fill(template, { error: linkFailureText(t, message.error) });
    case 'memory_short':
      return fill(template, { model: message.model, needed: formats.bytes(message.needed_bytes) });
    default:
      return fill(template, message);
  }
}

export function modelErrorText(t: Messages, error: HostModelError, formats: Formats): string {
  const template = t.modelError[error.code];
  if (error.code !== 'disk_too_small') return fill(template, error);
  return fill(template, { model: error.model, needed: formats.bytes(error.needed_bytes), free: formats.bytes(error.free_bytes) });
}

export function signedOutText(t: Messages, message: HostSignedOutMessage): string {
  return fill(t.signedOut[message.code], message);
}

/** What a command's refusal carries: the host's English, and its code with values (none from a host before the codes). */
export interface Refusal {
  message: string;
  reason: HostRefusalReason | null;
}

/** A command's refusal in the window's words; the host's English for a code this window does not know (another version's). */
export function refusalText(t: Messages, { message, reason }: Refusal): string {
  if (reason === null || !Object.hasOwn(t.refusal, reason.code)) return message;
  const template = t.refusal[reason.code];
  switch (reason.code) {
    case 'host_unreachable_at':
      return fill(template, { address: reason.address, failure: linkFailureText(t, reason.failure) });
    case 'host_did_not_answer':
      return fill(template, { failure: linkFailureText(t, reason.failure) });
    case 'host_refused':
      return fill(template, { reason: lanRefusalText(t, reason.reason) });
    default:
      return fill(template, reason);
  }
}
