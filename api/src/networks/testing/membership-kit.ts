import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import type { JoinCode, Network } from '@meshwork/contracts';
import type { TestCustomer } from '@meshwork/testkit/api/accounts';
import { deviceHost, signInDevice } from '@meshwork/testkit/api/devices';

/** A device of `owner` signed in by the device grant, with calls that carry its own session. */
export async function signedInDevice(app: INestApplication, owner: TestCustomer, name = 'Studio workstation') {
  const tokens = await signInDevice(deviceHost(app), owner, name);
  const http = () => request(app.getHttpServer());
  const bearer = { Authorization: `Bearer ${tokens.access_token}` };
  return {
    id: tokens.device_id,
    get: (path: string) => http().get(`/api/v1${path}`).set(bearer),
    post: (path: string, payload: object = {}) => http().post(`/api/v1${path}`).set(bearer).send(payload),
    delete: (path: string) => http().delete(`/api/v1${path}`).set(bearer),
  };
}

export type SignedInDevice = Awaited<ReturnType<typeof signedInDevice>>;

/** The owner makes `host` the network's host and shows a join code; answers the code. */
export async function hostWithCode(owner: TestCustomer, networkId: string, host: SignedInDevice): Promise<JoinCode> {
  await owner.post(`/networks/${networkId}/host/`, { device_id: host.id }).expect(200);
  return (await owner.post(`/networks/${networkId}/join-code/`).expect(200)).body as JoinCode;
}

/** The device joins by the code, as the Meshwork app on it does; answers the network. */
export async function join(device: SignedInDevice, code: string): Promise<Network> {
  return (await device.post('/networks/join/', { code }).expect(200)).body as Network;
}
