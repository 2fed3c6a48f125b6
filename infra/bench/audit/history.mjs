// A year of Meshwork's life as compact records, oldest first: accounts registering and
// signing in, subscriptions with their payments (renewals, upgrades, failures, refunds,
// cancellations), model downloads. `events.mjs` turns each record into the event the api's
// own handlers would have appended (same types, streams, data shapes and metadata).
//
// The volume is fixed: the structure (accounts, billing) comes first, then sign-in sessions
// (a sign-in, a few downloads, often a sign-out) fill the log up to exactly `total` events.
// Seeded, so every run writes the same history.
import { randomUUID } from 'node:crypto';

const DAY = 86_400_000;
const MINUTE = 60_000;

/** mulberry32: a small seeded generator, so two runs fill the same log. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const MODELS = [
  ['llama-3.1-8b-instruct', 'Llama 3.1 8B Instruct', '8B', ['free', 'pro', 'enterprise']],
  ['mistral-7b-instruct', 'Mistral 7B Instruct', '7B', ['free', 'pro', 'enterprise']],
  ['qwen2.5-14b-instruct', 'Qwen2.5 14B Instruct', '14B', ['pro', 'enterprise']],
  ['phi-3.5-mini', 'Phi 3.5 Mini', '3.8B', ['free', 'pro', 'enterprise']],
  ['gemma-2-27b', 'Gemma 2 27B', '27B', ['pro', 'enterprise']],
  ['llama-3.1-70b-instruct', 'Llama 3.1 70B Instruct', '70B', ['enterprise']],
  ['deepseek-coder-v2-lite', 'DeepSeek Coder V2 Lite', '16B', ['pro', 'enterprise']],
  ['mixtral-8x7b-instruct', 'Mixtral 8x7B Instruct', '47B', ['enterprise']],
];

const PRICES = { pro: 2900, enterprise: 9900 };

/**
 * Records `{ t, type, stream, actor, corr, d }`, sorted by t (ms since epoch):
 * `actor` is a user index (-1 for staff, null for the system), `corr` is the correlation id of the request that
 * caused the event, `d` holds what the event's data needs beyond ids derived from the stream.
 */
export function buildHistory({ total, users, end = Date.now(), seed = 15 }) {
  const random = rng(seed);
  const start = end - 365 * DAY;
  const records = [];
  const corrId = () => randomUUID();
  const push = (t, type, stream, actor, corr, d = {}) => records.push({ t, type, stream, actor, corr, d });

  // Staff publish the models in the first month.
  const models = MODELS.map(([name, displayName, parameters, plans], i) => {
    const id = randomUUID();
    const t = start + (i + 1) * 3 * DAY;
    const corr = corrId();
    push(t, 'ModelUploadStarted', `model-${id}`, -1, corr, { name, displayName, parameters, plans });
    push(t + 1, 'ModelFileStored', `model-${id}`, -1, corr, { name, part: 0 });
    push(t + 2, 'ModelFileStored', `model-${id}`, -1, corr, { name, part: 1 });
    push(t + 3, 'ModelPublished', `model-${id}`, -1, corr, {});
    return { id, name, plans };
  });

  // Accounts: more of them late in the year (growth); activity per account is heavy-tailed.
  const accounts = Array.from({ length: users }, () => {
    const registered = start + 35 * DAY + Math.sqrt(random()) * 329 * DAY;
    return { id: randomUUID(), registered, weight: 0.2 + (1 / (random() + 0.02)) ** 1.2, plan: 'free' };
  });
  accounts.sort((a, b) => a.registered - b.registered);
  accounts.forEach((account, u) => {
    account.index = u;
    push(account.registered, 'UserRegistered', `user-${account.id}`, u, corrId(), { n: u });
    if (random() < 0.35) subscribe(account, account.registered + random() * 60 * DAY);
    if (random() < 0.12)
      push(account.registered + random() * (end - account.registered), 'ProfileUpdated', `user-${account.id}`, u, corrId());
    if (random() < 0.05)
      push(account.registered + random() * (end - account.registered), 'PasswordChanged', `user-${account.id}`, u, corrId());
  });

  function payment(account, t, kind, planId, corr) {
    const id = randomUUID();
    const amount = kind === 'upgrade' ? PRICES.enterprise - PRICES.pro : PRICES[planId];
    push(t, 'PaymentInitiated', `payment-${id}`, account.index, corr, { planId, amount, kind });
    if (random() < 0.02) {
      push(t + 900, 'PaymentFailed', `payment-${id}`, null, corr);
      return false;
    }
    push(t + 900, 'PaymentSucceeded', `payment-${id}`, null, corr);
    if (random() < 0.03 && t + 3 * DAY < end) {
      const full = random() < 0.7;
      push(Math.min(end - MINUTE, t + (1 + random() * 20) * DAY), 'PaymentRefunded', `payment-${id}`, -1, corrId(), {
        amount: full ? amount : Math.round(amount / 2),
        full,
      });
    }
    return true;
  }

  function subscribe(account, t) {
    if (t >= end) return;
    const sub = `subscription-${account.id}`;
    const u = account.index;
    let plan = random() < 0.8 ? 'pro' : 'enterprise';
    const corr = corrId();
    push(t, 'CheckoutStarted', sub, u, corr, { plan });
    if (!payment(account, t + 60_000, 'subscription', plan, corr)) return;
    push(t + 62_000, 'SubscriptionActivated', sub, u, corr, { plan, from: t, to: t + 30 * DAY });
    push(t + 62_001, 'EntitlementsChanged', sub, u, corr, { plan, to: t + 30 * DAY });
    for (let period = t + 30 * DAY; period < end; period += 30 * DAY) {
      if (random() < 0.04) {
        push(period - random() * 20 * DAY, 'CancellationScheduled', sub, u, corrId(), { at: period });
        const c = corrId();
        push(period, 'SubscriptionExpired', sub, null, c, { plan });
        push(period + 1, 'EntitlementsChanged', sub, null, c, { plan: 'free', to: null });
        return;
      }
      if (plan === 'pro' && random() < 0.03) {
        const at = period - random() * 25 * DAY;
        const c = corrId();
        push(at, 'SubscriptionUpgraded', sub, u, c, { from: 'pro', plan: 'enterprise' });
        payment(account, at + 1000, 'upgrade', 'enterprise', c);
        push(at + 2000, 'EntitlementsChanged', sub, u, c, { plan: 'enterprise', to: period });
        plan = 'enterprise';
      }
      const c = corrId();
      if (!payment(account, period, 'renewal', plan, c)) {
        push(period + 1000, 'SubscriptionPastDue', sub, null, c, { until: period + 7 * DAY });
        if (period + 2 * DAY >= end || !payment(account, period + 2 * DAY, 'renewal', plan, corrId())) continue;
      }
      push(period + 2000, 'SubscriptionRenewed', sub, null, c, { from: period, to: period + 30 * DAY });
    }
  }

  // Sign-in sessions fill the rest: a sign-in, 0-4 downloads of models the plan opens, and
  // mostly a sign-out, for accounts picked by weight at any time after they registered.
  const cumulative = [];
  let sum = 0;
  for (const a of accounts) cumulative.push((sum += a.weight));
  const pick = () => {
    const x = random() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return accounts[lo];
  };
  while (records.length < total) {
    const account = pick();
    const t = account.registered + MINUTE + random() * (end - 3 * 60 * MINUTE - account.registered);
    const u = account.index;
    const session = randomUUID();
    push(t, 'UserSignedIn', `user-${account.id}`, u, corrId(), { session });
    const downloads = Math.floor(-Math.log(1 - random()) * 0.9);
    for (let k = 0; k < Math.min(downloads, 4) && records.length < total; k++) {
      const model = models[Math.floor(random() * 5)]; // the five most popular
      push(t + (k + 1) * 40_000, 'DownloadRecorded', `downloads-${account.id}`, u, corrId(), { model: model.id, name: model.name });
    }
    if (random() < 0.6 && records.length < total)
      push(t + (10 + random() * 120) * MINUTE, 'UserSignedOut', `user-${account.id}`, u, corrId(), { session });
  }
  records.length = total;
  records.sort((a, b) => a.t - b.t);
  return { records, accounts, models, start, end };
}
