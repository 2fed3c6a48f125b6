import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { registerAccount, registerCustomer, TEST_PASSWORD } from '@meshwork/testkit/api/accounts';
import { eventually } from '@meshwork/testkit/eventually';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';
import { DeviceDirectory } from '../application/devices/device-directory';
import { deviceHost, signInDevice } from '@meshwork/testkit/api/devices';

/**
 * A customer's devices: listed, renamed, revoked by their owner or by staff. Revoking ends
 * the device's access at once on every api instance (two here, on one database).
 */
describe('devices: list, rename, revoke across api instances', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await startTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
    second = await startTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '1000' }, first);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const on = (instance: TestApp) => request(instance.app.getHttpServer());
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  /** A device signed in, its access token seen (and so cached) by the second instance. */
  async function cachedDevice() {
    const owner = await registerCustomer(first.app);
    const tokens = await signInDevice(deviceHost(first.app), owner);
    await on(second).get('/api/v1/profile/').set(bearer(tokens.access_token)).expect(200);
    await on(second).get('/api/v1/profile/').set(bearer(tokens.access_token)).expect(200);
    return { owner, tokens };
  }

  it("the owner's revocation ends the device's access at once here and on the other instance", async () => {
    const { owner, tokens } = await cachedDevice();
    await owner.post(`/devices/${tokens.device_id}/revoke/`).expect(200);
    await on(first).get('/api/v1/profile/').set(bearer(tokens.access_token)).expect(401);
    await eventually(
      async () => (await on(second).get('/api/v1/profile/').set(bearer(tokens.access_token))).status === 401,
      'the second instance to refuse the device',
    );
    expect((await deviceHost(second.app).refresh(tokens.refresh_token).expect(400)).body.error).toBe('invalid_grant');
    expect((await owner.get('/devices/').expect(200)).body.devices).toEqual([
      expect.objectContaining({ id: tokens.device_id, status: 'revoked' }),
    ]);
    // The owner's own web session is untouched, and revoking again changes nothing.
    await owner.post(`/devices/${tokens.device_id}/revoke/`).expect(200);
  });

  it("staff revoke a customer's device from the console, recorded with the staff member as actor", async () => {
    const staff = await registerAccount(first.app, 'staff', randomUUID().slice(0, 8), true);
    const { owner, tokens } = await cachedDevice();
    // The console's path, and the older one kept as an alias: both routed, both for staff only.
    await on(first).get(`/api/v1/admin-panel/users/${owner.userId}/devices/`).set(bearer(owner.token)).expect(403);
    await on(first).get(`/api/v1/admin/users/${owner.userId}/devices/`).set(bearer(owner.token)).expect(403);
    const listed = await on(second).get(`/api/v1/admin-panel/users/${owner.userId}/devices/`).set(bearer(staff.tokens.access)).expect(200);
    expect(listed.body.devices).toEqual([
      expect.objectContaining({ id: tokens.device_id, user_id: owner.userId, status: 'active', revoked_by: null }),
    ]);

    await on(first).post(`/api/v1/admin-panel/devices/${tokens.device_id}/revoke/`).set(bearer(staff.tokens.access)).expect(200);
    await eventually(
      async () => (await on(second).get('/api/v1/profile/').set(bearer(tokens.access_token))).status === 401,
      'the second instance to refuse the device',
    );
    const [row] = await first.app.get(DeviceDirectory).devicesOf(owner.userId);
    expect(row).toEqual(expect.objectContaining({ status: 'revoked', revoked_by: 'staff', revoked_at: expect.any(String) }));
    const { rows } = await first.db.pool.query<{ revoked_by_user_id: string }>(
      'SELECT revoked_by_user_id FROM rm_devices.devices WHERE id = $1',
      [tokens.device_id],
    );
    expect(rows).toEqual([{ revoked_by_user_id: staff.user.id }]);
    await on(first).post(`/api/v1/admin-panel/devices/${randomUUID()}/revoke/`).set(bearer(staff.tokens.access)).expect(404);
  });

  it('a web sign-out leaves the devices signed in', async () => {
    const { owner, tokens } = await cachedDevice();
    await on(second).post('/api/v1/logout/').set(bearer(owner.token)).send({}).expect(200);
    await owner.get('/devices/').expect(401);
    await on(second).get('/api/v1/devices/').set(bearer(tokens.access_token)).expect(200);
    await deviceHost(first.app).refresh(tokens.refresh_token).expect(200);
  });

  it('a password change ends the devices too (a reset after a compromise leaves no stranger signed in)', async () => {
    const { owner, tokens } = await cachedDevice();
    await owner.post('/change-password/', { old_password: TEST_PASSWORD, new_password: 'N3wPassword!' }).expect(200);
    await eventually(
      async () => (await on(second).get('/api/v1/profile/').set(bearer(tokens.access_token))).status === 401,
      'the second instance to refuse the device',
    );
    expect((await deviceHost(first.app).refresh(tokens.refresh_token).expect(400)).body.error).toBe('invalid_grant');
  });

  it("renames the owner's device; someone else's device is not found", async () => {
    const { owner, tokens } = await cachedDevice();
    const stranger = await registerCustomer(first.app);
    await owner.post(`/devices/${tokens.device_id}/rename/`, { name: '  Render node  ' }).expect(200);
    expect((await owner.get('/devices/').expect(200)).body.devices[0].name).toBe('Render node');
    await owner.post(`/devices/${tokens.device_id}/rename/`, { name: '' }).expect(400);
    await stranger.post(`/devices/${tokens.device_id}/rename/`, { name: 'Mine' }).expect(404);
    await stranger.post(`/devices/${tokens.device_id}/revoke/`).expect(404);
    expect(await first.app.get(DeviceDirectory).ownedActiveDevice(stranger.userId, tokens.device_id)).toBe(false);
    expect(await first.app.get(DeviceDirectory).ownedActiveDevice(owner.userId, tokens.device_id)).toBe(true);
  });

  it('the same machine approved again after its revocation becomes a new device', async () => {
    const owner = await registerCustomer(first.app);
    const host = deviceHost(first.app);
    const before = await signInDevice(host, owner, 'Old name');
    await owner.post(`/devices/${before.device_id}/revoke/`).expect(200);
    expect(await first.app.get(DeviceDirectory).ownedActiveDevice(owner.userId, before.device_id)).toBe(false);
    const after = await signInDevice(host, owner, 'New name');
    expect(after.device_id).not.toBe(before.device_id);
    const names = (await owner.get('/devices/').expect(200)).body.devices.map((d: { name: string; status: string }) => [d.name, d.status]);
    expect(names.sort()).toEqual([
      ['New name', 'active'],
      ['Old name', 'revoked'],
    ]);
  });
});
