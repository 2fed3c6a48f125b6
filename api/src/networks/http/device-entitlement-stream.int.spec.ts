import { CommandBus } from '@nestjs/cqrs';
import {
  ENTITLEMENT_STREAM_RETRY_MS,
  EntitlementRevocation,
  type EntitlementDocument,
  SignedEntitlements,
  verifyEntitlementToken,
} from '@meshwork/contracts';
import { UpdatePlan } from '../../billing';
import { eventually } from '@meshwork/testkit/eventually';
import { TEST_PASSWORD, type TestCustomer } from '@meshwork/testkit/api/accounts';
import { freePort } from '@meshwork/testkit/browser';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';
import { EntitlementStreamTail } from '../application/entitlement-stream/entitlement-stream.tail';
import { deviceHost, expiringAccessToken, signInDevice } from '@meshwork/testkit/api/devices';
import { type EntitlementStreamClient, openEntitlementStream, type StreamEvent } from '../testing/entitlement-stream-client';
import { networksWorld, type NetworksWorld } from '@meshwork/testkit/api/network-kit';

/** Issue 12, section 3: GET /devices/entitlements/stream, on one api instance and across two. */
describe('the live entitlement stream', () => {
  let world: NetworksWorld;
  let second: TestApp;
  let secondBase: string;
  const open: EntitlementStreamClient[] = [];

  beforeAll(async () => {
    world = await networksWorld();
    const port = await freePort();
    secondBase = `http://127.0.0.1:${port}`;
    second = await startTestApp({ STRIPE_SECRET_KEY: '', AUTH_RATE_LIMIT_PER_MINUTE: '1000', PUBLIC_URL: world.base }, world.subject);
    await second.app.listen(port, '127.0.0.1');
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await second?.close();
    await world?.close();
  });

  async function stream(base: string, accessToken: string, lastEventId?: string): Promise<EntitlementStreamClient> {
    const client = await openEntitlementStream(base, accessToken, lastEventId);
    open.push(client);
    return client;
  }

  /** The event's document, checked the way the desktop host will. */
  async function verified(event: StreamEvent, deviceId: string): Promise<EntitlementDocument> {
    const { token } = SignedEntitlements.parse(JSON.parse(event.data!));
    const keys = (await (await fetch(`${world.base}/api/v1/devices/keys/`)).json()) as unknown;
    const verdict = await verifyEntitlementToken(token, keys, new Date(), { issuer: world.base, deviceId });
    if (verdict.status === 'rejected') throw new Error(`refused: ${verdict.message}`);
    if (event.id !== undefined) expect(event.id).toBe(String(verdict.document.seq));
    return verdict.document;
  }

  async function signedInDevice(owner?: TestCustomer) {
    const user = owner ?? (await world.customer());
    const device = await signInDevice(deviceHost(world.subject.app), user);
    return { user, device };
  }

  it('sends retry, then the current document, then a new one when the plan changes; a staff edit of another plan sends nothing', async () => {
    const { user, device } = await signedInDevice();
    const host = await stream(world.base, device.access_token);
    expect(host.status).toBe(200);
    expect(host.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect((await host.next('retry')).retry).toBe(ENTITLEMENT_STREAM_RETRY_MS);
    const first = await verified(await host.next('entitlements'), device.device_id);
    expect(first).toMatchObject({ sub: device.device_id, user_id: user.userId, plan: { slug: 'free', max_networks: 1 } });

    // Staff edit Pro: a Free customer's document does not change, so nothing is sent.
    const { user: proUser, device: proDevice } = await signedInDevice(await world.customer('pro'));
    const pro = await stream(world.base, proDevice.access_token);
    expect((await verified(await pro.next('entitlements'), proDevice.device_id)).plan).toMatchObject({ slug: 'pro', max_networks: 5 });
    await world.subject.app.get(CommandBus).execute(new UpdatePlan('pro', { max_networks: 6 }, new Date()));
    const edited = await verified(await pro.next('entitlements'), proDevice.device_id);
    expect(edited).toMatchObject({ user_id: proUser.userId, plan: { slug: 'pro', max_networks: 6 } });
    await world.subject.app.get(CommandBus).execute(new UpdatePlan('pro', { max_networks: 5 }, new Date()));
    expect((await verified(await pro.next('entitlements'), proDevice.device_id)).plan.max_networks).toBe(5);

    await world.subscribe(user, 'pro');
    const upgraded = await verified(await host.next('entitlements'), device.device_id);
    expect(upgraded.plan).toMatchObject({ slug: 'pro', max_networks: 5, max_clients_per_network: 10 });
    expect(upgraded.seq).toBeGreaterThan(first.seq);
    // Two plan edits and an upgrade later, the Free-then-Pro host got exactly two documents.
    expect(host.all('entitlements')).toHaveLength(2);
  });

  it('sends the document again when the customer’s networks change: a network this device hosts', async () => {
    const model = await world.model(['free', 'pro']);
    const { user, device } = await signedInDevice();
    const host = await stream(world.base, device.access_token);
    expect((await verified(await host.next('entitlements'), device.device_id)).networks).toEqual([]);

    const network = await world.create(user, 'Studio', model.name);
    await user.post(`/networks/${network.id}/host/`, { device_id: device.device_id }).expect(200);
    const hosting = await verified(await host.next('entitlements'), device.device_id);
    expect(hosting.networks).toEqual([
      { id: network.id, name: 'Studio', role: 'host', model: model.name, max_clients: 2, status: 'active' },
    ]);
    expect(hosting.models.map((m) => m.name)).toContain(model.name);
  });

  it('follows a model’s access and status: opened to the plan, then deactivated (the plan-models cache is not trusted past them)', async () => {
    const model = await world.model(['pro']);
    const { device } = await signedInDevice();
    const host = await stream(world.base, device.access_token);
    expect((await verified(await host.next('entitlements'), device.device_id)).models.map((m) => m.name)).not.toContain(model.name);

    await world.staff('PUT', `/models/admin/${model.id}/access/`, { allowed_plans: ['free', 'pro'] });
    const opened = await verified(await host.next('entitlements'), device.device_id);
    expect(opened.models.find((m) => m.name === model.name)).toMatchObject({ version: '1.0.0', manifest_sha256: expect.any(String) });

    await world.staff('PATCH', `/models/admin/${model.id}/`, { status: 'inactive' });
    expect((await verified(await host.next('entitlements'), device.device_id)).models.map((m) => m.name)).not.toContain(model.name);
    // GET /devices/entitlements/ shares the cache, and agrees.
    const answer = await fetch(`${world.base}/api/v1/devices/entitlements/`, {
      headers: { Authorization: `Bearer ${device.access_token}` },
    });
    const fetched = await verified({ event: 'entitlements', data: await answer.text() }, device.device_id);
    expect(fetched.models.map((m) => m.name)).not.toContain(model.name);
  });

  it('skips the first document when Last-Event-ID is already at its seq, whatever else the log saw meanwhile, and sends it when older', async () => {
    const { user, device } = await signedInDevice();
    const tail = world.subject.app.get(EntitlementStreamTail);
    const before = tail.openStreams;
    const first = await stream(world.base, device.access_token);
    const held = await first.next('entitlements');
    expect(tail.openStreams).toBe(before + 1);
    await first.close();
    // The host went away: its stream is let go.
    await eventually(async () => tail.openStreams === before, 'the closed stream let go');
    // Other customers' events move every read model on; this device's document is the same.
    await world.subscribe(await world.customer(), 'pro');

    const resumed = await stream(world.base, device.access_token, held.id);
    await resumed.next('retry');
    // The next change is the first document the resumed host gets: the unchanged one was skipped.
    await world.subscribe(user, 'pro');
    const upgraded = await resumed.next('entitlements');
    expect((await verified(upgraded, device.device_id)).plan.slug).toBe('pro');
    expect(Number(upgraded.id)).toBeGreaterThan(Number(held.id));
    expect(resumed.all('entitlements')).toHaveLength(1);

    const behind = await stream(world.base, device.access_token, String(Number(held.id) - 1));
    expect((await verified(await behind.next('entitlements'), device.device_id)).sub).toBe(device.device_id);
  });

  it('gives an unchanged document the same seq however far the log has moved, on either api instance', async () => {
    const { device } = await signedInDevice();
    const fetchSeq = async (base: string) => {
      const answer = await fetch(`${base}/api/v1/devices/entitlements/`, { headers: { Authorization: `Bearer ${device.access_token}` } });
      return (await verified({ event: 'entitlements', data: await answer.text() }, device.device_id)).seq;
    };
    const seq = await fetchSeq(world.base);
    await world.subscribe(await world.customer(), 'pro');
    expect(await fetchSeq(secondBase)).toBe(seq);
    expect(await fetchSeq(world.base)).toBe(seq);
  });

  it('tells a revoked device and closes its stream', async () => {
    const { user, device } = await signedInDevice();
    const host = await stream(world.base, device.access_token);
    await host.next('entitlements');
    await user.post(`/devices/${device.device_id}/revoke/`).expect(200);
    const revoked = EntitlementRevocation.parse(JSON.parse((await host.next('revoked')).data!));
    expect(revoked.reason).toBe('device_revoked');
    expect(Date.parse(revoked.revoked_at)).not.toBeNaN();
    await host.ended(5_000);
  });

  it('closes the streams of a customer whose sessions all end (a password change signs devices out too)', async () => {
    const { user, device } = await signedInDevice();
    const host = await stream(world.base, device.access_token);
    await host.next('entitlements');
    await user.post('/change-password/', { old_password: TEST_PASSWORD, new_password: 'An0therStr0ngOne' }).expect(200);
    await host.ended(5_000);
    expect(host.all('revoked')).toEqual([]);
    expect(
      (await fetch(`${world.base}/api/v1/devices/entitlements/stream`, { headers: { Authorization: `Bearer ${device.access_token}` } }))
        .status,
    ).toBe(401);
  });

  it('tells a device revoked while its stream was opening (after the guard, before the tail knew the stream)', async () => {
    const { user, device } = await signedInDevice();
    await user.post(`/devices/${device.device_id}/revoke/`).expect(200);
    const written: string[] = [];
    let ended = false;
    world.subject.app.get(EntitlementStreamTail).open({ userId: user.userId, deviceId: device.device_id }, null, {
      write: (chunk) => written.push(chunk),
      end: () => (ended = true),
    });
    await eventually(async () => ended, 'the stream closed');
    expect(written.join('')).toMatch(/event: revoked\ndata: \{"reason":"device_revoked"/);
  });

  it('lives no longer than its access token: `expired`, then the end; a fresh token streams again', async () => {
    const { device } = await signedInDevice();
    const shortLived = expiringAccessToken(world.subject.app, device, 4);
    const host = await stream(world.base, shortLived);
    await host.next('entitlements');
    const expired = await host.next('expired', 15_000);
    expect(expired.data).toBe('{}');
    await host.ended(5_000);
    // Ended because the token no longer opens anything; the device's session goes on.
    expect(
      (await fetch(`${world.base}/api/v1/devices/entitlements/stream`, { headers: { Authorization: `Bearer ${shortLived}` } })).status,
    ).toBe(401);
    const again = await stream(world.base, device.access_token);
    await again.next('entitlements');
    expect(again.all('expired')).toEqual([]);
  });

  it('refuses a web session (403) and anyone signed out (401)', async () => {
    const user = await world.customer();
    const web = await user.get('/devices/entitlements/stream').expect(403);
    expect(web.body.message).toMatch(/signed-in devices/);
    expect((await fetch(`${world.base}/api/v1/devices/entitlements/stream`)).status).toBe(401);
  });

  it('reaches a device streaming from another api instance: a change committed on the first, a revocation too', async () => {
    const { user, device } = await signedInDevice();
    const elsewhere = await stream(secondBase, device.access_token);
    const before = await verified(await elsewhere.next('entitlements'), device.device_id);
    expect(before.plan.slug).toBe('free');

    await world.subscribe(user, 'pro'); // through the first instance
    expect((await verified(await elsewhere.next('entitlements'), device.device_id)).plan.slug).toBe('pro');

    await user.post(`/devices/${device.device_id}/revoke/`).expect(200);
    await elsewhere.next('revoked');
    await elsewhere.ended(5_000);
  });
});
