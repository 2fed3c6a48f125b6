import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { DEVICE_CODE_GRANT, type DeviceCodeAnswer, type DeviceTokenAnswer } from '@meshwork/contracts';
import type { TestCustomer } from './accounts';
import { IdentityContext } from '../../../api/src/identity/application/identity-context';
import { SessionIssuer } from '../../../api/src/identity/application/session-issuer';
import { DeviceClock } from '../../../api/src/networks/application/devices/device-clock';

/**
 * A desktop host speaking the device grant to one api instance, as the real host will:
 * ask for a code, poll (form-encoded, as OAuth clients do), refresh. `sixSecondsLater`
 * moves this instance's device clock past the polling interval.
 */
export function deviceHost(app: INestApplication, fingerprint = `fp-${randomUUID()}`) {
  const http = () => request(app.getHttpServer());
  const clock = app.get(DeviceClock);
  return {
    fingerprint,
    http,
    async requestCode(name = 'Studio workstation'): Promise<DeviceCodeAnswer> {
      const body = {
        client_id: 'meshwork-desktop',
        device_name: name,
        platform: 'linux',
        app_version: '1.0.0',
        hardware_fingerprint: fingerprint,
      };
      return (await http().post('/api/v1/devices/code/').send(body).expect(200)).body as DeviceCodeAnswer;
    },
    poll: (deviceCode: string) =>
      http()
        .post('/api/v1/devices/token/')
        .type('form')
        .send({ grant_type: DEVICE_CODE_GRANT, device_code: deviceCode, client_id: 'meshwork-desktop' }),
    refresh: (refreshToken: string) =>
      http().post('/api/v1/devices/token/').send({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    sixSecondsLater: () => clock.advance(6_000),
    advance: (ms: number) => clock.advance(ms),
  };
}

export type DeviceHost = ReturnType<typeof deviceHost>;

/** The whole grant: code, approval by `owner` under `name`, the poll that yields the tokens. */
export async function signInDevice(host: DeviceHost, owner: TestCustomer, name = 'Studio workstation'): Promise<DeviceTokenAnswer> {
  const code = await host.requestCode();
  await owner.post('/devices/activate/', { user_code: code.user_code, name, approve: true }).expect(200);
  const answer = await host.poll(code.device_code).expect(200);
  return answer.body as DeviceTokenAnswer;
}

/**
 * The signed-in device's access token as `app` would have signed it long enough ago that it
 * expires `secondsLeft` from now (to the second): the same session and device, a shorter life.
 */
export function expiringAccessToken(app: INestApplication, device: DeviceTokenAnswer, secondsLeft: number): string {
  const claims = JSON.parse(Buffer.from(device.access_token.split('.')[1]!, 'base64url').toString()) as Record<string, string>;
  const ttlSeconds = app.get(IdentityContext).config.ACCESS_TOKEN_TTL_SECONDS;
  return app
    .get(SessionIssuer)
    .accessToken(
      { userId: claims.sub!, email: claims.email!, isStaff: false },
      claims.sid!,
      new Date(Date.now() - (ttlSeconds - secondsLeft) * 1000),
      device.device_id,
    );
}
