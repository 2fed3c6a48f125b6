import request from 'supertest';
import { type EntitlementDocument, verifyEntitlementToken } from '@meshwork/contracts';
import { signedInDevice, type SignedInDevice } from '../testing/membership-kit';
import { networksWorld, type NetworksWorld } from '@meshwork/testkit/api/network-kit';

/**
 * Issue 31, item 2: the api vouches for a network's host. The host device registers its LAN
 * certificate when it becomes the host; every device of the account, one that never joined
 * included, finds it in its signed document, so it can tell the real host's announcements
 * from a copy on the LAN.
 */
describe("the api vouching for a network host's certificate", () => {
  let world: NetworksWorld;
  let model: string;
  const certificate = 'ab'.repeat(32);

  beforeAll(async () => {
    world = await networksWorld();
    model = (await world.model(['free', 'pro'])).name;
  });
  afterAll(() => world.close());

  /** The device's document, checked as the desktop host checks it. */
  async function documentOf(device: SignedInDevice): Promise<EntitlementDocument> {
    const { body } = await device.get('/devices/entitlements/').expect(200);
    const keys = (await request(world.subject.app.getHttpServer()).get('/api/v1/devices/keys/').expect(200)).body;
    const verdict = await verifyEntitlementToken(body.token, keys, new Date(), { issuer: world.base, deviceId: device.id });
    if (verdict.status === 'rejected') throw new Error(`refused: ${verdict.message}`);
    return verdict.document;
  }

  it('records the certificate the host device registers and names it in every device’s signed document', async () => {
    const owner = await world.customer();
    const network = await world.create(owner, 'office', model);
    const [host, stranger] = [
      await signedInDevice(world.subject.app, owner, 'Studio'),
      await signedInDevice(world.subject.app, owner, 'Laptop'),
    ];
    const before = await documentOf(stranger);
    expect(before.hosts).toBeUndefined();

    const hosted = await host.post(`/networks/${network.id}/host/`, { device_id: host.id, certificate_sha256: certificate }).expect(200);
    expect(hosted.body).toMatchObject({ host: host.id, host_certificate_sha256: certificate });
    expect((await owner.get(`/networks/${network.id}/`).expect(200)).body.host_certificate_sha256).toBe(certificate);

    // The laptop never joined: no network entry, but the host's certificate, and a new revision.
    const vouched = await documentOf(stranger);
    expect(vouched.networks).toEqual([]);
    expect(vouched.hosts).toEqual([{ id: network.id, certificate_sha256: certificate }]);
    expect(vouched.seq).toBeGreaterThan(before.seq);
    expect((await documentOf(host)).hosts).toEqual([{ id: network.id, certificate_sha256: certificate }]);
    // Asked again, nothing changed: the same revision.
    expect((await documentOf(stranger)).seq).toBe(vouched.seq);

    // The owner on the site assigning the same host again keeps the certificate; a new one replaces it.
    await owner.post(`/networks/${network.id}/host/`, { device_id: host.id }).expect(200);
    expect((await documentOf(stranger)).hosts).toEqual([{ id: network.id, certificate_sha256: certificate }]);
    const renewed = 'cd'.repeat(32);
    await host.post(`/networks/${network.id}/host/`, { device_id: host.id, certificate_sha256: renewed }).expect(200);
    expect((await documentOf(stranger)).hosts).toEqual([{ id: network.id, certificate_sha256: renewed }]);

    // Released, the api vouches for no host of the network.
    await request(world.subject.app.getHttpServer())
      .delete(`/api/v1/networks/${network.id}/host/`)
      .set('Authorization', `Bearer ${owner.token}`)
      .expect(200);
    expect((await owner.get(`/networks/${network.id}/`).expect(200)).body).toMatchObject({ host: null, host_certificate_sha256: null });
    expect((await documentOf(stranger)).hosts).toBeUndefined();
  });

  it('refuses a malformed fingerprint with a field error, and one named by anyone but the host device itself', async () => {
    const owner = await world.customer();
    const network = await world.create(owner, 'office', model);
    const [host, other] = [
      await signedInDevice(world.subject.app, owner, 'Studio'),
      await signedInDevice(world.subject.app, owner, 'Laptop'),
    ];
    for (const bad of ['AB'.repeat(32), 'ab'.repeat(31), `${'ab'.repeat(32)}0`, 'zz'.repeat(32), 42]) {
      const refused = await host.post(`/networks/${network.id}/host/`, { device_id: host.id, certificate_sha256: bad }).expect(400);
      expect(refused.body.errors).toEqual({ certificate_sha256: [expect.stringMatching(/Certificate fingerprint must be/)] });
    }
    const bySite = await owner.post(`/networks/${network.id}/host/`, { device_id: host.id, certificate_sha256: certificate }).expect(400);
    expect(bySite.body.errors).toEqual({
      certificate_sha256: ['Only the host device itself can register its certificate, from its own session.'],
    });
    await other.post(`/networks/${network.id}/host/`, { device_id: host.id, certificate_sha256: certificate }).expect(400);
    expect((await owner.get(`/networks/${network.id}/`).expect(200)).body).toMatchObject({ host: null, host_certificate_sha256: null });
  });
});
