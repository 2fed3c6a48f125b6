import request from 'supertest';
import { registerCustomer, type TestCustomer } from '@meshwork/testkit/api/accounts';
import { deviceHost, signInDevice } from '@meshwork/testkit/api/devices';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';

const HOUR_MS = 3_600_000;
/** The whole UTC hour `hoursAgo` before now, as a host names it. */
const hourAgo = (hoursAgo: number) => new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS - hoursAgo * HOUR_MS).toISOString();
const report = (model: string, hour: string, requests: number, extra: object = {}) => ({
  model,
  hour,
  requests,
  prompt_tokens: requests * 10,
  completion_tokens: requests * 20,
  busy_ms: requests * 300,
  ...extra,
});

/**
 * Hosts' usage reports (issue 35 §4) against real PostgreSQL: cumulative per device, model and
 * hour, so resends never count twice; refused when out of bounds or not from a device; shown
 * on the dashboard over the plan's window.
 */
describe('device usage: POST /devices/usage-reports/ and GET /users/usage-stats/', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ STRIPE_SECRET_KEY: '', AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
  });
  afterAll(() => app?.close());

  const http = () => request(app.app.getHttpServer());
  const send = (token: string, reports: object[]) =>
    http()
      .post('/api/v1/devices/usage-reports/')
      .set({ Authorization: `Bearer ${token}` })
      .send({ reports });
  async function customerWithDevice(name?: string) {
    const owner = await registerCustomer(app.app);
    const device = await signInDevice(deviceHost(app.app), owner, name);
    return { owner, device };
  }
  const usageOf = async (owner: TestCustomer) => (await owner.get('/users/usage-stats/').expect(200)).body.usage;

  it('keeps the latest cumulative figures per device, model and hour: a resend or an older report never counts twice', async () => {
    const { owner, device } = await customerWithDevice('Studio');
    const hour = hourAgo(1);
    expect((await send(device.access_token, [report('smollm2', hour, 2)]).expect(200)).body).toEqual({ received: 1, recorded: 1 });
    expect((await send(device.access_token, [report('smollm2', hour, 2)]).expect(200)).body).toEqual({ received: 1, recorded: 0 });
    await send(device.access_token, [report('smollm2', hour, 1)]).expect(200);
    const later = [report('smollm2', hour, 5), report('gemma3', hour, 1), report('smollm2', hourAgo(0), 1)];
    expect((await send(device.access_token, later).expect(200)).body).toEqual({ received: 3, recorded: 3 });

    const usage = await usageOf(owner);
    expect(usage.totals).toEqual({ requests: 7, prompt_tokens: 70, completion_tokens: 140, busy_ms: 2100 });
    expect(usage.models).toEqual([
      { model: 'smollm2', requests: 6, prompt_tokens: 60, completion_tokens: 120, busy_ms: 1800 },
      { model: 'gemma3', requests: 1, prompt_tokens: 10, completion_tokens: 20, busy_ms: 300 },
    ]);
    expect(usage.devices).toEqual([{ device_id: device.device_id, device_name: 'Studio', ...usage.totals }]);
    const busyDays = usage.days.filter((day: { requests: number }) => day.requests > 0);
    expect(busyDays.reduce((sum: number, day: { requests: number }) => sum + day.requests, 0)).toBe(7);
    // The other figures of the answer are still there.
    expect((await owner.get('/users/usage-stats/').expect(200)).body).toMatchObject({ networks: { used: 0 }, downloads: { total: 0 } });
  });

  it('refuses reports out of bounds with a 400 naming what is wrong, and records none of the call', async () => {
    const { owner, device } = await customerWithDevice();
    const refused = async (reports: object[], text: RegExp) => {
      const answer = await send(device.access_token, reports).expect(400);
      expect(JSON.stringify(answer.body)).toMatch(text);
    };
    await refused([], /at least one/);
    await refused(
      Array.from({ length: 501 }, (_, i) => report(`m${i}`, hourAgo(1), 1)),
      /at most 500/,
    );
    await refused([report('smollm2', hourAgo(1), -1)], /Requests must be at least 0/);
    await refused([report('smollm2', hourAgo(1), 1, { prompt_tokens: 1e12 })], /Prompt tokens must be at most/);
    await refused([report('smollm2', hourAgo(1).replace(':00:00', ':30:00'), 1)], /whole UTC hour/);
    await refused([report('smollm2', hourAgo(-2), 1)], /reports\.0\.hour.*future/);
    await refused([report('smollm2', hourAgo(1), 1), report('smollm2', hourAgo(91 * 24), 1)], /reports\.1\.hour.*90 days/);
    await refused([report('smollm2', hourAgo(1), 1), report('smollm2', hourAgo(1), 2)], /repeats model smollm2/);
    await refused([report('a model', hourAgo(1), 1)], /Model must be a model name/);
    // Never any text of a conversation: an unknown field is refused, not stored.
    await refused([report('smollm2', hourAgo(1), 1, { prompt: 'hello' })], /prompt/);
    expect((await usageOf(owner)).totals.requests).toBe(0);
  });

  it("takes reports only from the caller's own signed-in device", async () => {
    const { owner: ada } = await customerWithDevice();
    const { owner: bob, device: bobs } = await customerWithDevice();
    // A web session is no device, and nobody can name another's device: reports go to the token's own.
    expect((await send(ada.token, [report('smollm2', hourAgo(1), 1)]).expect(403)).body.message).toMatch(/signed-in devices/);
    await send(bobs.access_token, [report('smollm2', hourAgo(1), 4)]).expect(200);
    expect((await usageOf(ada)).totals.requests).toBe(0);
    expect((await usageOf(bob)).totals.requests).toBe(4);
    // A revoked device reports no more.
    await bob.post(`/devices/${bobs.device_id}/revoke/`).expect(200);
    await send(bobs.access_token, [report('smollm2', hourAgo(1), 9)]).expect(401);
    await http()
      .post('/api/v1/devices/usage-reports/')
      .send({ reports: [report('smollm2', hourAgo(1), 1)] })
      .expect(401);
  });

  it("shows the plan's window: a week on Free, 90 days on Pro", async () => {
    const { owner, device } = await customerWithDevice();
    await send(device.access_token, [report('smollm2', hourAgo(3 * 24), 1), report('smollm2', hourAgo(30 * 24), 2)]).expect(200);
    const free = await usageOf(owner);
    expect({ window: free.window_days, days: free.days.length, requests: free.totals.requests }).toEqual({
      window: 7,
      days: 7,
      requests: 1,
    });
    expect(free.to).toBe(new Date().toISOString().slice(0, 10));

    const created = await owner.post('/subscriptions/create/', { plan_id: 'pro' }).expect(201);
    await owner.post(`/subscriptions/simulated-checkout/${String(created.body.payment_url).split('/').pop()}/complete/`).expect(200);
    const pro = await usageOf(owner);
    expect({ window: pro.window_days, days: pro.days.length, requests: pro.totals.requests }).toEqual({
      window: 90,
      days: 90,
      requests: 3,
    });
  });
});
