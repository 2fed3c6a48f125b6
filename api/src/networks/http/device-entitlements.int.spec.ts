import request from 'supertest';
import { type EntitlementDocument, verifyEntitlementToken } from '@meshwork/contracts';
import { registerCustomer, type TestCustomer } from '@meshwork/testkit/api/accounts';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';
import { deviceHost, signInDevice } from '@meshwork/testkit/api/devices';

const ISSUER = 'https://meshwork.example';

/** Issue 12, section 3: GET /devices/entitlements/ gives a signed-in device its document, and nobody else one. */
describe('a device’s signed entitlements', () => {
  let subject: TestApp;
  const http = () => request(subject.app.getHttpServer());

  beforeAll(async () => {
    subject = await startTestApp({ STRIPE_SECRET_KEY: '', AUTH_RATE_LIMIT_PER_MINUTE: '1000', PUBLIC_URL: ISSUER });
  });
  afterAll(() => subject.close());

  /** Fetches the device's document and checks it the way the desktop host will. */
  async function verifiedDocument(accessToken: string, deviceId: string): Promise<EntitlementDocument> {
    const { body } = await http().get('/api/v1/devices/entitlements/').set('Authorization', `Bearer ${accessToken}`).expect(200);
    const keys = (await http().get('/api/v1/devices/keys/').expect(200)).body;
    const verdict = await verifyEntitlementToken(body.token, keys, new Date(), { issuer: ISSUER, deviceId });
    if (verdict.status === 'rejected') throw new Error(`refused: ${verdict.message}`);
    return verdict.document;
  }

  async function upgradeToPro(user: TestCustomer): Promise<void> {
    const created = await user.post('/subscriptions/create/', { plan_id: 'pro' }).expect(201);
    await user.post(`/subscriptions/simulated-checkout/${String(created.body.payment_url).split('/').pop()}/complete/`).expect(200);
  }

  it('signs the plan the device’s owner is on, and a new document after the plan changes', async () => {
    const owner = await registerCustomer(subject.app);
    const device = await signInDevice(deviceHost(subject.app), owner);

    const free = await verifiedDocument(device.access_token, device.device_id);
    expect(free).toMatchObject({ sub: device.device_id, user_id: owner.userId, networks: [] });
    expect(free.plan).toMatchObject({ slug: 'free', max_networks: 1, max_clients_per_network: 2 });
    expect(free.exp - free.iat).toBe(7 * 24 * 3600);

    await upgradeToPro(owner);
    const pro = await verifiedDocument(device.access_token, device.device_id);
    expect(pro.plan).toMatchObject({ slug: 'pro', max_networks: 5, max_clients_per_network: 10 });
    // A changed document has a newer seq; the same one asked again keeps it.
    expect(pro.seq).toBeGreaterThan(free.seq);
    expect((await verifiedDocument(device.access_token, device.device_id)).seq).toBe(pro.seq);
  });

  it('refuses a web session and anyone signed out; a revoked device gets nothing more', async () => {
    const owner = await registerCustomer(subject.app);
    const web = await owner.get('/devices/entitlements/').expect(403);
    expect(web.body.message).toMatch(/signed-in devices/);
    await http().get('/api/v1/devices/entitlements/').expect(401);

    const device = await signInDevice(deviceHost(subject.app), owner);
    await owner.post(`/devices/${device.device_id}/revoke/`).expect(200);
    await http().get('/api/v1/devices/entitlements/').set('Authorization', `Bearer ${device.access_token}`).expect(401);
  });
});
