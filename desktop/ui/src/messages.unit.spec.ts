import {
  HostLinkFailure,
  HostModelError,
  LanShareReport,
  HostNetworkMessage,
  HostRefusalReason,
  HostServingReason,
  HostSignedOutMessage,
  HostTrustProblem,
  LanRefusal,
  LanRemoval,
} from '@meshwork/contracts';
import { lanRefusalWords, lanRemovalWords, linkFailureWords, refusalWords, servingWords } from '../../src/runtime/english';
import {
  bytesIn,
  en,
  fa,
  fill,
  lanRefusalText,
  lanRemovalText,
  linkFailureText,
  type Messages,
  modelErrorText,
  networkMessageText,
  refusalText,
  servingReasonText,
  signedOutText,
  trustProblemText,
} from './messages';

/** The codes of one of the runtime's unions, read from its schema: a code added there must be worded here. */
const codes = (union: { options: readonly { shape: { code: { value: string } } }[] }) => union.options.map((o) => o.shape.code.value);

const tables: [string, string[], keyof Messages][] = [
  ['HostNetworkMessage', codes(HostNetworkMessage), 'networkMessage'],
  ['HostServingReason', codes(HostServingReason), 'servingReason'],
  ['HostTrustProblem', codes(HostTrustProblem), 'trustProblems'],
  ['HostLinkFailure', codes(HostLinkFailure), 'linkFailure'],
  ['HostModelError', codes(HostModelError), 'modelError'],
  ['HostSignedOutMessage', codes(HostSignedOutMessage), 'signedOut'],
  ['HostRefusalReason', codes(HostRefusalReason), 'refusal'],
  ['LanRefusal', codes(LanRefusal), 'lanRefusal'],
  ['LanRemoval', codes(LanRemoval), 'lanRemoval'],
];

/** One of each serving reason and link failure, with values: the runtime words these for programs. */
const servingReasons: HostServingReason[] = [
  { code: 'signed_out' },
  { code: 'untrusted', problem: { code: 'clock_went_back' } },
  { code: 'untrusted', problem: { code: 'plan_unverifiable', detail: 'Issued to another device', advice: null } },
  { code: 'untrusted', problem: { code: 'plan_unverifiable', detail: 'Issued in the future', advice: 'check_clock' } },
  { code: 'untrusted', problem: { code: 'plan_unverifiable', detail: 'No published key has the id k2', advice: 'reinstall' } },
  { code: 'awaiting_plan' },
  { code: 'plan_expired', since: '2026-01-31' },
];
const linkFailures: HostLinkFailure[] = [
  { code: 'unreachable', detail: 'connect ECONNREFUSED 10.0.0.2:8433' },
  { code: 'connection_failed', detail: 'read ECONNRESET' },
  { code: 'disconnected' },
  { code: 'stopped_answering' },
  { code: 'no_answer_within', seconds: 10 },
  { code: 'no_answer_in_time' },
  { code: 'closed' },
  { code: 'frame_too_large' },
  { code: 'broke_protocol', detail: 'Invalid input' },
  { code: 'device_error', detail: 'The block ran out of memory' },
  { code: 'wrong_size' },
  { code: 'not_the_host' },
  { code: 'not_welcomed' },
];

/** One of each refusal, with values, and the English sentence the host answered before the codes. */
const refusals: [HostRefusalReason, string][] = [
  [{ code: 'sign_in_first' }, 'Sign in first.'],
  [{ code: 'sign_in_to_download' }, 'Sign in to download models.'],
  [{ code: 'not_in_plan', model: 'smollm2' }, 'Your plan does not include the model "smollm2".'],
  [
    { code: 'model_store_failed', detail: 'The model name "../x" cannot be stored on this device' },
    'The model name "../x" cannot be stored on this device',
  ],
  [{ code: 'already_in_network' }, 'This device is already in a network: leave it first.'],
  [{ code: 'awaiting_plan' }, 'Waiting for this device’s plan from Meshwork.'],
  [{ code: 'only_host_issues_codes' }, 'Only the network’s host issues join codes.'],
  [{ code: 'only_host_removes' }, 'Only the network’s host removes devices.'],
  [{ code: 'not_a_member' }, 'That device is not in this network.'],
  [{ code: 'several_hosts_announce' }, 'Several devices announce this network: choose the one whose certificate its host’s window shows.'],
  [
    { code: 'host_not_vouched' },
    'The device at that address is not this network’s host: Meshwork names another certificate for it. Join the entry marked verified.',
  ],
  [{ code: 'network_not_on_lan' }, 'This network is not on this LAN now. Enter its host’s address as its window shows it.'],
  [{ code: 'code_for_another_network' }, 'This code is for another network.'],
  [
    { code: 'api_refused', detail: 'Your Free plan allows 2 clients per network. Upgrade to add more.' },
    'Your Free plan allows 2 clients per network. Upgrade to add more.',
  ],
  [
    {
      code: 'host_unreachable_at',
      address: '10.0.0.2:8433',
      failure: { code: 'unreachable', detail: 'connect ECONNREFUSED 10.0.0.2:8433' },
    },
    'The network’s host cannot be reached at 10.0.0.2:8433: connect ECONNREFUSED 10.0.0.2:8433',
  ],
  [
    { code: 'host_unreachable_at', address: '10.0.0.2:8433', failure: { code: 'disconnected' } },
    'The network’s host cannot be reached at 10.0.0.2:8433: The device disconnected.',
  ],
  [{ code: 'not_the_host' }, 'The device at that address is not this network’s host.'],
  [{ code: 'host_did_not_answer', failure: { code: 'no_answer_in_time' } }, 'The host did not answer: The device did not answer in time.'],
  [{ code: 'host_refused', reason: { code: 'code_overused' } }, 'This join code was tried too many times: issue a new one on the host.'],
  [{ code: 'wrong_code' }, 'This join code is wrong, or the device at that address is not this network’s host.'],
  [{ code: 'not_admitted' }, 'The host did not admit this device.'],
];

describe('the window’s words for the runtime’s codes', () => {
  it.each(tables)('words every code of %s in English and Persian', (_union, unionCodes, table) => {
    const english = en[table] as Record<string, string>;
    const persian = fa[table] as Record<string, string>;
    for (const code of unionCodes) {
      expect({ code, en: english[code] }).toEqual({ code, en: expect.stringMatching(/\S/) });
      expect({ code, fa: persian[code] }).toEqual({ code, fa: expect.stringMatching(/\S/) });
    }
    // Both tables word the same codes (and plan_unverifiable's advices, and singulars), none that the runtime no longer sends.
    expect(Object.keys(persian).sort()).toEqual(Object.keys(english).sort());
    const worded = Object.keys(english).filter((key) => !unionCodes.includes(key));
    expect(worded.every((key) => key.startsWith('plan_unverifiable_') || unionCodes.includes(key.replace(/_one$/, '')))).toBe(true);
  });

  it('says in English what the window said before the codes, word for word', () => {
    const bytes = (value: number) => `${value} bytes`;
    expect(networkMessageText(en, { code: 'not_serving', reason: { code: 'signed_out' } }, { bytes })).toBe('Sign in to serve models.');
    expect(networkMessageText(en, { code: 'host_offline', error: { code: 'disconnected' } }, { bytes })).toBe(
      'The network’s host is offline: The device disconnected.',
    );
    expect(
      networkMessageText(
        en,
        { code: 'host_unreachable', error: { code: 'unreachable', detail: 'connect ECONNREFUSED 10.0.0.2:8433' } },
        { bytes },
      ),
    ).toBe('The network’s host cannot be reached: connect ECONNREFUSED 10.0.0.2:8433');
    expect(networkMessageText(en, { code: 'host_refused', reason: { code: 'not_a_member' } }, { bytes })).toBe(
      'This device is not a member of the network: join it with the code.',
    );
    expect(servingReasonText(en, { code: 'plan_expired', since: '2026-01-31' })).toBe(
      'This device could not confirm its plan with Meshwork since 2026-01-31 and its offline grace has ended. Models are served again as soon as it reconnects.',
    );
    expect(trustProblemText(en, { code: 'plan_unverifiable', detail: 'The signature does not match key k1', advice: 'reinstall' })).toBe(
      'This device cannot verify its plan from Meshwork (The signature does not match key k1), so it does not serve models. Install Meshwork again from your site to get its current keys.',
    );
    expect(modelErrorText(en, { code: 'disk_filled', model: 'SmolLM2 135M' }, { bytes })).toBe(
      'The disk filled up while SmolLM2 135M was downloading. Free some space and download it again: what came down is kept.',
    );
    expect(modelErrorText(en, { code: 'disk_too_small', model: 'SmolLM2 135M', needed_bytes: 5, free_bytes: 2 }, { bytes })).toBe(
      'Not enough free disk space for SmolLM2 135M: it needs 5 bytes and 2 bytes is free.',
    );
    expect(modelErrorText(en, { code: 'no_longer_in_plan', model: 'smollm2' }, { bytes })).toBe(
      'Your plan no longer includes the model "smollm2".',
    );
    expect(signedOutText(en, { code: 'code_expired' })).toBe('The code expired. Start the sign-in again.');
    expect(signedOutText(en, { code: 'session_ended', reason: 'The device was revoked.' })).toBe('Signed out: The device was revoked.');
    expect(signedOutText(en, { code: 'device_signed_out' })).toBe('This device was signed out from your account.');
  });

  it('words the serving reasons and link failures in English as the runtime tells programs', () => {
    expect(new Set(servingReasons.map((r) => r.code))).toEqual(new Set(codes(HostServingReason)));
    expect(new Set(linkFailures.map((f) => f.code))).toEqual(new Set(codes(HostLinkFailure)));
    for (const reason of servingReasons) expect(servingReasonText(en, reason)).toBe(servingWords(reason));
    for (const failure of linkFailures) expect(linkFailureText(en, failure)).toBe(linkFailureWords(failure));
  });

  it('words every refusal in English as the host said it before the codes, and as it tells programs', () => {
    expect(new Set(refusals.map(([reason]) => reason.code))).toEqual(new Set(codes(HostRefusalReason)));
    for (const [reason, sentence] of refusals) {
      expect(refusalWords(reason)).toBe(sentence);
      expect(refusalText(en, { message: sentence, reason })).toBe(sentence);
    }
  });

  it('words a host’s refusal over the LAN in English as the host said it before the codes, and in Persian with its values', () => {
    const reasons: [LanRefusal, string][] = [
      [{ code: 'hosts_no_network' }, 'This device hosts no network.'],
      [{ code: 'hello_first' }, 'Say who you are first.'],
      [
        { code: 'plan_unconfirmed', detail: 'Issued to another device' },
        'This device’s plan could not be confirmed: Issued to another device',
      ],
      [{ code: 'other_account' }, 'Only devices of the same Meshwork account can join this network.'],
      [{ code: 'not_a_member' }, 'This device is not a member of the network: join it with the code.'],
      [{ code: 'awaiting_confirmation' }, 'Meshwork has not confirmed this network yet; try again in a moment.'],
      [{ code: 'suspended' }, 'This network is suspended.'],
      [{ code: 'code_overused' }, 'This join code was tried too many times: issue a new one on the host.'],
      [{ code: 'code_invalid' }, 'This join code is invalid or has expired.'],
      [{ code: 'client_limit', plan: 'Free', max_clients: 2 }, 'Your Free plan allows 2 clients per network. Upgrade to add more.'],
      [{ code: 'client_limit', plan: 'Free', max_clients: 1 }, 'Your Free plan allows 1 client per network. Upgrade to add more.'],
    ];
    expect(new Set(reasons.map(([reason]) => reason.code))).toEqual(new Set(codes(LanRefusal)));
    for (const [reason, sentence] of reasons) {
      expect(lanRefusalWords(reason)).toBe(sentence);
      expect(lanRefusalText(en, reason)).toBe(sentence);
    }
    expect(lanRefusalText(fa, { code: 'client_limit', plan: 'Free', max_clients: 2 })).toBe(
      'طرح Free شما در هر شبکه 2 کارخواه را مجاز می‌داند. برای افزودن بیشتر، طرح را ارتقا دهید.',
    );
    expect(networkMessageText(fa, { code: 'host_refused', reason: { code: 'suspended' } }, { bytes: bytesIn('fa-IR') })).toBe(
      'میزبان شبکه این دستگاه را نپذیرفت: این شبکه معلق است.',
    );
  });

  it('words why a device is out of its network in English as the host said it before the codes, and in Persian', () => {
    const reasons: [LanRemoval, string][] = [
      [{ code: 'removed_by_host' }, 'The network’s host removed this device.'],
      [{ code: 'host_stopped' }, 'The host stopped hosting this network.'],
      [{ code: 'client_limit', max_clients: 2 }, 'Your plan now allows 2 clients per network: this device was disconnected.'],
      [{ code: 'client_limit', max_clients: 1 }, 'Your plan now allows 1 client per network: this device was disconnected.'],
      [
        { code: 'network_ended' },
        'Meshwork took this device out of the network: it was deleted, this device was removed from it, or your plan now allows fewer clients.',
      ],
    ];
    expect(new Set(reasons.map(([reason]) => reason.code))).toEqual(new Set(codes(LanRemoval)));
    for (const [reason, sentence] of reasons) {
      expect(lanRemovalWords(reason)).toBe(sentence);
      expect(lanRemovalText(en, reason)).toBe(sentence);
    }
    expect(fill(fa.leftNetwork, { name: 'Office', reason: lanRemovalText(fa, { code: 'client_limit', max_clients: 2 }) })).toBe(
      'این دستگاه دیگر در «Office» نیست. طرح شما اکنون در هر شبکه 2 کارخواه را مجاز می‌داند: اتصال این دستگاه قطع شد.',
    );
  });

  it('shows the host’s English for a refusal without a code it knows (a host of another version)', () => {
    expect(refusalText(fa, { message: 'Sign in first.', reason: null })).toBe('Sign in first.');
    const unknown = { code: 'newer_reason' } as unknown as HostRefusalReason;
    expect(refusalText(fa, { message: 'Something newer.', reason: unknown })).toBe('Something newer.');
  });

  it('words them in Persian with the values they carry', () => {
    expect(refusalText(fa, { message: '', reason: { code: 'not_in_plan', model: 'smollm2' } })).toBe(
      'طرح شما مدل «smollm2» را در بر ندارد.',
    );
    expect(
      refusalText(fa, {
        message: '',
        reason: { code: 'host_unreachable_at', address: '10.0.0.2:8433', failure: { code: 'no_answer_within', seconds: 10 } },
      }),
    ).toBe('دسترسی به میزبان شبکه در 10.0.0.2:8433 ممکن نیست: دستگاه در 10 ثانیه پاسخ نداد.');
    expect(networkMessageText(fa, { code: 'model_missing', model: 'smollm2' }, { bytes: bytesIn('fa-IR') })).toBe(
      'برای اجرای شبکه، smollm2 را روی این دستگاه دریافت کنید.',
    );
    expect(linkFailureText(fa, { code: 'no_answer_within', seconds: 10 })).toBe('دستگاه در 10 ثانیه پاسخ نداد.');
    expect(servingReasonText(fa, { code: 'untrusted', problem: { code: 'clock_went_back' } })).toBe(fa.trustProblems.clock_went_back);
  });

  it('words how much more memory the network needs with the window’s sizes, in English and in Persian digits', () => {
    const short = { code: 'memory_short', model: 'mistral-large', needed_bytes: 1.5 * 2 ** 30 } as const;
    expect(networkMessageText(en, short, { bytes: bytesIn('en-US') })).toBe(
      'The devices online cannot hold mistral-large together: they need 1.5 GB more free memory. Add a device to the network, or free memory on these.',
    );
    const persian = networkMessageText(fa, short, { bytes: bytesIn('fa-IR') });
    expect(persian).toContain(`: ${bytesIn('fa-IR')(short.needed_bytes)} حافظهٔ آزاد بیشتر`);
    expect(persian).toMatch(/۱٫۵/);
    expect(persian).not.toMatch(/[0-9]/);
    expect(bytesIn('en-US')(300 * 2 ** 20)).toBe('300 MB');
    expect(bytesIn('fa-IR')(300 * 2 ** 20)).toMatch(/^۳۰۰\s/);
    expect(fill(en.memoryShortNeeded, { needed: bytesIn('en-US')(short.needed_bytes) })).toBe('1.5 GB more free memory needed');
  });

  it('words the per-device view in both languages, with the same values in each', () => {
    // Every file source a device reports is worded, in both languages.
    const sources = LanShareReport.shape.files.element.shape.source.options;
    expect(Object.keys(en.fileSource).sort()).toEqual([...sources].sort());
    expect(Object.keys(fa.fileSource).sort()).toEqual([...sources].sort());
    // Each sentence names the same values in Persian as in English, so filling one fills the other.
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    const keys = [
      'modelBlocksLead',
      'blockOf',
      'blockUnheld',
      'stripLabel',
      'memoryMeasured',
      'memoryFreeOnly',
      'diskUsed',
      'filesOne',
      'filesMany',
      'receiving',
      'memoryShortTitle',
      'memoryShortNeeded',
      'memoryShortAdvice',
    ] as const;
    for (const key of keys) {
      expect({ key, en: placeholders(en[key]) }).toEqual({ key, en: placeholders(fa[key]) });
      expect({ key, fa: fa[key] }).toEqual({ key, fa: expect.stringMatching(/[\u0600-\u06FF]/) });
    }
    const gigabyte = bytesIn('fa-IR')(2 ** 30);
    expect(fill(fa.filesMany, { bytes: gigabyte, count: new Intl.NumberFormat('fa-IR').format(12) })).toBe(`${gigabyte} در ۱۲ پرونده`);
    expect(fill(en.filesMany, { bytes: bytesIn('en-US')(2 ** 30), count: 12 })).toBe('1 GB in 12 files');
    expect(fill(en.memoryMeasured, { rss: '1.2 GB', peak: '1.4 GB' })).toBe('Measured: 1.2 GB in use, 1.4 GB at peak');
    expect(fill(fa.receiving, { done: '۱ GB', total: '۲ GB' })).toBe('در حال دریافت سهم خود: ۱ GB از ۲ GB');
  });
});
