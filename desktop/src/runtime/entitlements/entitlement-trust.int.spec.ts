import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ENTITLEMENT_TYPE,
  type EntitlementDocument,
  EntitlementKeySet,
  type EntitlementPublicKey,
  KEY_SET_TYPE,
} from '@meshwork/contracts';
import type { TestCustomer } from '@meshwork/testkit/api/accounts';
import { networksWorld, type NetworksWorld } from '@meshwork/testkit/api/network-kit';
import { apiRelay, startHost, type TestHost } from '@meshwork/testkit/desktop/host-harness';

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Someone's own Ed25519 key, and tokens signed with it as the api signs its own. */
function forger() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const jwk: EntitlementPublicKey = {
    kty: 'OKP',
    crv: 'Ed25519',
    kid: 'forged-key',
    x: publicKey.export({ format: 'jwk' }).x!,
    use: 'sig',
    alg: 'EdDSA',
  };
  const signed = (typ: string, payload: unknown, key: KeyObject = privateKey) => {
    const input = `${base64url({ alg: 'EdDSA', kid: jwk.kid, typ })}.${base64url(payload)}`;
    return `${input}.${sign(null, Buffer.from(input), key).toString('base64url')}`;
  };
  return {
    keys: { keys: [jwk] },
    document: (document: EntitlementDocument) => signed(ENTITLEMENT_TYPE, document),
    keySet: (iss: string) => signed(KEY_SET_TYPE, { iss, iat: Math.floor(Date.now() / 1000), keys: [jwk] }),
  };
}

/** Issue 31, items 4 and 5: the plan holds against the customer's own files and clock. */
describe('the desktop host: trust in its plan', () => {
  let world: NetworksWorld;
  let rootKeys: EntitlementKeySet;
  const hosts: TestHost[] = [];

  beforeAll(async () => {
    world = await networksWorld();
    // What `npm start` writes into the release it builds: the api's published keys.
    rootKeys = EntitlementKeySet.parse(await (await fetch(`${world.base}/api/v1/devices/keys/`)).json());
  });
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
  });
  afterAll(() => world?.close());

  async function host(api: string, options: Parameters<typeof startHost>[1] = {}): Promise<TestHost> {
    const started = await startHost(api, options);
    hosts.push(started);
    return started;
  }

  /** Stops a host to start it again on its data directory. */
  async function stop(subject: TestHost): Promise<void> {
    await subject.close({ keepData: true });
    hosts.splice(hosts.indexOf(subject), 1);
  }

  async function signedIn(owner: TestCustomer, api: string, options: Parameters<typeof startHost>[1] = {}): Promise<TestHost> {
    const subject = await host(api, options);
    const { body } = await subject.call('POST', '/host/sign-in/device');
    const code = (body.account as { user_code: string }).user_code;
    await owner.post('/devices/activate/', { user_code: code, name: 'Trust host', approve: true }).expect(200);
    await subject.until((s) => s.account.status === 'signed-in' && s.connection === 'online', 15_000, 'sign-in');
    return subject;
  }

  /** Replaces the host's keys file with someone's own key, and its plan with Enterprise until 2036 signed by it. */
  async function forge(subject: TestHost, real: EntitlementDocument): Promise<void> {
    const own = forger();
    const until2036 = Date.parse('2036-01-01T00:00:00Z') / 1000;
    const forged: EntitlementDocument = {
      ...real,
      plan: { ...real.plan, slug: 'enterprise', name: 'Enterprise (forged)', max_networks: null, max_clients_per_network: null },
      // Old enough that the host asks the api for its document again when it reconnects.
      iat: Math.floor(Date.now() / 1000) - 13 * 3600,
      exp: until2036,
      grace_until: until2036,
    };
    const trust = { issuer: real.iss, key_set_iat: 0, keys: own.keys, key_sets: [own.keySet(real.iss)] };
    await writeFile(join(subject.dataDir, 'trust.json'), JSON.stringify(trust));
    await writeFile(join(subject.dataDir, 'entitlements.json'), JSON.stringify({ token: own.document(forged) }));
  }

  it('with the release’s keys, refuses a replaced keys file and the plan signed with it, offline and online', async () => {
    const owner = await world.customer();
    const relay = await apiRelay(Number(new URL(world.base).port));
    try {
      const subject = await signedIn(owner, relay.base, { rootKeys });
      expect(subject.host.state().trust).toEqual({ source: 'release', problem: null });
      const real = subject.host.entitlements!;
      await stop(subject);
      await forge(subject, real);

      relay.cut();
      const offline = await host(relay.base, { dataDir: subject.dataDir, fingerprint: subject.fingerprint, rootKeys });
      const refused = offline.host.state();
      expect(refused.entitlements).toBeNull();
      expect(refused.serving.allowed).toBe(false);

      relay.restore();
      offline.host['session']?.stream.retryNow();
      const online = await offline.until((s) => s.connection === 'online' && s.entitlements !== null, 20_000, 'the real plan');
      expect(online.entitlements).toMatchObject({ status: 'valid', plan: { slug: 'free' }, seq: real.seq });
      expect(online.serving).toEqual({ allowed: true, reason: null });
    } finally {
      await relay.close();
    }
  });

  it('without a release, says it trusts the keys it pinned, and stops serving when the api’s documents do not verify', async () => {
    const owner = await world.customer();
    const subject = await signedIn(owner, world.base);
    expect(subject.host.state().trust).toEqual({ source: 'first-sign-in', problem: null });
    const real = subject.host.entitlements!;
    await stop(subject);
    await forge(subject, real);

    const again = await host(world.base, { dataDir: subject.dataDir, fingerprint: subject.fingerprint });
    const state = await again.until((s) => s.trust.problem !== null, 20_000, 'the refusal');
    expect(state.trust).toEqual({
      source: 'first-sign-in',
      problem: { code: 'plan_unverifiable', detail: expect.any(String), advice: null },
    });
    expect(state.serving).toEqual({ allowed: false, reason: { code: 'untrusted', problem: state.trust.problem } });
  });

  it('says so and stops serving when the release’s keys cannot verify the api’s documents', async () => {
    const owner = await world.customer();
    const subject = await signedIn(owner, world.base, { rootKeys });
    await stop(subject);
    const otherPlatform = forger().keys;
    const again = await host(world.base, { dataDir: subject.dataDir, fingerprint: subject.fingerprint, rootKeys: otherPlatform });
    const state = await again.until((s) => s.trust.problem !== null, 20_000, 'the refusal');
    expect(state.trust.problem).toEqual({ code: 'plan_unverifiable', detail: expect.any(String), advice: 'reinstall' });
    expect(state.entitlements).toBeNull();
    expect(state.serving).toEqual({ allowed: false, reason: { code: 'untrusted', problem: state.trust.problem } });
  });

  it('keeps a plan past its grace expired when the clock is set back, until a document from the api vouches for the time', async () => {
    const owner = await world.customer();
    const relay = await apiRelay(Number(new URL(world.base).port));
    let offset = 0;
    const clock = () => new Date(Date.now() + offset);
    try {
      const subject = await signedIn(owner, relay.base, { clock, rootKeys });
      relay.cut();
      const offline = await subject.until((s) => s.connection === 'offline', 10_000, 'offline');
      const graceUntil = Date.parse(offline.entitlements!.grace_until);
      const options = { dataDir: subject.dataDir, fingerprint: subject.fingerprint, clock, rootKeys };

      // An hour past the grace: the host sees that time (and keeps it), and the plan has expired.
      offset = graceUntil - Date.now() + 3_600_000;
      await stop(subject);
      const past = await host(relay.base, options);
      expect(past.host.state().entitlements).toMatchObject({ status: 'expired' });
      await stop(past);

      // The clock set back one day, to inside the grace, and the host started again.
      offset -= 86_400_000;
      const back = await host(relay.base, options);
      const state = back.host.state();
      expect(state.entitlements).toMatchObject({ status: 'expired', seconds_left: 0 });
      expect(state.serving).toEqual({
        allowed: false,
        reason: { code: 'untrusted', problem: { code: 'clock_went_back' } },
      });

      // The clock put right and the api back: its document vouches for the time again.
      offset = 0;
      expect(back.host.state().serving.allowed).toBe(false);
      relay.restore();
      back.host['session']?.stream.retryNow();
      const online = await back.until((s) => s.connection === 'online', 20_000, 'back online');
      expect(online.entitlements).toMatchObject({ status: 'valid' });
      expect(online.serving).toEqual({ allowed: true, reason: null });
    } finally {
      await relay.close();
    }
  });
});
