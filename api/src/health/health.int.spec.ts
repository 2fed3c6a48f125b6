import request from 'supertest';
import { SEEDED_PLANS } from '../billing/application/seed-plans';
import { storageProxy } from '@meshwork/testkit/api/upload-kit';
import { required } from '@meshwork/testkit/infra';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';
import { eventually } from '@meshwork/testkit/eventually';

describe('GET /api/v1/health/system-status/ against the real servers', () => {
  let subject: TestApp;
  // This api reaches MinIO through a proxy the test can cut: stopping MinIO itself would
  // fail whatever the other Jest worker is uploading at that moment.
  let storage: Awaited<ReturnType<typeof storageProxy>>;
  beforeAll(async () => {
    storage = await storageProxy(new URL(required('S3_ENDPOINT')));
    subject = await startTestApp({ S3_ENDPOINT: storage.url });
  });
  afterAll(async () => {
    await storage.close();
    await subject.close();
  });

  it('reports every component by name, all up', async () => {
    // Right after start the read models are still applying the seeded plans.
    const status = () => request(subject.app.getHttpServer()).get('/api/v1/health/system-status/');
    await eventually(async () => {
      const answer = await status();
      return (
        answer.status === 200 && answer.body.components.projections.items.every((p: { positionsBehind: number }) => p.positionsBehind === 0)
      );
    }, 'every projection caught up');
    const response = await status();
    expect(response.body.status).toBe('ok');
    expect(Object.keys(response.body.components).sort()).toEqual(
      ['event_store', 'kafka', 'mail', 'object_storage', 'payments', 'postgres', 'projections'].sort(),
    );
    expect(response.body.components).toMatchObject({
      postgres: { status: 'up', mode: 'external' },
      event_store: { status: 'up', headPosition: Object.keys(SEEDED_PLANS).length }, // a fresh database holds the seeded plans
      kafka: { status: 'up', mode: 'kafka' },
      object_storage: { status: 'up', mode: 's3' },
      payments: { status: 'up', mode: 'stripe' },
      mail: { status: 'up', mode: 'smtp' },
    });
    expect(response.body.components.projections.items).toEqual(
      [
        'analytics',
        'audit_trail',
        'billing',
        'billing_invoices',
        'catalog',
        'device_usage',
        'devices',
        'invoices',
        'kafka_relay',
        'networks',
        'networks_plan_limits',
        'users',
        'webhooks',
        'webhooks_plan',
      ].map((name) => expect.objectContaining({ name, status: 'up', running: true, positionsBehind: 0 })),
    );
  });

  it('answers 503 and names the component when object storage stops, and recovers', async () => {
    storage.cut();
    const down = await request(subject.app.getHttpServer()).get('/api/v1/health/system-status/').expect(503);
    expect(down.body.status).toBe('degraded');
    expect(down.body.components.object_storage).toMatchObject({ status: 'down', required: true });
    expect(down.body.components.postgres.status).toBe('up');
    await request(subject.app.getHttpServer())
      .get('/api/v1/health/')
      .expect(503, /"status":"degraded"/);

    storage.restore();
    const up = await request(subject.app.getHttpServer()).get('/api/v1/health/system-status/').expect(200);
    expect(up.body.components.object_storage.status).toBe('up');
  });
});
