import type { HostConnection } from '@meshwork/contracts';
import { deviceHost, expiringAccessToken, signInDevice } from '@meshwork/testkit/api/devices';
import { networksWorld, type NetworksWorld } from '@meshwork/testkit/api/network-kit';
import { eventually } from '@meshwork/testkit/eventually';
import { ApiClient } from '../api/api-client';
import { EntitlementStream } from './entitlement-stream';

/**
 * The host's entitlement stream against the real api when its access token expires: the api
 * ends the stream (`expired`) and the host opens the next one at once with a refreshed token,
 * online throughout, and that stream carries the next change.
 */
describe('entitlement stream: the access token expires while it is open', () => {
  let world: NetworksWorld;
  beforeAll(async () => {
    world = await networksWorld();
  });
  afterAll(() => world?.close());

  it('reconnects at once with a refreshed token, never offline, and the new stream carries the next change', async () => {
    const owner = await world.customer();
    const tokens = await signInDevice(deviceHost(world.subject.app), owner);
    // A stream that expires within the retry interval of its opening is not renewed at once.
    const expiring = expiringAccessToken(world.subject.app, tokens, 8);

    const rotations: string[] = [];
    const api = new ApiClient(
      world.base,
      { access_token: expiring, refresh_token: tokens.refresh_token },
      { onRotate: async (rotated) => void rotations.push(rotated.access_token), onSignedOut: () => undefined },
    );
    const states: HostConnection[] = [];
    const documents: string[] = [];
    const logs: string[] = [];
    const stream = new EntitlementStream(api, {
      connection: (state) => states.push(state),
      document: async (token) => void documents.push(token),
      signedOut: () => logs.push('signed out'),
      lastSeq: () => null, // the document again on every connection: each one is seen here
      log: (message) => logs.push(message),
    });
    try {
      await eventually(async () => rotations.length === 1 && documents.length === 2, 30_000, 'a second stream with a fresh token');
      expect(states).toEqual(['connecting', 'online', 'online']);

      await world.subscribe(owner, 'pro');
      await eventually(async () => documents.length === 3, 'the plan change on the new stream');
      expect(states).not.toContain('offline');
      expect(logs).toEqual([]);
    } finally {
      await stream.stop();
    }
  });
});
