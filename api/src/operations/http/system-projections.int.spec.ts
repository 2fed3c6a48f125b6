import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { AuthResponse, ProjectionStatus } from '@meshwork/contracts';
import { eventually } from '@meshwork/testkit/eventually';
import { releaseWithHugeVersionPart } from '@meshwork/testkit/api/poison-events';
import { EVENT_STORE, type EventStore } from '../../platform/event-store/event-store.port';
import { registerAccount, registerCustomer } from '@meshwork/testkit/api/accounts';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';

describe('/api/v1/admin-panel/system/projections/', () => {
  let subject: TestApp;
  let staff: AuthResponse;
  const http = () => request(subject.app.getHttpServer());
  const asStaff = (method: 'get' | 'post', path: string) =>
    http()[method](`/api/v1/admin-panel/system/projections/${path}`).set('Authorization', `Bearer ${staff.tokens.access}`);
  const catalog = async () => ((await asStaff('get', '').expect(200)).body as ProjectionStatus[]).find((p) => p.name === 'catalog')!;

  beforeAll(async () => {
    subject = await startTestApp();
    staff = await registerAccount(subject.app, 'ops', randomUUID().slice(0, 8), true);
  });
  afterAll(async () => {
    await subject.close();
  });

  it('is for staff only', async () => {
    const customer = await registerCustomer(subject.app);
    await http().get('/api/v1/admin-panel/system/projections/').expect(401);
    await customer.get('/admin-panel/system/projections/').expect(403);
    await customer.post('/admin-panel/system/projections/catalog/retry/').expect(403);
    await customer.post('/admin-panel/system/projections/catalog/skip/', { position: 1, reason: 'x' }).expect(403);
  });

  it('shows the event a stuck projection cannot apply with its error, and skips exactly it, with a reason, on the record', async () => {
    const store = subject.app.get<EventStore>(EVENT_STORE);
    const poison = releaseWithHugeVersionPart();
    const [position] = (await store.append(poison.streamId, poison.events, 0)).positions;
    await eventually(async () => (await catalog()).failure?.position === position, 'the catalog to fail');
    expect(await catalog()).toMatchObject({
      state: expect.stringMatching(/failing|stalled/),
      running: true,
      failure: { position, eventId: poison.events[0]!.eventId, eventType: 'ReleaseUploaded', error: expect.stringMatching(/out of range/) },
    });

    const notThere = await asStaff('post', 'catalog/skip/')
      .send({ position: position! + 1, reason: 'x' })
      .expect(409);
    expect(notThere.body).toEqual({
      message: `catalog is not stuck at position ${position! + 1}: only the event it cannot get past can be skipped.`,
      errors: { position: [expect.any(String)] },
    });
    const noReason = await asStaff('post', 'catalog/skip/').send({ position, reason: '  ' }).expect(400);
    expect(noReason.body.errors).toEqual({ reason: ['Reason is required'] });
    await asStaff('post', 'catalog/skip/')
      .send({ position: String(position), reason: 'x' })
      .expect(400);
    await asStaff('post', 'catalog/skip/').send({ position, reason: 'a\u0000b' }).expect(400);
    expect((await catalog()).failure?.position).toBe(position); // nothing skipped by the refusals

    const reason = 'Version part too large for the sort key; re-uploaded as 1.0.4';
    const skipped = await asStaff('post', 'catalog/skip/').send({ position, reason }).expect(200);
    expect(skipped.body).toMatchObject({ name: 'catalog', state: 'up', failure: null });
    expect(skipped.body.position).toBeGreaterThanOrEqual(position!);
    const [decision] = await store.readStream('projection-catalog');
    expect(decision).toMatchObject({
      type: 'ProjectionEventSkipped',
      data: { projection: 'catalog', position, eventId: poison.events[0]!.eventId, eventType: 'ReleaseUploaded', reason },
      metadata: { actor: { userId: staff.user.id, isStaff: true } },
    });
    // The same decision again is on record once.
    await asStaff('post', 'catalog/skip/').send({ position, reason }).expect(200);
    expect(await store.readStream('projection-catalog')).toHaveLength(1);
  });

  it('asks for a retry, answering the state; 404 for a projection that does not exist', async () => {
    const users = await asStaff('post', 'users/retry/').expect(200);
    expect(users.body).toMatchObject({ name: 'users', failure: null });
    await asStaff('post', 'nonesuch/retry/').expect(404, { message: 'The requested resource was not found.' });
    await asStaff('post', 'nonesuch/skip/').send({ position: 1, reason: 'x' }).expect(404);
  });
});
