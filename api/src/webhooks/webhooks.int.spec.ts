import request from 'supertest';
import type { WebhookDelivery, WebhookEndpointCreated } from '@meshwork/contracts';
import { registerCustomer } from '../../../testkit/src/api/accounts';
import { deviceHost, signInDevice } from '../../../testkit/src/api/devices';
import { startTestApp, type TestApp } from '../../../testkit/src/api/test-app';
import { eventually } from '../../../testkit/src/eventually';
import { required } from '../../../testkit/src/infra';
import { BillingClock } from '../billing/application/billing-clock';
import { DISPATCH_DEFAULTS, WebhookDispatcher } from './application/webhook-dispatcher';
import { enterpriseCustomer } from './testing/webhook-kit';
import { type Receiver, startReceiver } from './testing/webhook-receiver';

interface Mail {
  subject: string;
  text: string;
}

describe('Webhooks: endpoints, signed deliveries from the event log, retries and the delivery log', () => {
  let subject: TestApp;
  let receiver: Receiver;
  let customer: Awaited<ReturnType<typeof enterpriseCustomer>>;
  const query = <T>(sql: string, values: unknown[] = []) => subject.db.pool.query<T & object>(sql, values).then((r) => r.rows);

  beforeAll(async () => {
    subject = await startTestApp({ STRIPE_SECRET_KEY: '', WEBHOOKS_ANY_URL: 'true' });
    receiver = await startReceiver();
    customer = await enterpriseCustomer(subject.app);
  });

  afterAll(async () => {
    await receiver?.close();
    await subject?.close();
  });

  async function endpoint(path: string, eventTypes = ['device.revoked']): Promise<WebhookEndpointCreated> {
    const { body } = await customer.post('/webhooks/endpoints/', { url: receiver.url(path), event_types: eventTypes }).expect(201);
    receiver.set(path, 'ok', [body.secret]);
    return body as WebhookEndpointCreated;
  }

  const deliveryOf = async (id: string) => (await customer.get(`/webhooks/deliveries/${id}`).expect(200)).body as WebhookDelivery;

  it('refuses customers whose plan has no webhooks, naming the plan', async () => {
    const free = await registerCustomer(subject.app);
    const refused = await free.get('/webhooks/endpoints/').expect(403);
    expect(refused.body.message).toMatch(/Enterprise plan/);
    await free.post('/webhooks/endpoints/', { url: receiver.url('/free'), event_types: ['device.revoked'] }).expect(403);
    await customer.post('/webhooks/endpoints/', { url: 'ftp://example.com/', event_types: ['device.revoked'] }).expect(400);
    await customer.post('/webhooks/endpoints/', { url: receiver.url('/x'), event_types: ['device.exploded'] }).expect(400);
    const types = (await customer.get('/webhooks/event-types/').expect(200)).body.event_types.map((t: { type: string }) => t.type);
    expect(types).toContain('model_access.changed');
    // Each event type's payload is in the OpenAPI document's webhooks section.
    const document = (await request(subject.app.getHttpServer()).get('/api/v1/openapi.json').expect(200)).body;
    expect(Object.keys(document.webhooks).sort()).toEqual([...types, 'webhook.test'].sort());
    expect(
      document.webhooks['device.revoked'].post.requestBody.content['application/json'].schema.properties.data.properties.device_id,
    ).toEqual({
      type: 'string',
    });
  });

  it('sends one signed delivery with the event id of the log when a device is revoked', async () => {
    const created = await endpoint('/revoked');
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.secret_hint).toBe(`whsec_…${created.secret.slice(-4)}`);
    const device = await signInDevice(deviceHost(subject.app), customer);
    const deviceId = (await customer.get('/devices/').expect(200)).body.devices[0].id as string;
    await customer.post(`/devices/${deviceId}/revoke`).expect(200);
    expect(device.access_token).toBeTruthy();

    await eventually(async () => receiver.at('/revoked').length === 1, 'the delivery');
    const [got] = receiver.at('/revoked');
    const [revoked] = await query<{ event_id: string }>(`SELECT event_id FROM es_events WHERE type = 'DeviceRevoked' AND stream_id = $1`, [
      `device-${deviceId}`,
    ]);
    expect(got!.verified).toBe(true);
    expect(got!.eventId).toBe(revoked!.event_id);
    expect(got!.body).toEqual({
      id: revoked!.event_id,
      type: 'device.revoked',
      api_version: '2026-11-01',
      created_at: expect.any(String),
      data: { device_id: deviceId, by: 'user' },
    });
    await eventually(async () => {
      const page = (await customer.get(`/webhooks/endpoints/${created.id}/deliveries/`).expect(200)).body;
      return page.count === 1 && page.results[0].status === 'succeeded' && page.results[0].response_status === 204;
    }, 'the delivery logged as succeeded');
    // The sign-in is not an event this endpoint subscribed to.
    expect(receiver.at('/revoked').map((r) => r.body.type)).toEqual(['device.revoked']);
  });

  it('retries an endpoint that answers 500 with growing, jittered waits, recording each attempt', async () => {
    const created = await endpoint('/failing');
    receiver.set('/failing', 'fail');
    const { delivery } = (await customer.post(`/webhooks/endpoints/${created.id}/test`).expect(202)).body;
    await eventually(async () => (await deliveryOf(delivery.id)).attempts === 1, 'the first attempt');
    const first = await deliveryOf(delivery.id);
    expect(first).toMatchObject({ status: 'retrying', response_status: 500, error: 'The endpoint answered 500.' });
    const wait1 = Date.parse(first.next_attempt_at!) - Date.parse(first.last_attempt_at!);
    expect(wait1).toBeGreaterThanOrEqual(30_000 * 0.85 - 1);
    expect(wait1).toBeLessThanOrEqual(30_000 * 1.15 + 1);

    await query(`UPDATE webhook_deliveries SET next_attempt_at = now() WHERE id = $1`, [delivery.id]);
    await eventually(async () => (await deliveryOf(delivery.id)).attempts === 2, 'the second attempt');
    const second = await deliveryOf(delivery.id);
    const wait2 = Date.parse(second.next_attempt_at!) - Date.parse(second.last_attempt_at!);
    expect(wait2).toBeGreaterThanOrEqual(120_000 * 0.85 - 1);
    expect(receiver.at('/failing').map((r) => r.eventId)).toEqual([delivery.event_id, delivery.event_id]);
    expect(
      await query(`SELECT attempt, response_status FROM webhook_delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`, [delivery.id]),
    ).toEqual([
      { attempt: 1, response_status: 500 },
      { attempt: 2, response_status: 500 },
    ]);
    const detail = (await customer.get(`/webhooks/deliveries/${delivery.id}`).expect(200)).body;
    expect(detail.response_body_excerpt).toBe('receiver says no');
    expect(JSON.parse(detail.request_body).type).toBe('webhook.test');
  });

  it('keeps delivering to a healthy endpoint while another hangs', async () => {
    const hanging = await endpoint('/hanging');
    const healthy = await endpoint('/healthy');
    receiver.set('/hanging', 'hang');
    for (let i = 0; i < 4; i++) await customer.post(`/webhooks/endpoints/${hanging.id}/test`).expect(202);
    await eventually(async () => receiver.at('/hanging').length === 2, 'two hanging requests (the per-endpoint limit)');
    const { delivery } = (await customer.post(`/webhooks/endpoints/${healthy.id}/test`).expect(202)).body;
    await eventually(async () => (await deliveryOf(delivery.id)).status === 'succeeded', 'the healthy delivery');
    expect(receiver.at('/hanging')).toHaveLength(2);
    const [pending] = await query<{ n: string }>(`SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND attempts = 0`, [
      hanging.id,
    ]);
    expect(Number(pending!.n)).toBe(4);
    await customer.patch(`/webhooks/endpoints/${hanging.id}`, { enabled: false }).expect(200);
  });

  it('signs with both secrets during a roll overlap, and the receiver accepts the new one', async () => {
    const created = await endpoint('/rolled');
    const rolled = (await customer.post(`/webhooks/endpoints/${created.id}/roll-secret`, { overlap_hours: 1 }).expect(200)).body;
    expect(Date.parse(rolled.previous_expires_at) - Date.now()).toBeGreaterThan(59 * 60_000);
    receiver.set('/rolled', 'ok', [rolled.secret]);
    await customer.post(`/webhooks/endpoints/${created.id}/test`).expect(202);
    await eventually(async () => receiver.at('/rolled').length === 1, 'the test event');
    expect(receiver.at('/rolled')[0]).toMatchObject({ signatures: 2, verified: true });

    await customer.post(`/webhooks/endpoints/${created.id}/roll-secret`, { overlap_hours: 99 }).expect(400);
    const again = (await customer.post(`/webhooks/endpoints/${created.id}/roll-secret`, { overlap_hours: 0 }).expect(200)).body;
    receiver.set('/rolled', 'ok', [again.secret]);
    const listed = (await customer.get('/webhooks/endpoints/').expect(200)).body.results.find((e: { id: string }) => e.id === created.id);
    expect(listed.secret_hint).toBe(`whsec_…${again.secret.slice(-4)}`);
    await customer.post(`/webhooks/endpoints/${created.id}/test`).expect(202);
    await eventually(async () => receiver.at('/rolled').length === 2, 'the second test event');
    // Overlap 0: the first secret stopped at once; the second's overlap (1 h) is still running.
    expect(receiver.at('/rolled')[1]).toMatchObject({ signatures: 2, verified: true });
  });

  it('resends a delivery with the same event id as a new series of attempts', async () => {
    const created = await endpoint('/resent');
    const { delivery } = (await customer.post(`/webhooks/endpoints/${created.id}/test`).expect(202)).body;
    await eventually(async () => (await deliveryOf(delivery.id)).status === 'succeeded', 'the test event');
    const resent = (await customer.post(`/webhooks/deliveries/${delivery.id}/resend`).expect(202)).body.delivery;
    expect(resent.id).not.toBe(delivery.id);
    expect(resent.event_id).toBe(delivery.event_id);
    await eventually(async () => (await deliveryOf(resent.id)).status === 'succeeded', 'the resend');
    const got = receiver.at('/resent');
    expect(got.map((r) => r.eventId)).toEqual([delivery.event_id, delivery.event_id]);
    expect(got.map((r) => r.deliveryId)).toEqual([delivery.id, resent.id]);
    const other = await registerCustomer(subject.app);
    await other.post(`/webhooks/deliveries/${delivery.id}/resend`).expect(403);
  });

  it('disables an endpoint that keeps failing for a day and mails its owner; enabling it again works', async () => {
    subject.app.get(WebhookDispatcher).options = { ...DISPATCH_DEFAULTS, failureLimit: 2 };
    const created = await endpoint('/dead');
    receiver.set('/dead', 'fail');
    const first = (await customer.post(`/webhooks/endpoints/${created.id}/test`).expect(202)).body.delivery;
    await eventually(async () => (await deliveryOf(first.id)).attempts === 1, 'the first failure');
    // The failures began a day ago: the next one is the 2nd in a row over more than 24 h.
    await query(`UPDATE webhook_endpoint_failures SET since = now() - interval '25 hours' WHERE endpoint_id = $1`, [created.id]);
    await customer.post(`/webhooks/endpoints/${created.id}/test`).expect(202);
    await eventually(async () => {
      const listed = (await customer.get('/webhooks/endpoints/').expect(200)).body.results.find((e: { id: string }) => e.id === created.id);
      return listed.enabled === false && listed.disabled_reason === 'failing';
    }, 'the endpoint disabled');
    // Other mail (the Enterprise receipt) goes to the same address: wait for this one by its subject.
    const mails = async () =>
      (await (await fetch(`${required('MAIL_CAPTURE_URL')}/messages?to=${encodeURIComponent(customer.email)}`)).json()) as Mail[];
    await eventually(async () => (await mails()).some((m) => m.subject === 'A webhook endpoint was disabled'), 'the mail');
    const mail = (await mails()).find((m) => m.subject === 'A webhook endpoint was disabled')!;
    expect(mail.text).toContain(receiver.url('/dead'));
    expect(mail.text).toMatch(/2 failed deliveries in a row/);
    const [disabled] = await query<{ metadata: { actor: { userId: string | null } } }>(
      `SELECT metadata FROM es_events WHERE stream_id = $1 AND type = 'WebhookEndpointDisabled'`,
      [`webhookendpoint-${created.id}`],
    );
    expect(disabled!.metadata.actor.userId).toBeNull();
    const enabled = (await customer.patch(`/webhooks/endpoints/${created.id}`, { enabled: true }).expect(200)).body;
    expect(enabled).toMatchObject({ enabled: true, disabled_reason: null });
    subject.app.get(WebhookDispatcher).options = DISPATCH_DEFAULTS;
  });

  it('disables the endpoints at once when a downgrade takes effect, and refuses to enable them on the lower plan', async () => {
    const leaving = await enterpriseCustomer(subject.app);
    const { body: created } = await leaving.post('/webhooks/endpoints/', {
      url: receiver.url('/leaving'),
      event_types: ['device.revoked'],
    });
    const cancelled = await leaving.post('/subscriptions/cancel/').expect(200);
    // The period ends: billing moves the customer to the free plan, with no event for the endpoint to deliver.
    await subject.app.get(BillingClock).tick(new Date(Date.parse(cancelled.body.expires_at as string) + 1000));

    const disabled = () =>
      query<{ data: { reason: string }; metadata: { actor: { userId: string | null } } }>(
        `SELECT data, metadata FROM es_events WHERE stream_id = $1 AND type = 'WebhookEndpointDisabled'`,
        [`webhookendpoint-${created.id}`],
      );
    await eventually(async () => (await disabled()).length === 1, 'the endpoint disabled by the plan change');
    const [event] = await disabled();
    expect(event!.data.reason).toBe('plan');
    expect(event!.metadata.actor.userId).toBeNull();
    // The read model follows the event asynchronously: wait for it, then check what it holds.
    const endpointRow = async () =>
      (
        await query<{ enabled: boolean; disabled_reason: string | null }>(
          'SELECT enabled, disabled_reason FROM rm_webhooks.endpoints WHERE id = $1',
          [created.id],
        )
      )[0];
    await eventually(async () => (await endpointRow())?.enabled === false, 'the read model shows the endpoint disabled');
    expect(await endpointRow()).toEqual({ enabled: false, disabled_reason: 'plan' });
    const refused = await leaving.patch(`/webhooks/endpoints/${created.id}`, { enabled: true }).expect(403);
    expect(refused.body.message).toMatch(/Enterprise plan/);
  });
});
