import request from 'supertest';
import { IdentityContext } from '../application/identity-context';
import { EVENT_STORE, type EventStore } from '../../platform/event-store/event-store.port';
import { registerCustomer } from '@meshwork/testkit/api/accounts';
import { startTestApp, type TestApp } from '@meshwork/testkit/api/test-app';
import { eventually } from '@meshwork/testkit/eventually';
import { userEvent } from '@meshwork/testkit/api/poison-events';

/**
 * Issue 10, item 1: `PATCH /profile/ {"first_name":"a\u0000b"}` once stored an event the users
 * projection could not write, and from then on no new user's token worked. The event is
 * appended straight to the store here, as a log from before the api refused such input holds it.
 */
describe('A stored profile name holding U+0000', () => {
  let subject: TestApp;
  beforeAll(async () => {
    subject = await startTestApp();
  });
  afterAll(async () => {
    await subject.close();
  });

  it('no longer freezes the users read model: a later registration signs in, and the name is kept without the NUL', async () => {
    const first = await registerCustomer(subject.app);
    const vault = subject.app.get(IdentityContext).vault;
    const updated = await userEvent(vault, first.userId, { type: 'ProfileUpdated', data: { firstName: 'a\u0000b' } });
    await subject.app.get<EventStore>(EVENT_STORE).append(`user-${first.userId}`, [updated], 'any');

    const later = await registerCustomer(subject.app);
    const profile = await later.get('/profile/').expect(200);
    expect(profile.body).toMatchObject({ id: later.userId });

    await eventually(async () => (await first.get('/profile/')).body.first_name === 'ab', 'the name to arrive');
    const health = await request(subject.app.getHttpServer()).get('/api/v1/health/system-status/');
    expect(health.body.components.projections.items.find((p: { name: string }) => p.name === 'users')).toMatchObject({ status: 'up' });
  });
});
