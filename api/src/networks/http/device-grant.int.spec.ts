import { EVENT_STORE, type EventStore } from '../../platform/event-store/event-store.port';
import { registerCustomer, TEST_PASSWORD } from '@meshwork/testkit/api/accounts';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';
import { DeviceClock } from '../application/devices/device-clock';
import { deviceHost, signInDevice } from '@meshwork/testkit/api/devices';

/** The device authorization grant end to end, on real PostgreSQL, as the desktop host and the site use it. */
describe('the device authorization grant (RFC 8628)', () => {
  let subject: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    subject = await startTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '1000', PUBLIC_URL: 'https://meshwork.example' });
    second = await startTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '1000', PUBLIC_URL: 'https://meshwork.example' }, subject);
  });
  afterAll(async () => {
    await second?.close();
    await subject?.close();
  });

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  it('code, pending, approval, tokens, refresh, and a reused refresh token ending the family', async () => {
    const owner = await registerCustomer(subject.app);
    const host = deviceHost(subject.app);
    const code = await host.requestCode('build-box');
    expect(code).toEqual({
      device_code: expect.stringMatching(/^[\w-]{43}$/),
      user_code: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
      verification_uri: 'https://meshwork.example/activate',
      verification_uri_complete: `https://meshwork.example/activate?user_code=${code.user_code}`,
      expires_in: 600,
      interval: 5,
    });

    const pending = await host.poll(code.device_code).expect(400);
    expect(pending.body).toEqual({ error: 'authorization_pending', error_description: expect.any(String), message: expect.any(String) });

    // Typed the way people type it: lower case, without the dash.
    const typed = code.user_code.replace('-', '').toLowerCase();
    const shown = await owner.get(`/devices/activate/?user_code=${typed}`).expect(200);
    expect(shown.body).toEqual({
      user_code: code.user_code,
      device_name: 'build-box',
      platform: 'linux',
      app_version: '1.0.0',
      requested_at: expect.any(String),
      expires_at: expect.any(String),
    });
    expect(Date.parse(shown.body.expires_at) - Date.parse(shown.body.requested_at)).toBe(600_000);
    await owner.post('/devices/activate/', { user_code: typed, name: 'Build box', approve: true }).expect(200);

    host.sixSecondsLater();
    const tokens = (await host.poll(code.device_code).expect(200)).body;
    expect(tokens).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 900,
      device_id: expect.any(String),
    });

    // The device's access token works where a signed-in user's does, and knows its device.
    const http = host.http;
    await http().get('/api/v1/plan/').set(bearer(tokens.access_token)).expect(200);
    const listed = await http().get('/api/v1/devices/').set(bearer(tokens.access_token)).expect(200);
    expect(listed.body.devices).toEqual([
      expect.objectContaining({
        id: tokens.device_id,
        name: 'Build box',
        platform: 'linux',
        app_version: '1.0.0',
        status: 'active',
        current: true,
      }),
    ]);
    expect((await owner.get('/devices/').expect(200)).body.devices[0].current).toBe(false);

    const next = (await host.refresh(tokens.refresh_token).expect(200)).body;
    expect(next).toEqual(expect.objectContaining({ device_id: tokens.device_id, token_type: 'Bearer' }));
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    await http().get('/api/v1/profile/').set(bearer(next.access_token)).expect(200);

    // The spent token again: stolen. The whole family ends, the new pair with it, and it is recorded.
    const reused = await host.refresh(tokens.refresh_token).expect(400);
    expect(reused.body).toEqual(expect.objectContaining({ error: 'invalid_grant', message: expect.any(String) }));
    await host.refresh(next.refresh_token).expect(400);
    await http().get('/api/v1/profile/').set(bearer(next.access_token)).expect(401);
    const stream = await subject.app.get<EventStore>(EVENT_STORE).readStream(`device-${tokens.device_id}`);
    expect(stream.map((e) => e.type)).toEqual(['DeviceRegistered', 'DeviceRefreshTokenReused']);
    // The name is personal: encrypted with the owner's key in the log.
    expect(JSON.stringify(stream[0]!.data)).not.toContain('Build box');
  });

  it('slow_down for a host polling faster than its interval, counted across api instances', async () => {
    // Earlier tests moved this instance's device clock: the other one catches up, as real clocks agree.
    const [clock, secondClock] = [subject.app.get(DeviceClock), second.app.get(DeviceClock)];
    secondClock.advance(clock.now().getTime() - secondClock.now().getTime());
    const host = deviceHost(subject.app);
    const code = await host.requestCode();
    await host.poll(code.device_code).expect(400);
    const onSecond = await deviceHost(second.app).poll(code.device_code).expect(400);
    expect(onSecond.body.error).toBe('slow_down');
    // The interval is now 10 seconds: 6 are not enough, 11 are.
    host.sixSecondsLater();
    expect((await host.poll(code.device_code).expect(400)).body.error).toBe('slow_down');
    host.advance(16_000);
    expect((await host.poll(code.device_code).expect(400)).body.error).toBe('authorization_pending');
  });

  it('a code expires after ten minutes: expired_token to the host, a plain refusal on /activate', async () => {
    const owner = await registerCustomer(subject.app);
    const host = deviceHost(subject.app);
    const code = await host.requestCode();
    host.advance(600_000);
    expect((await host.poll(code.device_code).expect(400)).body.error).toBe('expired_token');
    const shown = await owner.get(`/devices/activate/?user_code=${code.user_code}`).expect(400);
    expect(shown.body).toEqual({ message: expect.stringMatching(/expired/), errors: { user_code: [expect.stringMatching(/expired/)] } });
    await owner.post('/devices/activate/', { user_code: code.user_code, approve: true }).expect(400);
  });

  it('a denied request: access_denied to the host, and no second chance', async () => {
    const owner = await registerCustomer(subject.app);
    const host = deviceHost(subject.app);
    const code = await host.requestCode();
    await owner.post('/devices/activate/', { user_code: code.user_code, approve: false }).expect(200);
    expect((await host.poll(code.device_code).expect(400)).body.error).toBe('access_denied');
    await owner.post('/devices/activate/', { user_code: code.user_code, approve: true }).expect(409);
    expect((await owner.get('/devices/').expect(200)).body.devices).toEqual([]);
  });

  it('a code is used once: approved once, redeemed once', async () => {
    const owner = await registerCustomer(subject.app);
    const host = deviceHost(subject.app);
    const code = await host.requestCode();
    await owner.post('/devices/activate/', { user_code: code.user_code, approve: true }).expect(200);
    const again = await owner.post('/devices/activate/', { user_code: code.user_code, approve: true }).expect(409);
    expect(again.body.message).toBe('This code has already been used.');
    await host.poll(code.device_code).expect(200);
    host.sixSecondsLater();
    expect((await host.poll(code.device_code).expect(400)).body.error).toBe('invalid_grant');
    await owner.get(`/devices/activate/?user_code=${code.user_code}`).expect(409);
  });

  it('wrong user codes are limited per user: past ten, even the right one is refused for a while', async () => {
    const guesser = await registerCustomer(subject.app);
    const other = await registerCustomer(subject.app);
    const code = await deviceHost(subject.app).requestCode();
    for (let i = 0; i < 10; i++) {
      const wrong = await guesser.get('/devices/activate/?user_code=BBBB-BBBB').expect(400);
      expect(wrong.body.errors).toEqual({ user_code: ['That code is not valid. Check the code your device shows.'] });
    }
    const blocked = await guesser.get(`/devices/activate/?user_code=${code.user_code}`).expect(429);
    expect(blocked.headers['retry-after']).toMatch(/^\d+$/);
    expect(blocked.body.message).toMatch(/Too many wrong codes/);
    await guesser.post('/devices/activate/', { user_code: code.user_code, approve: true }).expect(429);
    // Held in PostgreSQL: the other api instance refuses too. Per user: someone else is not held back.
    await deviceHost(second.app).http().get(`/api/v1/devices/activate/?user_code=${code.user_code}`).set(bearer(guesser.token)).expect(429);
    await other.get(`/devices/activate/?user_code=${code.user_code}`).expect(200);
  });

  it('counts wrong codes sent all at once: of 100 parallel lookups and 100 parallel decisions, only the limit get an answer', async () => {
    const guesser = await registerCustomer(subject.app);
    const lookups = await Promise.all(
      Array.from({ length: 100 }, (_, i) => (i % 2 ? subject : second).app).map((app) =>
        deviceHost(app).http().get('/api/v1/devices/activate/?user_code=BBBB-BBBB').set(bearer(guesser.token)),
      ),
    );
    expect(lookups.filter((r) => r.status === 400)).toHaveLength(10);
    expect(lookups.filter((r) => r.status === 429)).toHaveLength(90);

    const decider = await registerCustomer(subject.app);
    const decisions = await Promise.all(
      Array.from({ length: 100 }, () => decider.post('/devices/activate/', { user_code: 'BBBB-BBBB', approve: true })),
    );
    expect(decisions.filter((r) => r.status === 400)).toHaveLength(10);
    expect(decisions.filter((r) => r.status === 429)).toHaveLength(90);
  });

  it('bad input gets the spec error body with OAuth codes, never a 500', async () => {
    const owner = await registerCustomer(subject.app);
    const http = deviceHost(subject.app).http;
    const missing = await http().post('/api/v1/devices/code/').type('form').send({ client_id: 'meshwork-desktop' }).expect(400);
    expect(missing.body).toEqual(
      expect.objectContaining({
        error: 'invalid_request',
        message: 'Device name is required',
        errors: expect.objectContaining({ device_name: ['Device name is required'] }),
      }),
    );
    const client = await http()
      .post('/api/v1/devices/code/')
      .send({ client_id: 'other', device_name: 'x', platform: 'linux', app_version: '1', hardware_fingerprint: 'fp' })
      .expect(400);
    expect(client.body.error).toBe('invalid_request');
    const browser = await http()
      .post('/api/v1/devices/code/')
      .send({ client_id: 'meshwork-desktop', device_name: 'x', platform: 'linux', app_version: '1', hardware_fingerprint: 'web-browser' })
      .expect(400);
    expect(browser.body.errors.hardware_fingerprint).toBeDefined();
    expect((await http().post('/api/v1/devices/token/').send({ grant_type: 'password' }).expect(400)).body.error).toBe(
      'unsupported_grant_type',
    );
    expect((await http().post('/api/v1/devices/token/').send({}).expect(400)).body.error).toBe('invalid_request');
    expect((await http().post('/api/v1/devices/token/').send('not json').type('json').expect(400)).body.message).toBeDefined();
    const unknown = await deviceHost(subject.app).poll('no-such-code').expect(400);
    expect(unknown.body).toEqual({ error: 'invalid_grant', error_description: expect.any(String), message: expect.any(String) });
    for (const token of ['garbage', 'a.b', `${'0'.repeat(8)}-0000-0000-0000-000000000000.x`]) {
      expect((await deviceHost(subject.app).refresh(token).expect(400)).body.error).toBe('invalid_grant');
    }
    await owner.get('/devices/activate/').expect(400);
    await owner.get('/devices/activate/?user_code=%00').expect(400);
    await owner.post('/devices/activate/', { user_code: 'BBBB-BBBB', approve: 'yes' }).expect(400);
    await owner.post('/devices/not-a-uuid/rename/', { name: 'x' }).expect(400);
    await owner.post('/devices/00000000-0000-4000-8000-000000000000/revoke/').expect(404);
    await http().get('/api/v1/devices/').expect(401);
    await http().get('/api/v1/devices/activate/?user_code=BBBB-BBBB').expect(401);
  });

  it('POST /login/ from a desktop registers its device once, refreshes it after, and a browser registers nothing', async () => {
    const owner = await registerCustomer(subject.app);
    const http = deviceHost(subject.app).http;
    const login = (hardware_fingerprint?: string) =>
      http().post('/api/v1/login/').send({ email: owner.email, password: TEST_PASSWORD, hardware_fingerprint }).expect(200);
    await login();
    await login('web-browser');
    expect((await owner.get('/devices/').expect(200)).body.devices).toEqual([]);

    const desktop = await login('machine-42');
    await login('machine-42');
    const devices = (await http().get('/api/v1/devices/').set(bearer(desktop.body.tokens.access)).expect(200)).body.devices;
    expect(devices).toEqual([expect.objectContaining({ name: 'Desktop device', status: 'active', current: true })]);

    // The same machine approved by the grant is the same device.
    const host = deviceHost(subject.app, 'machine-42');
    const tokens = await signInDevice(host, owner, 'Lab PC');
    expect(tokens.device_id).toBe(devices[0].id);
    expect((await owner.get('/devices/').expect(200)).body.devices).toEqual([
      expect.objectContaining({ id: tokens.device_id, name: 'Lab PC' }),
    ]);
  });
});
