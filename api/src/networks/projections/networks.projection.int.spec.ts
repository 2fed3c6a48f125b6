import { randomUUID } from 'node:crypto';
import type { NewEvent } from '@meshwork/contracts';
import { anEvent } from '@meshwork/testkit/api/an-event';
import { projectionScenario, type StreamEvents } from '../../testing/projection-scenario';
import type { NetworksEvent, PlanChange } from '../domain/network.events';
import { networksProjection } from './networks.projection';

const stream = (userId: string, ...events: NetworksEvent[]): StreamEvents => ({
  streamId: `networks-${userId}`,
  events: events.map((e): NewEvent => anEvent({ type: e.type, data: e.data })),
});
const toFree: PlanChange = { planId: 'free', planName: 'Free', source: 'subscription', eventId: randomUUID() };

describe('networks read model (events in, rows out)', () => {
  const networks = projectionScenario(() => networksProjection);
  const rows = () =>
    `SELECT name, model_id, model_name, status, suspension, host_device_id FROM ${networks.schema}.networks ORDER BY created_position`;
  const clients = () => `SELECT device_id FROM ${networks.schema}.network_clients ORDER BY joined_at, device_id`;

  it('a network created, hosted, joined, suspended by a downgrade with its cause, then resumed', async () => {
    const user = randomUUID();
    const [a, b] = [randomUUID(), randomUUID()];
    const model = { id: randomUUID(), name: 'llama' };
    const setUp = await networks
      .given()
      .when(
        stream(
          user,
          { type: 'NetworkCreated', data: { networkId: a, name: 'office', model } },
          { type: 'NetworkCreated', data: { networkId: b, name: 'lab', model } },
          { type: 'NetworkRenamed', data: { networkId: b, name: 'garage' } },
          { type: 'HostAssigned', data: { networkId: a, deviceId: 'h1' } },
          { type: 'JoinCodeIssued', data: { networkId: a, codeHash: 'x', expiresAt: '2030-01-01T00:00:00.000Z' } },
          { type: 'ClientJoined', data: { networkId: a, deviceId: 'd1' } },
          { type: 'ClientJoined', data: { networkId: a, deviceId: 'd2' } },
        ),
      );
    expect(await setUp.rows(rows())).toEqual([
      { name: 'office', model_id: model.id, model_name: 'llama', status: 'active', suspension: null, host_device_id: 'h1' },
      { name: 'garage', model_id: model.id, model_name: 'llama', status: 'active', suspension: null, host_device_id: null },
    ]);
    expect(await setUp.rows(clients())).toEqual([{ device_id: 'd1' }, { device_id: 'd2' }]);

    const downgraded = await networks
      .given()
      .when(
        stream(
          user,
          { type: 'NetworkSuspended', data: { networkId: b, cause: { kind: 'plan_limit', change: toFree } } },
          { type: 'ClientDisconnected', data: { networkId: a, deviceId: 'd2', cause: { kind: 'plan_limit', change: toFree } } },
        ),
      );
    expect((await downgraded.rows(rows()))[1]).toMatchObject({ status: 'suspended', suspension: { kind: 'plan_limit', change: toFree } });
    expect(await downgraded.rows(clients())).toEqual([{ device_id: 'd1' }]);

    const resumed = await networks
      .given()
      .when(
        stream(
          user,
          { type: 'NetworkResumed', data: { networkId: b, change: { ...toFree, planId: 'pro', planName: 'Pro' } } },
          { type: 'ClientRemoved', data: { networkId: a, deviceId: 'd1' } },
        ),
      );
    expect((await resumed.rows(rows()))[1]).toMatchObject({ status: 'active', suspension: null });
    expect(await resumed.rows(clients())).toEqual([]);

    const unhosted = await networks
      .given()
      .when(stream(user, { type: 'HostReleased', data: { networkId: a, deviceId: 'h1', cause: { kind: 'device_revoked' } } }));
    expect((await unhosted.rows(rows()))[0]).toMatchObject({ name: 'office', host_device_id: null });
  });

  it('a deleted network leaves no row behind, nor its clients', async () => {
    const user = randomUUID();
    const a = randomUUID();
    const then = await networks
      .given(
        stream(
          user,
          { type: 'NetworkCreated', data: { networkId: a, name: 'office', model: { id: 'm', name: 'llama' } } },
          { type: 'ClientJoined', data: { networkId: a, deviceId: 'd1' } },
        ),
      )
      .when(stream(user, { type: 'NetworkDeleted', data: { networkId: a } }));
    expect(await then.rows(rows())).toEqual([]);
    expect(await then.rows(clients())).toEqual([]);
  });
});
