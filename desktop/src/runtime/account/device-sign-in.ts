import {
  AuthResponse,
  DESKTOP_CLIENT_ID,
  DEVICE_CODE_GRANT,
  DeviceCodeAnswer,
  DeviceTokenAnswer,
  type HostPasswordSignIn,
  MessageAnswer,
} from '@meshwork/contracts';
import { ApiError, type ApiClient } from '../api/api-client';

/** What the host says about itself when it asks for a code. */
export interface DeviceDescription {
  name: string;
  platform: string;
  appVersion: string;
  fingerprint: string;
}

/** The sign-in ended without tokens: the code expired, the person denied it, or it was cancelled. */
export class SignInEnded extends Error {}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new SignInEnded('Sign-in cancelled'));
      },
      { once: true },
    );
  });

/** POST /devices/code/: the code the person enters at /activate (RFC 8628 §3.1). */
export function requestDeviceCode(api: ApiClient, device: DeviceDescription): Promise<DeviceCodeAnswer> {
  return api.request('/devices/code/', {
    body: {
      client_id: DESKTOP_CLIENT_ID,
      device_name: device.name,
      platform: device.platform,
      app_version: device.appVersion,
      hardware_fingerprint: device.fingerprint,
    },
    schema: DeviceCodeAnswer,
    auth: false,
  });
}

/**
 * Polls the token endpoint at the interval the api asks for (RFC 8628 §3.5: five seconds more
 * after each slow_down) until the person approves, denies or the code expires.
 */
export async function pollForTokens(api: ApiClient, code: DeviceCodeAnswer, signal: AbortSignal): Promise<DeviceTokenAnswer> {
  let interval = code.interval * 1000;
  for (;;) {
    try {
      return await api.request('/devices/token/', {
        body: { grant_type: DEVICE_CODE_GRANT, device_code: code.device_code, client_id: DESKTOP_CLIENT_ID },
        schema: DeviceTokenAnswer,
        auth: false,
      });
    } catch (error) {
      if (!(error instanceof ApiError)) {
        await sleep(interval, signal); // offline for a moment: keep polling until the code expires
        continue;
      }
      if (error.body.error === 'slow_down') interval += 5_000;
      else if (error.body.error !== 'authorization_pending') throw new SignInEnded(error.body.message);
    }
    await sleep(interval, signal);
  }
}

/**
 * The fallback for a person who cannot open /activate: the host signs in to the site with the
 * email and password, approves its own code with that short web session and ends it. The
 * device is then signed in exactly as by the device code flow; the password is never kept.
 */
export async function signInWithPassword(
  api: ApiClient,
  device: DeviceDescription,
  credentials: HostPasswordSignIn,
): Promise<DeviceTokenAnswer> {
  const web = await api.request('/login/', {
    body: { ...credentials, hardware_fingerprint: device.fingerprint },
    schema: AuthResponse,
    auth: false,
  });
  const token = { token: web.tokens.access };
  try {
    const code = await requestDeviceCode(api, device);
    await api.request('/devices/activate/', {
      body: { user_code: code.user_code, name: device.name, approve: true },
      schema: MessageAnswer,
      auth: token,
    });
    return await pollForTokens(api, code, AbortSignal.timeout(code.expires_in * 1000));
  } finally {
    await api
      .request('/logout/', { body: { refresh_token: web.tokens.refresh }, schema: MessageAnswer, auth: token })
      .catch(() => undefined);
  }
}
