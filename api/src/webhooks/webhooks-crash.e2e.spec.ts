import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { freePort, spawnApi } from '@meshwork/testkit/api/api-process.cjs';
import { callApi, registerOverHttp, subscribeOverHttp } from '@meshwork/testkit/api/http-accounts.cjs';
import { required } from '@meshwork/testkit/infra';
import { eventually } from '../../../testkit/src/eventually';
import { type Receiver, startReceiver } from './testing/webhook-receiver';

/**
 * The built api killed with SIGKILL while two deliveries hang at the receiver: started again on
 * the same database, it sends both again, with the same event ids, and nothing is lost.
 */
describe('webhook deliveries across a kill -9 of the api', () => {
  const database = `webhooks_crash_${Date.now()}`;
  const admin = new Client({ connectionString: required('DATABASE_URL') });
  const url = new URL(required('DATABASE_URL'));
  url.pathname = `/${database}`;
  const db = new Client({ connectionString: url.toString() });
  let receiver: Receiver;
  let api: ChildProcess | null = null;
  let base = '';

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    receiver = await startReceiver();
  });

  afterAll(async () => {
    api?.kill('SIGKILL');
    await receiver?.close();
    await db.end().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });

  async function start(): Promise<void> {
    const port = await freePort();
    api = spawnApi(
      {
        ...process.env,
        DATABASE_URL: url.toString(),
        PORT: String(port),
        LOG_LEVEL: 'warn',
        STRIPE_SECRET_KEY: '',
        STRIPE_API_BASE: '',
        STRIPE_WEBHOOK_SECRET: '',
        WEBHOOKS_ANY_URL: 'true',
        AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      },
      ['ignore', 'ignore', 'inherit'],
    );
    base = `http://127.0.0.1:${port}/api/v1`;
    const started = api;
    await eventually(async () => {
      if (started.exitCode !== null) throw new Error(`the api exited ${started.exitCode}`);
      return fetch(`${base}/health/ping`).then((r) => r.ok);
    }, 'the api answering');
  }

  /** The fields of the answers this test reads. */
  interface Answer {
    id: string;
    secret: string;
    user_code: string;
    delivery: { event_id: string };
  }

  const call = (path: string, token: string | null, body?: object) => callApi<Answer>(base, path, token, body);

  it('sends the deliveries in flight again after a restart, with the same event ids', async () => {
    await start();
    await db.connect();
    const token = (await registerOverHttp(base, `user_${randomUUID().slice(0, 8)}`, 'Crash1Password')).tokens.access;
    await subscribeOverHttp(base, token, 'enterprise');
    const endpoint = await call('/webhooks/endpoints/', token, { url: receiver.url('/crash'), event_types: ['device.signed_in'] });
    receiver.set('/crash', 'hang', [endpoint.secret]);

    // A device signs in (DeviceRegistered in the log) and a test event: both hang at the receiver.
    const code = await call('/devices/code/', null, {
      client_id: 'meshwork-desktop',
      device_name: 'Crash box',
      platform: 'linux',
      app_version: '1.0.0',
      hardware_fingerprint: `fp-${randomUUID()}`,
    });
    await call('/devices/activate/', token, { user_code: code.user_code, name: 'Crash box', approve: true });
    const test = (await call(`/webhooks/endpoints/${endpoint.id}/test`, token, {})).delivery;
    await eventually(async () => receiver.at('/crash').length === 2, 'both deliveries in flight');
    const firstIds = receiver
      .at('/crash')
      .map((r) => r.eventId)
      .sort();

    api!.kill('SIGKILL');
    await new Promise((resolve) => api!.once('exit', resolve));
    receiver.set('/crash', 'ok');
    await start();
    // The dead process's leases would expire in 15 s (timeout + 5 s); move them rather than wait.
    await db.query(`UPDATE webhook_deliveries SET lease_until = now() WHERE status IN ('pending', 'retrying')`);

    await eventually(async () => receiver.at('/crash').length === 4, 'both deliveries sent again');
    const again = receiver.at('/crash').slice(2);
    expect(again.map((r) => r.eventId).sort()).toEqual(firstIds);
    expect(again.every((r) => r.verified)).toBe(true);
    const [registeredEvent] = (await db.query<{ event_id: string }>(`SELECT event_id FROM es_events WHERE type = 'DeviceRegistered'`)).rows;
    expect(firstIds).toEqual([registeredEvent!.event_id, test.event_id].sort());
    await eventually(async () => {
      const { rows } = await db.query<{ status: string }>(`SELECT status FROM webhook_deliveries WHERE endpoint_id = $1`, [endpoint.id]);
      return rows.length === 2 && rows.every((r) => r.status === 'succeeded');
    }, 'both deliveries recorded as succeeded');
  });
});
