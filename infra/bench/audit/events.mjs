// One history record (history.mjs) as the event the api's handlers append: the stored type,
// the data shape of its decider, and full metadata (correlation id, actor with ip and user
// agent). On `user-` streams the personal fields and the actor's ip and user agent go through
// identity's own UserEventCodec, encrypted under each account's key, as in production.
import { createHash, randomBytes, randomUUID } from 'node:crypto';

const USER_AGENTS = [
  'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36',
  'Meshwork-Desktop/1.4.2 (linux; x64)',
];
const SYSTEM_ACTOR = { userId: null, isStaff: false, ip: null, userAgent: null };

const fakeHash = () => `$argon2id$v=19$m=19456,t=2,p=1$${randomBytes(16).toString('base64url')}$${randomBytes(32).toString('base64url')}`;

/**
 * Returns `build(record) => Promise<NewEvent>`. `plans` are billing's seeded plan terms (for
 * entitlements and prices), `staff` the staff account's actor.
 */
export function eventBuilder({ accounts, codec, plans, staff }) {
  const actorOf = (record) => {
    if (record.actor === null) return SYSTEM_ACTOR;
    if (record.actor === -1) return staff;
    const u = record.actor;
    return {
      userId: accounts[u].id,
      isStaff: false,
      ip: `203.0.${(u >> 8) & 255}.${u & 255}`,
      userAgent: USER_AGENTS[u % USER_AGENTS.length],
    };
  };
  const entitlements = (planId, to) => ({
    planId,
    maxNetworks: plans[planId].maxNetworks,
    maxClientsPerNetwork: plans[planId].maxClientsPerNetwork,
    downloadAccess: plans[planId].downloadAccess,
    expiresAt: to === null ? null : new Date(to).toISOString(),
  });
  const iso = (t) => new Date(t).toISOString();

  function dataOf(r) {
    const d = r.d;
    const account = r.actor >= 0 ? accounts[r.actor] : null;
    switch (r.type) {
      case 'UserRegistered':
        return {
          userId: account.id,
          email: `user${d.n}@example.com`,
          username: `user${d.n}`,
          passwordHash: fakeHash(),
          isStaff: false,
          isAuditor: false,
        };
      case 'ProfileUpdated':
        return { firstName: `First${r.actor}`, lastName: `Last${r.actor}` };
      case 'PasswordChanged':
        return { passwordHash: fakeHash(), keptSessionId: null };
      case 'UserSignedIn':
        return {
          sessionId: d.session,
          deviceFingerprint: createHash('sha256').update(`${r.actor}`).digest('hex').slice(0, 32),
          ip: `203.0.${(r.actor >> 8) & 255}.${r.actor & 255}`,
          userAgent: USER_AGENTS[r.actor % USER_AGENTS.length],
        };
      case 'UserSignedOut':
        return { sessionId: d.session, reason: 'logout' };
      case 'CheckoutStarted':
        return { sessionId: `sim_cs_${randomUUID()}`, planId: d.plan, cycle: 'monthly', provider: 'simulated' };
      case 'SubscriptionActivated':
        return {
          planId: d.plan,
          tier: plans[d.plan].tier,
          priceCents: plans[d.plan].priceCents,
          cycle: 'monthly',
          periodStart: iso(d.from),
          periodEnd: iso(d.to),
          provider: 'simulated',
          providerSubscriptionId: null,
          checkoutSessionId: `sim_cs_${randomUUID()}`,
        };
      case 'EntitlementsChanged':
        return entitlements(d.plan, d.to);
      case 'SubscriptionUpgraded':
        return {
          fromPlanId: d.from,
          toPlanId: d.plan,
          tier: plans[d.plan].tier,
          priceCents: plans[d.plan].priceCents,
          prorationCents: plans[d.plan].priceCents - plans[d.from].priceCents,
        };
      case 'CancellationScheduled':
        return { effectiveAt: iso(d.at), providerNewsAt: null };
      case 'SubscriptionExpired':
        return { planId: d.plan, reason: 'period-ended' };
      case 'SubscriptionRenewed':
        return { periodStart: iso(d.from), periodEnd: iso(d.to) };
      case 'SubscriptionPastDue':
        return { graceUntil: iso(d.until) };
      case 'PaymentInitiated':
        return {
          userId: account.id,
          planId: d.plan,
          amountCents: d.amount,
          currency: 'USD',
          kind: d.kind,
          provider: 'simulated',
          transactionId: `sim_tx_${randomUUID()}`,
          refundTarget: null,
        };
      case 'PaymentSucceeded':
        return { refundTarget: `sim_pi_${randomUUID()}` };
      case 'PaymentFailed':
        return { reason: 'The payment was declined.' };
      case 'PaymentRefunded':
        return { refundId: `sim_re_${randomUUID()}`, amountCents: d.amount, reason: 'requested_by_customer', fully: d.full };
      case 'ModelUploadStarted':
        return {
          modelId: r.stream.slice('model-'.length),
          model: {
            name: d.name,
            displayName: d.displayName,
            description: `${d.displayName}, quantised for local inference.`,
            version: '1.0.0',
            parameters: d.parameters,
            architecture: 'llama',
          },
          allowedPlans: d.plans,
        };
      case 'ModelFileStored': {
        const name = `block-${d.part}.onnx`;
        return {
          name,
          size: 1_800_000_000 + d.part,
          sha256: createHash('sha256').update(`${d.name}/${name}`).digest('hex'),
          partIndex: d.part,
          objectKey: `models/${r.stream.slice('model-'.length)}/${name}`,
        };
      }
      case 'ModelPublished':
        return { totalSize: 3_600_000_001, partsCount: 2 };
      case 'DownloadRecorded':
        return {
          downloadId: randomUUID(),
          kind: 'model',
          ref: d.model,
          version: '1.0.0',
          fileName: `${d.name}.mwpkg`,
          size: 3_600_000_001,
        };
      default:
        throw new Error(`no data for ${r.type}`);
    }
  }

  return async function build(r) {
    let data = dataOf(r);
    let metadata = { correlationId: r.corr, causationId: null, actor: actorOf(r) };
    if (r.stream.startsWith('user-')) {
      ({ data, metadata } = await codec.encode(r.stream.slice('user-'.length), { type: r.type, data }, metadata));
    }
    return { eventId: randomUUID(), type: r.type, schemaVersion: 1, occurredAt: new Date(r.t), data, metadata };
  };
}
