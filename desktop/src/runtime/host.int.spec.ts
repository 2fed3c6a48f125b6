import { stat } from 'node:fs/promises';
import { get } from 'node:http';
import { join } from 'node:path';
import { TEST_PASSWORD, type TestCustomer } from '@meshwork/testkit/api/accounts';
import { networksWorld, type NetworksWorld } from '@meshwork/testkit/api/network-kit';
import { DesktopRuntime } from './host';
import { apiRelay, startHost, type TestHost } from '@meshwork/testkit/desktop/host-harness';

/** Issue 14, section 2: the host signs in, keeps its signed entitlements, follows them live and works offline. */
describe('the desktop host: account and entitlements', () => {
  let world: NetworksWorld;
  const hosts: TestHost[] = [];

  beforeAll(async () => {
    world = await networksWorld();
  });
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
  });
  afterAll(() => world?.close());

  async function host(api = world.base, options: Parameters<typeof startHost>[1] = {}): Promise<TestHost> {
    const started = await startHost(api, options);
    hosts.push(started);
    return started;
  }

  /** The device code flow as a person does it: the host shows a code, they approve it on the site. */
  async function signedIn(owner: TestCustomer, api = world.base): Promise<TestHost> {
    const subject = await host(api);
    const started = await subject.call('POST', '/host/sign-in/device');
    expect(started.status).toBe(200);
    const account = started.body.account as { status: string; user_code: string; verification_uri_complete: string };
    expect(account).toMatchObject({ status: 'signing-in', user_code: expect.stringMatching(/^[A-Z]{4}-[A-Z]{4}$/) });
    expect(account.verification_uri_complete).toContain('/activate');
    await owner.post('/devices/activate/', { user_code: account.user_code, name: 'Studio workstation', approve: true }).expect(200);
    await subject.until((s) => s.account.status === 'signed-in' && s.connection === 'online', 15_000, 'sign-in');
    return subject;
  }

  it('answers only the holder of this launch’s secret, only on loopback, and refuses other sites’ writes', async () => {
    const subject = await host();
    const stateUrl = `${subject.control.origin}/host/state`;
    expect((await fetch(stateUrl)).status).toBe(401);
    expect((await fetch(`${subject.control.origin}/?launch=guess`, { redirect: 'manual' })).status).toBe(401);
    expect((await fetch(stateUrl, { headers: { Authorization: `Bearer ${subject.control.secret}` } })).status).toBe(200);
    // fetch will not send another Host header; a DNS-rebinding page's request would.
    const rebinding = await new Promise<number>((resolve, reject) =>
      get(stateUrl, { headers: { Authorization: `Bearer ${subject.control.secret}`, Host: 'evil.example:80' } }, (response) => {
        response.resume();
        resolve(response.statusCode!);
      }).on('error', reject),
    );
    expect(rebinding).toBe(421);
    const forged = await fetch(`${subject.control.origin}/host/sign-out`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${subject.control.secret}`, Origin: 'https://evil.example' },
    });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toEqual({ message: 'Requests from other sites are refused.' });
    expect((await subject.state()).account).toEqual({ status: 'signed-out', message: null });
  });

  it('signs in by the device code, pins the keys, keeps the signed plan on disk for the owner only, and resumes after a restart', async () => {
    const owner = await world.customer();
    const subject = await signedIn(owner);
    const state = await subject.state();
    expect(state.entitlements).toMatchObject({ status: 'valid', plan: { slug: 'free' } });
    expect(state.serving).toEqual({ allowed: true, reason: null });
    for (const file of ['account.json', 'trust.json', 'entitlements.json'])
      expect((await stat(join(subject.dataDir, file))).mode & 0o777).toBe(0o600);
    const devices = (await owner.get('/devices/').expect(200)).body.devices as { name: string; status: string }[];
    expect(devices).toEqual([expect.objectContaining({ name: 'Studio workstation', status: 'active' })]);

    // The plan it holds as it stops: a newer document may have arrived since `state` was read.
    const heldSeq = subject.host.state().entitlements!.seq;
    await subject.close({ keepData: true });
    hosts.splice(hosts.indexOf(subject), 1);
    const again = await host(world.base, { dataDir: subject.dataDir, fingerprint: subject.fingerprint });
    expect(again.host.state().entitlements?.seq).toBe(heldSeq);
    await again.until((s) => s.connection === 'online', 10_000, 'reconnection');
  });

  it('signs in with email and password when the person cannot open /activate, and says why a wrong password fails', async () => {
    const owner = await world.customer();
    const subject = await host();
    // A command it cannot do yet: the refusal's code beside its English.
    expect(await subject.call('POST', '/host/models/download', { name: 'smollm2' })).toMatchObject({
      status: 400,
      body: { message: 'Sign in to download models.', code: 'sign_in_to_download' },
    });
    const wrong = await subject.call('POST', '/host/sign-in/password', { email: owner.email, password: 'not-the-password' });
    expect(wrong.status).toBeGreaterThanOrEqual(400);
    expect(wrong.status).toBeLessThan(500);
    expect(wrong.body.message).toEqual(expect.any(String));
    const invalid = await subject.call('POST', '/host/sign-in/password', { email: 'nobody' });
    expect(invalid).toMatchObject({ status: 400, body: { errors: expect.objectContaining({ password: expect.any(Array) }) } });

    const right = await subject.call('POST', '/host/sign-in/password', { email: owner.email, password: TEST_PASSWORD });
    expect(right).toMatchObject({ status: 200, body: { account: { status: 'signed-in', device_name: 'Test host' } } });
    expect((await subject.state()).entitlements?.plan.slug).toBe('free');
  });

  it('applies a plan change from the stream at once', async () => {
    const owner = await world.customer();
    const subject = await signedIn(owner);
    const started = Date.now();
    await world.subscribe(owner, 'pro');
    const state = await subject.until((s) => s.entitlements?.plan.slug === 'pro', 10_000, 'the Pro plan');
    expect(state.entitlements?.status).toBe('valid');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('keeps serving offline until the grace ends, then refuses with a clear message, and resumes when the api is back', async () => {
    const owner = await world.customer();
    const relay = await apiRelay(Number(new URL(world.base).port));
    try {
      const subject = await signedIn(owner, relay.base);
      relay.cut();
      await subject.until((s) => s.connection === 'offline', 10_000, 'offline');
      // A restart while the api is unreachable still knows the plan.
      await subject.close({ keepData: true });
      hosts.splice(hosts.indexOf(subject), 1);
      const offline = await host(relay.base, { dataDir: subject.dataDir, fingerprint: subject.fingerprint });
      const now = offline.host.state();
      expect(now).toMatchObject({ connection: expect.stringMatching(/offline|connecting/), serving: { allowed: true } });
      const graceUntil = Date.parse(now.entitlements!.grace_until);
      const inGrace = offline.host.state(new Date(Date.parse(now.entitlements!.expires_at) + 60_000));
      expect(inGrace.entitlements).toMatchObject({ status: 'in-grace' });
      expect(inGrace.serving.allowed).toBe(true);
      expect(inGrace.entitlements!.seconds_left).toBeGreaterThan(0);
      const after = offline.host.state(new Date(graceUntil + 1000));
      expect(after.entitlements).toMatchObject({ status: 'expired', seconds_left: 0 });
      expect(after.serving).toEqual({
        allowed: false,
        reason: { code: 'plan_expired', since: after.entitlements!.expires_at.slice(0, 10) },
      });

      relay.restore();
      offline.host['session']?.stream.retryNow();
      await offline.until((s) => s.connection === 'online', 15_000, 'reconnection');
    } finally {
      await relay.close();
    }
  });

  it('signs out at once when the owner revokes the device, and forgets its tokens', async () => {
    const owner = await world.customer();
    const subject = await signedIn(owner);
    const deviceId = (subject.host.state().account as { device_id: string }).device_id;
    await owner.post(`/devices/${deviceId}/revoke/`).expect(200);
    const state = await subject.until((s) => s.account.status === 'signed-out', 10_000, 'sign-out');
    // The stream's revocation, or the api refusing the tokens, whichever the device hears first.
    expect(state.account).toEqual({
      status: 'signed-out',
      message: expect.objectContaining({ code: expect.stringMatching(/^(device_signed_out|session_ended)$/) }),
    });
    expect(state.serving.allowed).toBe(false);
    await expect(stat(join(subject.dataDir, 'account.json'))).rejects.toThrow(/ENOENT/);
    expect(
      (await DesktopRuntime.open({ dataDir: subject.dataDir, api: world.base, deviceName: 'x', fingerprint: 'y', version: '0' })).state()
        .account.status,
    ).toBe('signed-out');
  });
});
