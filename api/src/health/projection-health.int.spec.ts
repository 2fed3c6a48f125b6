import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { ProjectionsHost } from '../platform/projections/projections-host';
import { eventually } from '@meshwork/testkit/eventually';
import { releaseWithHugeVersionPart } from '@meshwork/testkit/api/poison-events';
import { quickStall, startWorkers } from '@meshwork/testkit/api/workers';
import { EVENT_STORE, type EventStore } from '../platform/event-store/event-store.port';
import { registerAccount } from '@meshwork/testkit/api/accounts';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';

describe('GET /api/v1/health/system-status/ with a projection that cannot apply an event', () => {
  let subject: TestApp;
  let workers: ProjectionsHost;
  beforeAll(async () => {
    // Full mode: the runners are workers of their own, as another process would run them, with a
    // short retry bound; health reads their state from the database.
    subject = await startTestApp({ PROJECTIONS_IN_PROCESS: 'false' });
    workers = await startWorkers(subject.app, quickStall);
  });
  afterAll(async () => {
    await workers.onApplicationShutdown();
    await subject.close();
  });

  it('answers 503 degraded naming the stalled projection and its event, then 200 ok after a fix and a retry', async () => {
    const http = () => request(subject.app.getHttpServer());
    const poison = releaseWithHugeVersionPart();
    const [position] = (await subject.app.get<EventStore>(EVENT_STORE).append(poison.streamId, poison.events, 0)).positions;

    let body: { status: string; components: { projections: { status: string; detail: string; items: { name: string }[] } } };
    await eventually(async () => {
      const answer = await http().get('/api/v1/health/system-status/');
      body = answer.body;
      return answer.status === 503 && answer.body.components.projections.items.some((p: { status: string }) => p.status === 'stalled');
    }, 'the catalog to stall');
    expect(body!.status).toBe('degraded');
    expect(body!.components.projections).toMatchObject({
      status: 'down',
      detail: `catalog stalled at position ${position} (ReleaseUploaded), 2 attempts`,
    });
    const catalog = body!.components.projections.items.find((p) => p.name === 'catalog');
    expect(catalog).toMatchObject({
      status: 'stalled',
      running: true,
      positionsBehind: expect.any(Number),
      failure: { position, eventId: poison.events[0]!.eventId, eventType: 'ReleaseUploaded', attempts: 2 },
    });
    // The public answer does not quote the error (it can carry event data); staff see it.
    expect(JSON.stringify(catalog)).not.toMatch(/out of range/);
    for (const other of body!.components.projections.items.filter((p) => p.name !== 'catalog')) {
      expect(other).toMatchObject({ status: 'up' });
    }
    await http()
      .get('/api/v1/health/')
      .expect(503, /"status":"degraded"/);

    // An operator's fix (the sort key takes bigger numbers), then staff ask for a retry.
    await subject.db.pool.query('ALTER TABLE rm_catalog.releases ALTER COLUMN version_key TYPE bigint[]');
    const staff = await registerAccount(subject.app, 'health', randomUUID().slice(0, 8), true);
    await http()
      .post('/api/v1/admin-panel/system/projections/catalog/retry/')
      .set('Authorization', `Bearer ${staff.tokens.access}`)
      .expect(200);
    await eventually(async () => (await http().get('/api/v1/health/system-status/')).status === 200, 'healthy again');
    const healthy = await http().get('/api/v1/health/system-status/').expect(200);
    expect(healthy.body.status).toBe('ok');
    expect(healthy.body.components.projections.items.find((p: { name: string }) => p.name === 'catalog')).toMatchObject({ status: 'up' });
    expect(healthy.body.components.projections.items[0].failure).toBeUndefined();
  });
});
