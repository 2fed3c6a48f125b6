import { randomUUID } from 'node:crypto';
import type { JoinCode, Network } from '@meshwork/contracts';
import { eventually } from '@meshwork/testkit/eventually';
import { DeviceClock } from '../application/devices/device-clock';
import { JOIN_ATTEMPTS_PER_MINUTE } from '../application/membership/join-attempts';
import { hostWithCode, join, signedInDevice } from '../testing/membership-kit';
import { networksWorld, type NetworksWorld } from '@meshwork/testkit/api/network-kit';

/** Issue 12, section 2: a network's host, its join codes, and client devices joining under the plan's cap. */
describe('network membership calls', () => {
  let world: NetworksWorld;
  let model: string;

  beforeAll(async () => {
    world = await networksWorld();
    model = (await world.model(['free', 'pro'])).name;
  });
  afterAll(() => world.close());

  const device = (owner: Parameters<typeof signedInDevice>[1], name?: string) => signedInDevice(world.subject.app, owner, name);
  const clients = (network: Network) => network.clients.devices.map((c) => c.device_id);

  it('assigns a host, issues a code the host shows, and lets two clients join on Free but not a third', async () => {
    const owner = await world.customer();
    const network = await world.create(owner, 'office', model);
    const [host, a, b, c] = [await device(owner, 'Server'), await device(owner), await device(owner), await device(owner)];

    const hosted = await owner.post(`/networks/${network.id}/host/`, { device_id: host.id }).expect(200);
    expect(hosted.body).toMatchObject({ id: network.id, host: host.id, clients: { count: 0, devices: [] } });
    const issued = (await host.post(`/networks/${network.id}/join-code/`).expect(200)).body as JoinCode;
    expect(issued.code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(Date.parse(issued.expires_at) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(Date.parse(issued.expires_at) - Date.now()).toBeLessThanOrEqual(15 * 60_000);

    expect(clients(await join(a, issued.code))).toEqual([a.id]);
    // Typed loosely (lower case, no dash), as a person reads it out.
    expect(clients(await join(b, issued.code.replace('-', '').toLowerCase()))).toEqual([a.id, b.id]);
    expect(clients(await join(a, issued.code))).toEqual([a.id, b.id]);
    const refused = await c.post('/networks/join/', { code: issued.code }).expect(403);
    expect(refused.body).toEqual({ message: 'Your Free plan allows 2 clients per network. Upgrade to add more.' });
    expect((await owner.get(`/networks/${network.id}/`).expect(200)).body).toMatchObject({ host: host.id, clients: { count: 2 } });
  });

  it('refuses a join from a web session, a wrong code, a host joining itself, and a code from another device than the host', async () => {
    const owner = await world.customer();
    const network = await world.create(owner, 'office', model);
    const [host, other] = [await device(owner), await device(owner)];
    const { code } = await hostWithCode(owner, network.id, host);

    expect((await owner.post('/networks/join/', { code }).expect(403)).body).toEqual({
      message: 'Join from the Meshwork app on the device that joins.',
    });
    expect((await other.post('/networks/join/', { code: 'BCDF-GHJK' }).expect(400)).body).toMatchObject({
      errors: { code: ['This join code is invalid or has expired.'] },
    });
    await other.post('/networks/join/', { code: 'not a code' }).expect(400);
    expect((await host.post('/networks/join/', { code }).expect(409)).body.message).toBe("This device is the network's host.");
    expect((await other.post(`/networks/${network.id}/join-code/`).expect(403)).body.message).toBe(
      "Only the network's host device, or you on the site, can issue a join code.",
    );
    // A new code replaces the one before.
    const fresh = (await owner.post(`/networks/${network.id}/join-code/`).expect(200)).body as JoinCode;
    if (fresh.code !== code) await other.post('/networks/join/', { code }).expect(400);
    expect(clients(await join(other, fresh.code))).toEqual([other.id]);
  });

  it("refuses someone else's device or a revoked one as host, a second host, and a code before any host", async () => {
    const owner = await world.customer();
    const network = await world.create(owner, 'office', model);
    await owner.post(`/networks/${network.id}/join-code/`).expect(409);
    const stranger = await world.customer();
    const theirs = await device(stranger);
    expect((await owner.post(`/networks/${network.id}/host/`, { device_id: theirs.id }).expect(404)).body.message).toBe(
      'Device not found.',
    );
    await owner.post(`/networks/${network.id}/host/`, { device_id: randomUUID() }).expect(404);
    await owner.post(`/networks/${network.id}/host/`, { device_id: 'nope' }).expect(400);

    const revoked = await device(owner);
    await owner.post(`/devices/${revoked.id}/revoke/`).expect(200);
    expect((await owner.post(`/networks/${network.id}/host/`, { device_id: revoked.id }).expect(409)).body.message).toMatch(/revoked/);

    const [first, second] = [await device(owner), await device(owner)];
    await owner.post(`/networks/${network.id}/host/`, { device_id: first.id }).expect(200);
    await owner.post(`/networks/${network.id}/host/`, { device_id: first.id }).expect(200);
    expect((await owner.post(`/networks/${network.id}/host/`, { device_id: second.id }).expect(409)).body.message).toBe(
      'This network already has a host.',
    );
  });

  it('releases the host: clients stay, the old code stops working, a new host can be assigned', async () => {
    const owner = await world.customer();
    const network = await world.create(owner, 'office', model);
    const [host, client, late, next] = [await device(owner), await device(owner), await device(owner), await device(owner)];
    const { code } = await hostWithCode(owner, network.id, host);
    await join(client, code);

    const released = await world.remove(owner, `/networks/${network.id}/host/`).expect(200);
    expect(released.body).toMatchObject({ host: null, clients: { count: 1 } });
    await world.remove(owner, `/networks/${network.id}/host/`).expect(200);
    await late.post('/networks/join/', { code }).expect(400);
    const rehosted = await owner.post(`/networks/${network.id}/host/`, { device_id: next.id }).expect(200);
    expect(rehosted.body).toMatchObject({ host: next.id, clients: { count: 1 } });
  });

  it('lets a client leave and the owner remove one; the freed place can be taken again', async () => {
    const owner = await world.customer();
    const network = await world.create(owner, 'office', model);
    const [host, a, b, c] = [await device(owner), await device(owner), await device(owner), await device(owner)];
    const { code } = await hostWithCode(owner, network.id, host);
    await join(a, code);
    await join(b, code);

    expect(clients((await a.post(`/networks/${network.id}/leave/`).expect(200)).body as Network)).toEqual([b.id]);
    await a.post(`/networks/${network.id}/leave/`).expect(200);
    expect((await owner.post(`/networks/${network.id}/leave/`).expect(403)).body.message).toMatch(/Meshwork app/);
    expect((await host.post(`/networks/${network.id}/leave/`).expect(409)).body.message).toMatch(/release the host/);

    const removed = await world.remove(owner, `/networks/${network.id}/clients/${b.id}/`).expect(200);
    expect(clients(removed.body as Network)).toEqual([]);
    await world.remove(owner, `/networks/${network.id}/clients/not-an-id/`).expect(400);
    expect(clients(await join(c, code))).toEqual([c.id]);
    expect(clients(await join(a, code))).toEqual([c.id, a.id]);
  });

  it("answers another customer's network as not found on every call", async () => {
    const owner = await world.customer();
    const network = await world.create(owner, 'mine', model);
    const host = await device(owner);
    const { code } = await hostWithCode(owner, network.id, host);
    const other = await world.customer();
    const theirs = await device(other);
    await other.post(`/networks/${network.id}/host/`, { device_id: theirs.id }).expect(404);
    await world.remove(other, `/networks/${network.id}/host/`).expect(404);
    await other.post(`/networks/${network.id}/join-code/`).expect(404);
    await theirs.post(`/networks/${network.id}/join-code/`).expect(404);
    await theirs.post(`/networks/${network.id}/leave/`).expect(404);
    await world.remove(other, `/networks/${network.id}/clients/${host.id}/`).expect(404);
    // The code is only looked for among the caller's own networks.
    await theirs.post('/networks/join/', { code }).expect(400);
    expect((await owner.get(`/networks/${network.id}/`).expect(200)).body).toMatchObject({ host: host.id, clients: { count: 0 } });
  });

  it('limits join attempts per device', async () => {
    const owner = await world.customer();
    const guesser = await device(owner);
    for (let i = 0; i < JOIN_ATTEMPTS_PER_MINUTE; i++) await guesser.post('/networks/join/', { code: 'BCDF-GHJK' }).expect(400);
    const refused = await guesser.post('/networks/join/', { code: 'BCDF-GHJK' }).expect(429);
    expect(refused.body.message).toMatch(/Too many join attempts/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    await (await device(owner)).post('/networks/join/', { code: 'BCDF-GHJK' }).expect(400);
  });

  it('revoking a device frees its places in every network: as host (owner on the site) and as client (staff in the console)', async () => {
    const owner = await world.customer('pro');
    const [office, lab] = [await world.create(owner, 'office', model), await world.create(owner, 'lab', model)];
    const [x, y, z] = [await device(owner, 'X'), await device(owner, 'Y'), await device(owner, 'Z')];
    const officeCode = await hostWithCode(owner, office.id, x);
    await join(z, officeCode.code);
    const labCode = await hostWithCode(owner, lab.id, y);
    await join(x, labCode.code);

    await owner.post(`/devices/${x.id}/revoke/`).expect(200);
    await world.staff('POST', `/admin/devices/${z.id}/revoke/`);
    const seats = async () =>
      (await world.list(owner)).networks.map((n) => `${n.name}:${n.host ?? '-'}:${clients(n).join(',') || '-'}`).join(' ');
    await eventually(async () => (await seats()) === `office:-:- lab:${y.id}:-`, 'the revoked devices to leave their networks');

    const { rows } = await world.subject.db.pool.query<{ type: string; data: { networkId: string; deviceId: string; cause: object } }>(
      `SELECT type, data FROM es_events WHERE stream_id = $1 AND type IN ('HostReleased', 'ClientDisconnected') ORDER BY position`,
      [`networks-${owner.userId}`],
    );
    expect(rows.map((r) => [r.type, r.data.networkId, r.data.deviceId, r.data.cause])).toEqual([
      ['HostReleased', office.id, x.id, { kind: 'device_revoked' }],
      ['ClientDisconnected', lab.id, x.id, { kind: 'device_revoked' }],
      ['ClientDisconnected', office.id, z.id, { kind: 'device_revoked' }],
    ]);
    // The place is free: a new host for the office, and the lab's code admits another device.
    const next = await device(owner);
    await owner.post(`/networks/${office.id}/host/`, { device_id: next.id }).expect(200);
    expect(clients(await join(await device(owner), labCode.code))).toHaveLength(1);
  });

  // Last: it moves this instance's device clock 15 minutes on.
  it('refuses a code once its 15 minutes are over', async () => {
    const owner = await world.customer();
    const network = await world.create(owner, 'office', model);
    const [host, client] = [await device(owner), await device(owner)];
    const { code } = await hostWithCode(owner, network.id, host);
    world.subject.app.get(DeviceClock).advance(15 * 60_000);
    expect((await client.post('/networks/join/', { code }).expect(400)).body.message).toBe('This join code is invalid or has expired.');
  });
});
